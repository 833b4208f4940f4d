// npm run bench:scaleout: the keyed /v1/macro/cpi route on one embedded process, on one process over PostgreSQL
// and Redis, and on two such processes sharing the load, in the same run and in alternating rounds; it prints
// requests a second, p50 and p99 of each and the ratios. PostgreSQL and Redis must answer at BENCH_PG_URL
// (default postgres://postgres@127.0.0.1:5432/test; a fresh database is made and dropped) and BENCH_REDIS_URL.
// Targets: one PostgreSQL process >= 0.5 of the embedded one, p99 <= 20 ms; two not slower in total than one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { createAccount, setContract } from '../dist/accounts/accounts.js';
import { createKey } from '../dist/accounts/keys.js';
import { loadConfig } from '../dist/runtime/config.js';
import { createDeps } from '../dist/runtime/deps.js';
import { start } from './process.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUTE = process.env.BENCH_ROUTE ?? '/v1/macro/cpi';
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** An account whose credits and rate are far above the load, so the path is measured, not the limits. */
async function keyOn(env) {
  const deps = await createDeps(loadConfig({ ...env, LOG_LEVEL: 'silent' }));
  try {
    const account = await createAccount(deps, {
      email: 'bench-scaleout@example.com',
      plan: 'enterprise',
      emailConfirmed: true,
    });
    await setContract(deps, {
      accountId: account.id,
      change: {
        creditsPerMonth: 1_000_000_000,
        creditsPerMinute: 1_000_000_000,
      },
    });
    return (await createKey(deps, { accountId: account.id, api: 'datasets' })).key;
  } finally {
    await deps.close();
  }
}

const server = (env) =>
  start(
    ['dist/cli/main.js', 'serve'],
    { ...env, PORT: '0' },
    /quarry listening at http:\/\/127\.0\.0\.1:(\d+)/,
  );

function load(url, key, connections, duration = SECONDS) {
  return new Promise((resolve, reject) =>
    autocannon({ url: url + ROUTE, headers: { 'x-api-key': key }, connections, duration }, (error, result) =>
      error ? reject(error) : resolve(result),
    ),
  );
}

/** The connections split evenly over the setup's processes, all at once; requests a second add up. */
async function measure(setup, duration) {
  const share = Math.floor(CONNECTIONS / setup.urls.length);
  const results = await Promise.all(setup.urls.map((url) => load(url, setup.key, share, duration)));
  return {
    requestsPerSecond: results.reduce((sum, r) => sum + r.requests.average, 0),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
  };
}

const database = `quarry_bench_${process.pid}`;
const admin = new pg.Client({ connectionString: PG_URL });
await admin.connect();
await admin.query(`CREATE DATABASE ${database}`);
const pgUrl = new URL(PG_URL);
pgUrl.pathname = `/${database}`;

const dataDir = mkdtempSync(path.join(tmpdir(), 'quarry-bench-scaleout-'));
const common = { DATA_API_ENABLED: 'true', LOG_LEVEL: 'warn' };
const embeddedEnv = { ...common, QUARRY_DATA_DIR: dataDir };
const sharedEnv = { ...common, QUARRY_DATA_DIR: dataDir, DATABASE_URL: pgUrl.toString(), REDIS_URL };
const processes = [];
try {
  const embeddedKey = await keyOn(embeddedEnv);
  const sharedKey = await keyOn(sharedEnv);
  const embedded = await server(embeddedEnv);
  const [first, second] = [await server(sharedEnv), await server(sharedEnv)];
  processes.push(embedded, first, second);
  const url = (p) => `http://127.0.0.1:${p.port}`;
  const setups = [
    { name: 'embedded (SQLite), 1 process', urls: [url(embedded)], key: embeddedKey },
    { name: 'PostgreSQL + Redis, 1 process', urls: [url(first)], key: sharedKey },
    { name: 'PostgreSQL + Redis, 2 processes', urls: [url(first), url(second)], key: sharedKey },
  ];
  for (const setup of setups) await measure(setup, 2);
  const rows = [];
  const rates = setups.map(() => []);
  for (let round = 1; round <= ROUNDS; round += 1) {
    for (const [i, setup] of setups.entries()) {
      const r = await measure(setup);
      rates[i].push(r.requestsPerSecond);
      rows.push({
        round,
        setup: setup.name,
        requestsPerSecond: Math.round(r.requestsPerSecond),
        p50ms: r.p50,
        p99ms: r.p99,
        non2xx: r.non2xx,
      });
    }
  }
  console.table(rows);
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const [embeddedRate, oneRate, twoRate] = rates.map(median);
  const worstP99 = Math.max(
    ...rows.filter((r) => r.setup.includes('1 process') && r.setup.startsWith('Post')).map((r) => r.p99ms),
  );
  console.log(
    `median requests/s: embedded ${Math.round(embeddedRate)}, PostgreSQL x1 ${Math.round(oneRate)} ` +
      `(${(oneRate / embeddedRate).toFixed(2)} of embedded; p99 at most ${worstP99} ms), ` +
      `PostgreSQL x2 ${Math.round(twoRate)} (${(twoRate / oneRate).toFixed(2)} of one). ` +
      `Targets: x1 >= 0.5 of embedded with p99 <= 20 ms; x2 >= x1. ${CONNECTIONS} connections, ${SECONDS} s rounds.`,
  );
} finally {
  for (const p of processes) p.child.kill();
  await new Promise((resolve) => setTimeout(resolve, 500));
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.end();
  rmSync(dataDir, { recursive: true, force: true });
}
