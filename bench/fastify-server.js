// The framework's floor: Fastify with no hooks, no validation and no logger answering the bytes Quarry
// answered, from memory. Its rate against the raw server shows what the framework alone costs.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const body = process.env.BENCH_BODY_FILE
  ? readFileSync(process.env.BENCH_BODY_FILE)
  : Buffer.from(process.env.BENCH_BODY ?? '{}');
const app = Fastify({ logger: false });
app.get('/', (_request, reply) => {
  reply.header('content-type', 'application/json; charset=utf-8').send(body);
});
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`listening ${app.server.address().port}\n`);
