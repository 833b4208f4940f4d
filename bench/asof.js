// npm run bench:asof: on the demo store (the bundled files, as npm start loads them), each of the cot board, a
// cot contract and the cpi board read as it is now and as known on a past date, in alternating rounds of the
// same run; reported as the asOf read's mean latency against the current read's (target: at most 2x; both are
// read-cached after their first call, whose time, computing the board, is reported beside them).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { bundleLoadedLine, loadBundledData } from '../dist/cli/bundled.js';
import { loadConfig } from '../dist/runtime/config.js';
import { createDeps } from '../dist/runtime/deps.js';
import { startQuarry, unlimitedDatasetsKey } from './process.js';

const DURATION = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PAIRS = [
  ['cot board', '/v1/cftc/cot', '/v1/cftc/cot?asOf=2025-01-10'],
  ['cot contract', '/v1/cftc/cot/contracts/067651', '/v1/cftc/cot/contracts/067651?asOf=2025-01-10'],
  ['cpi board', '/v1/macro/cpi', '/v1/macro/cpi?asOf=2025-10-01'],
];

const dataDir = mkdtempSync(path.join(tmpdir(), 'quarry-bench-asof-'));
const env = { QUARRY_DATA_DIR: dataDir, DATA_API_ENABLED: 'true', LOG_LEVEL: 'warn', PORT: '0' };
const deps = await createDeps(loadConfig(env));
console.log(bundleLoadedLine(await loadBundledData(deps, (line) => console.log(line))));
const key = await unlimitedDatasetsKey(deps);
await deps.close();

const quarry = await startQuarry(env);
const headers = { authorization: `Bearer ${key}` };
const url = (route) => `http://127.0.0.1:${quarry.port}${route}`;
const latency = (route) =>
  new Promise((resolve, reject) =>
    autocannon({ url: url(route), headers, connections: CONNECTIONS, duration: DURATION }, (error, result) =>
      error ? reject(error) : resolve(result.non2xx ? Number.NaN : result.latency.mean),
    ),
  );
/** The first call's time: the board computed from the store. */
const firstCall = async (route) => {
  const started = performance.now();
  const res = await fetch(url(route), { headers });
  if (res.status !== 200) throw new Error(`${route} answered ${res.status}`);
  await res.text();
  return Math.round(performance.now() - started);
};
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

try {
  const rows = [];
  for (const [name, current, past] of PAIRS) {
    const coldNow = await firstCall(current);
    const coldThen = await firstCall(past);
    const now = [];
    const then = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      now.push(await latency(current));
      then.push(await latency(past));
    }
    rows.push({
      name,
      firstCallMs: `${coldNow} / ${coldThen}`,
      currentMeanMs: median(now),
      asOfMeanMs: median(then),
      ratio: Math.round((median(then) / median(now)) * 100) / 100,
    });
  }
  console.table(rows);
  console.log(
    `${ROUNDS} rounds of ${DURATION} s each at ${CONNECTIONS} connections; target: asOf mean latency <= 2x current.`,
  );
} finally {
  quarry.child.kill();
  rmSync(dataDir, { recursive: true, force: true });
}
