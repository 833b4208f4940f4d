// npm run bench:mcp: market.data for 50 tickers x 25 fields through the MCP server (POST /mcp, one JSON-RPC
// tools/call a request) against POST /v1/data with the same request, on the same server, in alternating
// rounds at one connection. Target: MCP p50 within 1.5x of REST and within 3 ms of it.
import { rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { FIELDS, prepareMarket, SYMBOLS } from './market-setup.js';
import { start } from './process.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const call = { tickers: SYMBOLS, fields: FIELDS };

const { dataDir, env, keys } = await prepareMarket('mcp');
const quarry = await start(
  ['dist/cli/main.js', 'serve'],
  env,
  /quarry listening at http:\/\/127\.0\.0\.1:(\d+)/,
);
const base = `http://127.0.0.1:${quarry.port}`;

const cases = {
  rest: { path: '/v1/data', body: JSON.stringify(call), headers: {} },
  mcp: {
    path: '/mcp',
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'market.data', arguments: call },
    }),
    headers: { accept: 'application/json, text/event-stream' },
  },
};

let next = 0;
/**
 * One caller sending `body` again and again for SECONDS: each request's latency from a high-resolution clock
 * (autocannon's whole milliseconds cannot tell 1.4 ms from 2.4 ms).
 */
async function measure({ path, body, headers }) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const latencies = [];
  let failed = 0;
  const until = performance.now() + SECONDS * 1000;
  try {
    while (performance.now() < until) {
      const started = performance.now();
      const status = await post(agent, path, body, {
        'content-type': 'application/json',
        authorization: `Bearer ${keys[next++ % keys.length]}`,
        ...headers,
      });
      latencies.push(performance.now() - started);
      if (status !== 200) failed += 1;
    }
  } finally {
    agent.destroy();
  }
  latencies.sort((x, y) => x - y);
  const at = (q) => Math.round(latencies[Math.floor(q * (latencies.length - 1))] * 100) / 100;
  return { p50: at(0.5), p99: at(0.99), count: latencies.length, failed };
}

/** One POST on the agent's connection; resolves with the status once the whole answer is read. */
function post(agent, path, body, headers) {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method: 'POST', agent, headers }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function check(name, { path, body, headers }) {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${keys[0]}`, ...headers },
    body,
  });
  const text = await res.text();
  if (res.status !== 200 || text.includes('"isError":true'))
    throw new Error(`${name}: ${res.status} ${text.slice(0, 300)}`);
  return text.length;
}

const rows = [];
try {
  const sizes = { rest: await check('rest', cases.rest), mcp: await check('mcp', cases.mcp) };
  for (const name of ['rest', 'mcp']) await measure({ ...cases[name] });
  for (let round = 1; round <= ROUNDS; round += 1) {
    const r = await measure(cases.rest);
    const m = await measure(cases.mcp);
    rows.push({
      round,
      restP50ms: r.p50,
      mcpP50ms: m.p50,
      ratio: Math.round((m.p50 / r.p50) * 100) / 100,
      restP99ms: r.p99,
      mcpP99ms: m.p99,
      restCalls: r.count,
      mcpCalls: m.count,
      failed: r.failed + m.failed,
    });
  }
  console.table(rows);
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const restP50 = median(rows.map((r) => r.restP50ms));
  const mcpP50 = median(rows.map((r) => r.mcpP50ms));
  console.log(
    `bytes: REST ${sizes.rest}, MCP ${sizes.mcp}. Median p50: REST ${restP50} ms, MCP ${mcpP50} ms ` +
      `(${(mcpP50 / restP50).toFixed(2)}x, +${(mcpP50 - restP50).toFixed(1)} ms). ` +
      'Target: MCP p50 within 1.5x of REST and within 3 ms.',
  );
} finally {
  quarry.child.kill();
  rmSync(dataDir, { recursive: true, force: true });
}
