// The baseline: node:http answering the bytes Quarry answered, from memory, with no work at all.
import { createServer } from 'node:http';
import { benchBody } from './body.js';

const body = benchBody();
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
