// npm run bench:isolation: does a request wait behind another's work? One embedded server process holds
// ISOLATION_AWARDS (default 1,000,000) generated awards; a steady light load — /healthz and a keyed board route,
// one request after another on each — runs while a heavy request is served: the first awards listing after the
// load (it builds the listing's columns in memory). Reported: p50/p99/max latency of the light requests during
// the heavy one, and the longest event-loop block the server measured (/metrics). Targets: light p99 <= 50 ms,
// no block over 100 ms.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { awardsImporter } from '../dist/datasets/awards/import.js';
import { importFile } from '../dist/ingest/import.js';
import { loadConfig } from '../dist/runtime/config.js';
import { createDeps } from '../dist/runtime/deps.js';
import { generateAwards } from './awards-data.js';
import { startQuarry, unlimitedDatasetsKey } from './process.js';

const ROWS = Number(process.env.ISOLATION_AWARDS ?? 1_000_000);
const dir = mkdtempSync(path.join(tmpdir(), 'quarry-bench-isolation-'));
const env = {
  QUARRY_DATA_DIR: dir,
  DATA_API_ENABLED: 'true',
  LOG_LEVEL: 'warn',
  HOST: '127.0.0.1',
  PORT: '0',
};

const file = path.join(dir, 'awards.ndjson');
generateAwards(file, ROWS);
const deps = await createDeps(loadConfig(env));
await importFile(deps, awardsImporter, file);
const key = await unlimitedDatasetsKey(deps);
await deps.close();

const server = await startQuarry(env);
const base = `http://127.0.0.1:${server.port}`;
const headers = { authorization: `Bearer ${key}` };

/** Requests `route` one after another until `until` settles; each one's latency in ms. */
async function steady(route, until, withKey) {
  const times = [];
  let done = false;
  until.finally(() => {
    done = true;
  });
  while (!done) {
    const started = performance.now();
    const res = await fetch(base + route, withKey ? { headers } : {});
    await res.arrayBuffer();
    times.push(performance.now() - started);
  }
  return times;
}

const longestBlock = async () => {
  const text = await (await fetch(`${base}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('quarry_event_loop_longest_block_seconds '));
  return Number(line?.split(' ')[1]) * 1000;
};
const percentile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const summary = (name, times) => {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    light: name,
    requests: sorted.length,
    p50_ms: percentile(sorted, 0.5).toFixed(1),
    p99_ms: percentile(sorted, 0.99).toFixed(1),
    max_ms: sorted.at(-1).toFixed(1),
  };
};

try {
  const blockBefore = await longestBlock();
  const heavyStarted = performance.now();
  const heavy = fetch(`${base}/v1/awards?limit=50`, { headers }).then(async (res) => {
    const body = await res.json();
    if (res.status !== 200 || body.data.rows.length !== 50)
      throw new Error(`the listing answered ${res.status}`);
  });
  const [health, board] = await Promise.all([
    steady('/healthz', heavy, false),
    steady('/v1/cftc/cot', heavy, true),
  ]);
  await heavy;
  const heavyMs = performance.now() - heavyStarted;
  const blockAfter = await longestBlock();
  console.log(`${ROWS} awards: the first listing after the load took ${heavyMs.toFixed(0)} ms`);
  console.table([summary('/healthz', health), summary('/v1/cftc/cot', board)]);
  console.log(
    `longest event-loop block: ${blockAfter.toFixed(0)} ms since the server started (${blockBefore.toFixed(0)} ms before the listing)`,
  );
  console.log('targets: light-request p99 <= 50 ms; no event-loop block over 100 ms');
} finally {
  server.child.kill();
  rmSync(dir, { recursive: true, force: true });
}
