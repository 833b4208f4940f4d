// npm run bench:market: /v1/data with 50 tickers x 25 fields and /v1/history with 10 tickers x 5 fields over
// 20 years of daily bars, against a raw node:http server returning the same bytes, in the same run.
// The bars are synthetic (a random walk per symbol, 20 years of weekdays, six decimals like the published price
// files): the benchmark measures the path.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createAccount } from '../dist/accounts/accounts.js';
import { createKey } from '../dist/accounts/keys.js';
import { importRecords } from '../dist/ingest/import.js';
import { loadConfig } from '../dist/kernel/config.js';
import { marketImporter } from '../dist/market/load/import.js';
import { createDeps } from '../dist/runtime/deps.js';
import { start } from './process.js';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
// One connection: the targets are latencies of a single caller.
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 1);
const SYMBOLS = Array.from({ length: 50 }, (_, i) => `SYN${i}`);
const FIELDS = [
  'PX_LAST',
  'PX_OPEN',
  'PX_HIGH',
  'PX_LOW',
  'PX_VOLUME',
  'CHG_PCT_1D',
  'PX_CLOSE_1D',
  'HIGH_52WEEK',
  'LOW_52WEEK',
  'NAME',
  'CRNCY',
  'VOLATILITY_10D',
  'VOLATILITY_30D',
  'VOLATILITY_90D',
  'VOLATILITY_260D',
  'price',
  'open',
  'high',
  'low',
  'volume',
  'previousClose',
  'change',
  'changePercent',
  'high52w',
  'low52w',
];

/** Prices as published: a price file carries at most six decimals (129.410004), not a double's seventeen digits. */
const published = (value) => Math.round(value * 1e6) / 1e6;

async function* bars() {
  let line = 0;
  for (const symbol of SYMBOLS) {
    let price = 100;
    const day = new Date(Date.UTC(2006, 0, 2));
    const end = Date.UTC(2026, 0, 1);
    for (; day.getTime() < end; day.setUTCDate(day.getUTCDate() + 1)) {
      if (day.getUTCDay() === 0 || day.getUTCDay() === 6) continue;
      const move = price * (Math.random() - 0.5) * 0.04;
      const open = price;
      price = Math.max(1, price + move);
      line += 1;
      yield {
        line,
        value: {
          type: 'bar',
          symbol,
          date: day.toISOString().slice(0, 10),
          open: published(open),
          high: published(Math.max(open, price) * 1.005),
          low: published(Math.min(open, price) * 0.995),
          close: published(price),
          volume: 1_000_000,
        },
      };
    }
  }
}

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

const dataDir = mkdtempSync(path.join(tmpdir(), 'quarry-bench-market-'));
const env = { QUARRY_DATA_DIR: dataDir, LOG_LEVEL: 'warn', PORT: '0' };
const deps = await createDeps(loadConfig(env));
const report = await importRecords(deps.store.db, marketImporter, bars(), 'synthetic');
// Each key has 120 units a minute: the benchmark spreads its calls over many real keys (20 per account).
const keys = [];
for (let a = 0; a < 150; a += 1) {
  const account = await createAccount(deps.store.db, {
    email: `bench-market-${a}@example.com`,
    marketPlan: 'paid',
    emailConfirmed: true,
  });
  for (let k = 0; k < 20; k += 1)
    keys.push((await createKey(deps.store.db, { accountId: account.id, api: 'market' })).key);
}
await deps.close();
console.log(`${report.lines} synthetic daily bars for ${SYMBOLS.length} symbols`);

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
