// npm run bench:market: /v1/data with 50 tickers x 25 fields and /v1/history with 10 tickers x 5 fields over
// 20 years of daily bars, against a raw node:http server returning the same bytes, in the same run.

import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { FIELDS, prepareMarket, SYMBOLS } from './market-setup.js';
import { start } from './process.js';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
// One connection: the targets are latencies of a single caller.
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 1);
let next = 0;
const measure = (url, rotateKeys) =>
  new Promise((resolve, reject) =>
    autocannon(
      {
        url,
        connections: CONNECTIONS,
        duration: DURATION,
        requests: [
          {
            setupRequest: (req) => {
              if (rotateKeys)
                req.headers = { ...req.headers, authorization: `Bearer ${keys[next++ % keys.length]}` };
              return req;
            },
          },
        ],
      },
      (e, r) => (e ? reject(e) : resolve(r)),
    ),
  );

const { dataDir, env, keys } = await prepareMarket('market');
const quarry = await start(
  ['dist/cli/main.js', 'serve'],
  env,
  /quarry listening at http:\/\/127\.0\.0\.1:(\d+)/,
);
const base = `http://127.0.0.1:${quarry.port}`;
const headers = { authorization: `Bearer ${keys[keys.length - 1]}` };
const cases = [
  ['data 50x25', `/v1/data?tickers=${SYMBOLS.join(',')}&fields=${FIELDS.join(',')}`],
  [
    'history 10x5 20y',
    `/v1/history?tickers=${SYMBOLS.slice(0, 10).join(',')}&fields=price,open,high,low,volume&start=2006-01-01&end=2025-12-31`,
  ],
];
const rows = [];
try {
  for (const [name, route] of cases) {
    const sample = await fetch(base + route, { headers });
    if (sample.status !== 200) throw new Error(`${route} answered ${sample.status}: ${await sample.text()}`);
    const body = await sample.text();
    const bodyFile = path.join(dataDir, 'body.json');
    writeFileSync(bodyFile, body);
    const raw = await start(['bench/raw-server.js'], { BENCH_BODY_FILE: bodyFile }, /listening (\d+)/);
    const rawResult = await measure(`http://127.0.0.1:${raw.port}/`, false);
    raw.child.kill();
    const result = await measure(base + route, true);
    rows.push({
      name,
      bytes: body.length,
      rawP50ms: rawResult.latency.p50,
      p50ms: result.latency.p50,
      p99ms: result.latency.p99,
      requestsPerSecond: Math.round(result.requests.average),
      rawRequestsPerSecond: Math.round(rawResult.requests.average),
      non2xx: result.non2xx,
    });
  }
  console.table(rows);
  console.log('Targets: data p50 <= 15 ms, history p50 <= 60 ms.');
} finally {
  quarry.child.kill();
  rmSync(dataDir, { recursive: true, force: true });
}
