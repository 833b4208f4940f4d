// The baseline: node:http answering the bytes Quarry answered, from memory, with no work at all.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

// Large bodies come in a file (an environment variable has a size limit).
const body = process.env.BENCH_BODY_FILE
  ? readFileSync(process.env.BENCH_BODY_FILE)
  : Buffer.from(process.env.BENCH_BODY ?? '{}');
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
