// The framework's floor: Fastify with no hooks, no validation and no logger answering the bytes Quarry
// answered, from memory. Its rate against the raw server shows what the framework alone costs.
import Fastify from 'fastify';
import { benchBody } from './body.js';

const body = benchBody();
const app = Fastify({ logger: false });
app.get('/', (_request, reply) => {
  reply.header('content-type', 'application/json; charset=utf-8').send(body);
});
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`listening ${app.server.address().port}\n`);
