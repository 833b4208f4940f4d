// npm run bench: a keyed route (auth + charge + read) against a raw node:http server returning the same
// bytes, measured with autocannon in the same run; a bare Fastify route answering those bytes runs alongside
// to show the framework's own share. Each server runs in its own process; autocannon runs here.
// Both servers are warmed, then measured in alternating rounds so that a slow spell of a shared machine
// lands on both; the ratio reported is the median of the rounds' ratios.
// BENCH_PIN=1 (two or more cores, taskset from util-linux) runs each server on core 0 and autocannon on
// core 1; by default the scheduler places them (docs/adr/004 compares the two).
// BENCH_PROFILE=1: after the measured rounds, a second Quarry process runs one more round under the CPU profiler
// (node --cpu-prof), and the five costliest functions of its busy time are printed; the rounds above are not
// profiled.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { loadConfig } from '../dist/runtime/config.js';
import { createDeps } from '../dist/runtime/deps.js';
import { start, startQuarry, stop, unlimitedDatasetsKey } from './process.js';
import { profileIn, profilerArgs, topCosts } from './profile.js';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WARM_UP = 3;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUTE = process.env.BENCH_ROUTE ?? '/v1/macro/cpi';

const PROFILE = process.env.BENCH_PROFILE === '1';
const PIN = process.env.BENCH_PIN === '1' && availableParallelism() >= 2 && hasTaskset();

function hasTaskset() {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Binds every thread of process `pid` (and the threads it starts later) to one core. */
function pin(pid, core) {
  execFileSync('taskset', ['-a', '-p', '-c', String(core), String(pid)], { stdio: 'ignore' });
}

function measure(url, headers, duration = DURATION) {
  return new Promise((resolve, reject) => {
    autocannon({ url, headers, connections: CONNECTIONS, duration }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

function summary(name, result) {
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50ms: result.latency.p50,
    p99ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'quarry-bench-'));
const env = { QUARRY_DATA_DIR: dataDir, DATA_API_ENABLED: 'true', LOG_LEVEL: 'warn', PORT: '0' };
const deps = await createDeps(loadConfig(env));
const key = await unlimitedDatasetsKey(deps);
await deps.close();

const quarry = await startQuarry(env);
const quarryUrl = `http://127.0.0.1:${quarry.port}${ROUTE}`;
const headers = { authorization: `Bearer ${key}` };
const sample = await fetch(quarryUrl, { headers });
if (sample.status !== 200) throw new Error(`${ROUTE} answered ${sample.status}: ${await sample.text()}`);
const body = await sample.text();

const raw = await start(['bench/raw-server.js'], { BENCH_BODY: body }, /listening (\d+)/);
const bare = await start(['bench/fastify-server.js'], { BENCH_BODY: body }, /listening (\d+)/);
if (PIN) {
  for (const server of [quarry, raw, bare]) pin(server.child.pid, 0);
  pin(process.pid, 1);
}
try {
  const rawUrl = `http://127.0.0.1:${raw.port}/`;
  const bareUrl = `http://127.0.0.1:${bare.port}/`;
  await measure(rawUrl, {}, WARM_UP);
  await measure(bareUrl, {}, WARM_UP);
  await measure(quarryUrl, headers, WARM_UP);
  const rows = [];
  const ratios = [];
  const bareRatios = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const baseline = summary(`round ${round}: raw node:http`, await measure(rawUrl, {}));
    const framework = summary(`round ${round}: bare fastify`, await measure(bareUrl, {}));
    const keyed = summary(`round ${round}: quarry GET ${ROUTE} (keyed)`, await measure(quarryUrl, headers));
    rows.push(baseline, framework, keyed);
    ratios.push(keyed.requestsPerSecond / baseline.requestsPerSecond);
    bareRatios.push(framework.requestsPerSecond / baseline.requestsPerSecond);
  }
  console.table(rows);
  const p99 = Math.max(...rows.filter((_, i) => i % 3 === 2).map((row) => row.p99ms));
  console.log(
    `ratio of requests/s: median ${median(ratios).toFixed(2)} of ${ratios.map((r) => r.toFixed(2)).join(', ')} ` +
      `(floor >= 0.4; bare fastify ${median(bareRatios).toFixed(2)}); keyed p99 at most ${p99} ms ` +
      `(target <= 10) at ${CONNECTIONS} connections, ` +
      `${ROUNDS} rounds of ${DURATION} s, body ${body.length} bytes, ` +
      (PIN ? 'servers on core 0 and autocannon on core 1' : 'placement left to the scheduler'),
  );
  if (PROFILE) {
    await stop(quarry);
    console.log(`\nthe keyed route's five costliest functions (one ${DURATION} s round under the profiler):`);
    console.table(await profiled(env, headers));
  }
} finally {
  for (const server of [quarry, raw, bare]) server.child.kill();
  rmSync(dataDir, { recursive: true, force: true });
}

/** One round on a Quarry process run under the CPU profiler; the top five costs of its busy time. */
async function profiled(env, headers) {
  const folder = path.join(dataDir, 'profile');
  const server = await start(
    [...profilerArgs(folder), 'dist/cli/main.js', 'serve'],
    env,
    /quarry listening at http:\/\/127\.0\.0\.1:(\d+)/,
  );
  const url = `http://127.0.0.1:${server.port}${ROUTE}`;
  await measure(url, headers, WARM_UP);
  await measure(url, headers);
  // The profile is written as the process ends.
  await stop(server);
  return topCosts(profileIn(folder));
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
