// npm run bench:scaleout: the keyed /v1/macro/cpi route on one embedded process, on one process over PostgreSQL
// and Redis, and on two such processes sharing the load, in alternating rounds, measured twice:
//
// 1. Unconstrained, on the machine's PostgreSQL and Redis (BENCH_PG_URL, default
//    postgres://postgres@127.0.0.1:5432/test, where a fresh database is made and dropped; BENCH_REDIS_URL):
//    every part shares the machine's cores. Targets: one PostgreSQL process >= 0.5 of the embedded one, p99 <=
//    20 ms.
// 2. Under CPU quotas, the way a deployment runs, each part with its own CPU (needs root and cgroups v1; skipped
//    with a word otherwise): a PostgreSQL cluster of its own (initdb in a temporary folder, run as the postgres
//    user) limited to SCALEOUT_PG_CORES (0.5), a Redis of its own limited to SCALEOUT_REDIS_CORES (0.15), and
//    each Quarry process — the embedded one, and the one or two over PostgreSQL — in a group of its own limited
//    to SCALEOUT_INSTANCE_CORES (0.25), with SCALEOUT_CONNECTIONS (8) connections each; the load generator runs
//    outside them and its own CPU is reported. Printed: requests a second, p50/p99, and the CPU microseconds a
//    call of each part (from cpuacct.usage over the round), then the capacity they give. Then each setup once
//    more with its calls paced at SCALEOUT_PACED_SHARE (0.7) of its rate, for the latency below saturation.
//    Targets: two instances >= 1.8x one; one on PostgreSQL + Redis >= 0.6 of embedded; p99 <= 20 ms (saturated
//    and paced); PostgreSQL's CPU a call at most half of an instance's. Everything it made (groups, cluster,
//    folders) is removed.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { loadConfig } from '../dist/runtime/config.js';
import { createDeps } from '../dist/runtime/deps.js';
import { cpuGroup, cpuGroupsAvailable } from './cgroups.js';
import { startPostgres, startRedis } from './cluster.js';
import { paced } from './paced.js';
import { freshDatabase, start, stop, unlimitedDatasetsKey } from './process.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUTE = process.env.BENCH_ROUTE ?? '/v1/macro/cpi';
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const QUOTA = {
  instance: Number(process.env.SCALEOUT_INSTANCE_CORES ?? 0.25),
  postgres: Number(process.env.SCALEOUT_PG_CORES ?? 0.5),
  redis: Number(process.env.SCALEOUT_REDIS_CORES ?? 0.15),
  connections: Number(process.env.SCALEOUT_CONNECTIONS ?? 8),
  warmUpSeconds: Number(process.env.SCALEOUT_WARMUP_SECONDS ?? 15),
};
const RUNS = (process.env.SCALEOUT_RUNS ?? 'free,quota').split(',');
/** The share of each setup's closed-loop rate its paced round asks for (below saturation, as one is sized). */
const PACED_SHARE = Number(process.env.SCALEOUT_PACED_SHARE ?? 0.7);
const COMMON = { DATA_API_ENABLED: 'true', LOG_LEVEL: 'warn' };

const mark = (ok) => (ok ? 'meets' : 'MISSES');
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A key whose credits and rate are far above the load, so the path is measured, not the limits. */
async function keyOn(env) {
  const deps = await createDeps(loadConfig({ ...env, LOG_LEVEL: 'silent' }));
  try {
    return await unlimitedDatasetsKey(deps);
  } finally {
    await deps.close();
  }
}

const server = (env, launch) =>
  start(
    ['dist/cli/main.js', 'serve'],
    { ...env, PORT: '0' },
    /quarry listening at http:\/\/127\.0\.0\.1:(\d+)/,
    launch,
  );

/**
 * A closed loop of `connections` (autocannon), or with `rate` calls a second sent at that pace over them
 * (bench/paced.js); either way { calls, requestsPerSecond, p50, p99, non2xx }.
 */
async function load(url, key, connections, duration, rate) {
  const headers = { 'x-api-key': key };
  if (rate !== undefined) return paced({ url: url + ROUTE, headers, rate, seconds: duration, connections });
  const result = await new Promise((resolve, reject) =>
    autocannon({ url: url + ROUTE, headers, connections, duration }, (error, r) =>
      error ? reject(error) : resolve(r),
    ),
  );
  return {
    calls: result.requests.total,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
  };
}

/** A free port on loopback. */
function freePort() {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Runs the load on every process of `setup` at once (`connections` each); requests a second add up. With
 * `groups` (name → CPU group), also the CPU microseconds a call each group's processes used, and the load
 * generator's own cores.
 */
async function measure(setup, connections, duration, groups = {}, rate = undefined) {
  const before = Object.fromEntries(Object.entries(groups).map(([name, g]) => [name, g.usageNs()]));
  const generator = process.cpuUsage();
  const share = rate === undefined ? undefined : Math.round(rate / setup.urls.length);
  const results = await Promise.all(
    setup.urls.map((url) => load(url, setup.key, connections, duration, share)),
  );
  const used = process.cpuUsage(generator);
  const calls = results.reduce((sum, r) => sum + r.calls, 0);
  const usPerCall = Object.fromEntries(
    Object.entries(groups).map(([name, g]) => [name, (g.usageNs() - before[name]) / 1000 / calls]),
  );
  return {
    calls,
    requestsPerSecond: results.reduce((sum, r) => sum + r.requestsPerSecond, 0),
    p50: Math.max(...results.map((r) => r.p50)),
    p99: Math.max(...results.map((r) => r.p99)),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    usPerCall,
    generatorCores: (used.user + used.system) / 1e6 / duration,
  };
}

/** A measure's CPU microseconds a call, a column for each group. */
const perCallColumns = (r) =>
  Object.fromEntries(Object.entries(r.usPerCall).map(([name, us]) => [`${name} µs/call`, us.toFixed(1)]));

/**
 * Alternating rounds of every setup, after a warm-up of each (then `warmedUp` runs); the rows printed and each
 * setup's measures.
 */
async function rounds(setups, measureOne, warmUpSeconds, warmedUp = () => {}) {
  for (const setup of setups) await measureOne(setup, warmUpSeconds);
  warmedUp();
  const bySetup = setups.map(() => []);
  const rows = [];
  for (let round = 1; round <= ROUNDS; round += 1)
    for (const [i, setup] of setups.entries()) {
      const r = await measureOne(setup, SECONDS);
      bySetup[i].push(r);
      rows.push({
        round,
        setup: setup.name,
        requestsPerSecond: Math.round(r.requestsPerSecond),
        p50ms: r.p50,
        p99ms: r.p99,
        non2xx: r.non2xx,
        ...perCallColumns(r),
        ...(r.usPerCall.quarry !== undefined ? { generatorCores: r.generatorCores.toFixed(2) } : {}),
      });
    }
  console.table(rows);
  return bySetup;
}

/**
 * The latency below saturation: each setup once more, its requests paced at PACED_SHARE of its median rate in
 * `measured`; the rows printed and the worst p99 returned.
 */
async function pacedRounds(setups, measured, measureOne) {
  const rows = [];
  for (const [i, setup] of setups.entries()) {
    const asked = PACED_SHARE * median(measured[i].map((r) => r.requestsPerSecond));
    const r = await measureOne(setup, SECONDS, asked);
    rows.push({
      setup: setup.name,
      askedPerSecond: Math.round(asked),
      requestsPerSecond: Math.round(r.requestsPerSecond),
      p50ms: Number(r.p50.toFixed(1)),
      p99ms: Number(r.p99.toFixed(1)),
      non2xx: r.non2xx,
      ...perCallColumns(r),
    });
  }
  console.table(rows);
  return Math.max(...rows.map((row) => row.p99ms));
}

async function unconstrained() {
  const database = await freshDatabase(PG_URL, `quarry_bench_${process.pid}`);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quarry-bench-scaleout-'));
  const embeddedEnv = { ...COMMON, QUARRY_DATA_DIR: dataDir };
  const sharedEnv = { ...COMMON, QUARRY_DATA_DIR: dataDir, DATABASE_URL: database.url, REDIS_URL };
  const processes = [];
  try {
    const embeddedKey = await keyOn(embeddedEnv);
    const sharedKey = await keyOn(sharedEnv);
    const embedded = await server(embeddedEnv);
    processes.push(embedded);
    const first = await server(sharedEnv);
    processes.push(first);
    const second = await server(sharedEnv);
    processes.push(second);
    const url = (p) => `http://127.0.0.1:${p.port}`;
    const setups = [
      { name: 'embedded (SQLite), 1 process', urls: [url(embedded)], key: embeddedKey },
      { name: 'PostgreSQL + Redis, 1 process', urls: [url(first)], key: sharedKey },
      { name: 'PostgreSQL + Redis, 2 processes', urls: [url(first), url(second)], key: sharedKey },
    ];
    console.log('Unconstrained: every part on the machine’s two cores.');
    const measured = await rounds(
      setups,
      (setup, duration) => measure(setup, Math.floor(CONNECTIONS / setup.urls.length), duration),
      2,
    );
    const [embeddedRate, oneRate, twoRate] = measured.map((rs) => median(rs.map((r) => r.requestsPerSecond)));
    const worstP99 = Math.max(...measured[1].map((r) => r.p99));
    console.log(
      `median requests/s: embedded ${Math.round(embeddedRate)}, PostgreSQL x1 ${Math.round(oneRate)} ` +
        `(${(oneRate / embeddedRate).toFixed(2)} of embedded, target >= 0.5: ${mark(oneRate / embeddedRate >= 0.5)}; ` +
        `p99 at most ${worstP99} ms, target <= 20: ${mark(worstP99 <= 20)}), PostgreSQL x2 ${Math.round(twoRate)} ` +
        `(${(twoRate / oneRate).toFixed(2)} of one). ${CONNECTIONS} connections, ${SECONDS} s rounds.\n`,
    );
  } finally {
    for (const p of processes) p.child.kill();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function underQuotas() {
  if (!cpuGroupsAvailable()) {
    console.log(
      'Under CPU quotas: skipped (needs root and cgroups v1 with the cpu and cpuacct hierarchies).',
    );
    return;
  }
  const prefix = `quarry-bench-${process.pid}`;
  const made = [];
  const group = (name, cores) => {
    const g = cpuGroup(`${prefix}-${name}`, cores);
    made.push(g);
    return g;
  };
  const groups = {
    postgres: group('postgres', QUOTA.postgres),
    redis: group('redis', QUOTA.redis),
    embedded: group('embedded', QUOTA.instance),
    first: group('first', QUOTA.instance),
    second: group('second', QUOTA.instance),
  };
  const stops = [];
  const processes = [];
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quarry-bench-scaleout-quota-'));
  try {
    const postgres = await startPostgres(await freePort(), groups.postgres.launch);
    stops.push(() => postgres.stop());
    const redis = await startRedis(await freePort(), groups.redis.launch);
    stops.push(() => redis.stop());
    const embeddedEnv = { ...COMMON, QUARRY_DATA_DIR: path.join(dataDir, 'embedded') };
    const sharedEnv = {
      ...COMMON,
      QUARRY_DATA_DIR: path.join(dataDir, 'shared'),
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
    };
    const embeddedKey = await keyOn(embeddedEnv);
    const sharedKey = await keyOn(sharedEnv);
    for (const [name, env] of [
      ['embedded', embeddedEnv],
      ['first', sharedEnv],
      ['second', sharedEnv],
    ])
      processes.push({ name, ...(await server(env, groups[name].launch)) });
    const url = (name) => `http://127.0.0.1:${processes.find((p) => p.name === name).port}`;
    const setups = [
      {
        name: 'embedded (SQLite), 1 process',
        urls: [url('embedded')],
        key: embeddedKey,
        groups: { quarry: groups.embedded },
      },
      {
        name: 'PostgreSQL + Redis, 1 process',
        urls: [url('first')],
        key: sharedKey,
        groups: { quarry: groups.first, postgres: groups.postgres, redis: groups.redis },
      },
      {
        name: 'PostgreSQL + Redis, 2 processes',
        urls: [url('first'), url('second')],
        key: sharedKey,
        groups: {
          quarry: groups.first,
          second: groups.second,
          postgres: groups.postgres,
          redis: groups.redis,
        },
      },
    ];
    console.log(
      `Under CPU quotas: each Quarry process ${QUOTA.instance} core, PostgreSQL ${QUOTA.postgres}, Redis ` +
        `${QUOTA.redis} (period 10 ms); ${QUOTA.connections} connections a process; the load generator outside.`,
    );
    // A process a quarter of a core compiles its hot path slowly: the warm-up is longer than the rounds.
    const measureOne = (setup, duration, rate) =>
      measure(setup, QUOTA.connections, duration, setup.groups, rate);
    const measured = await rounds(
      setups,
      measureOne,
      QUOTA.warmUpSeconds,
      // The statements are counted over the measured rounds only.
      () => postgres.query('SELECT pg_stat_statements_reset()'),
    );
    const calls = measured
      .slice(1)
      .flat()
      .reduce((sum, r) => sum + r.calls, 0);
    console.log(
      `\nPostgreSQL's statements over the measured PostgreSQL rounds (${calls} calls), by time:\n` +
        'calls a call | ms in all | µs each | statement\n' +
        postgres.query(
          `SELECT round(calls::numeric / ${calls}, 2) || ' | ' || round(total_exec_time) || ' | ' || ` +
            `round((total_exec_time * 1000 / calls)::numeric, 1) || ' | ' || left(regexp_replace(query, '\\s+', ' ', 'g'), 110) ` +
            `FROM pg_stat_statements WHERE calls >= ${calls} / 10 ORDER BY total_exec_time DESC LIMIT 8`,
        ),
    );
    console.log(
      `\nPaced at ${PACED_SHARE} of each setup's median rate above, an open loop (latency from when each call was due):`,
    );
    const pacedP99 = await pacedRounds(setups, measured, measureOne);
    const rate = (i) => median(measured[i].map((r) => r.requestsPerSecond));
    const perCall = (i, part) => median(measured[i].map((r) => r.usPerCall[part]));
    const [embeddedRate, oneRate, twoRate] = [rate(0), rate(1), rate(2)];
    const worstP99 = Math.max(...measured.flat().map((r) => r.p99));
    const quarryUs = perCall(1, 'quarry');
    const postgresUs = perCall(1, 'postgres');
    const redisUs = perCall(1, 'redis');
    const embeddedUs = perCall(0, 'quarry');
    const generator = median(measured.flat().map((r) => r.generatorCores));
    console.log(
      `median requests/s: embedded ${Math.round(embeddedRate)}, PostgreSQL x1 ${Math.round(oneRate)}, x2 ${Math.round(twoRate)}\n` +
        `  two instances / one: ${(twoRate / oneRate).toFixed(2)} (target >= 1.8: ${mark(twoRate / oneRate >= 1.8)})\n` +
        `  one on PostgreSQL + Redis / embedded: ${(oneRate / embeddedRate).toFixed(2)} (target >= 0.6: ${mark(oneRate / embeddedRate >= 0.6)})\n` +
        `  p99 at most ${worstP99} ms saturated (each process at its quota), ${pacedP99} ms paced at ${PACED_SHARE} ` +
        `of the rate (target <= 20: saturated ${mark(worstP99 <= 20)}, paced ${mark(pacedP99 <= 20)})\n` +
        `  CPU a call: Quarry ${quarryUs.toFixed(1)} µs (embedded ${embeddedUs.toFixed(1)}), PostgreSQL ${postgresUs.toFixed(1)} µs, ` +
        `Redis ${redisUs.toFixed(1)} µs; PostgreSQL / Quarry ${(postgresUs / quarryUs).toFixed(2)} (target <= 0.5: ${mark(postgresUs / quarryUs <= 0.5)})\n` +
        `  load generator: ${generator.toFixed(2)} cores (median of rounds)`,
    );
    const perCore = (us) => Math.round(1e6 / us);
    console.log(
      '\nCapacity (calls a second a core, from the CPU a call):\n' +
        `| part | calls/s a core |\n|---|---:|\n` +
        `| Quarry, embedded (SQLite) | ${perCore(embeddedUs)} |\n` +
        `| Quarry, over PostgreSQL + Redis | ${perCore(quarryUs)} |\n` +
        `| PostgreSQL | ${perCore(postgresUs)} |\n` +
        `| Redis | ${perCore(redisUs)} |\n` +
        `One PostgreSQL core feeds ${(quarryUs / postgresUs).toFixed(1)} Quarry cores ` +
        `(${(quarryUs / postgresUs / QUOTA.instance).toFixed(1)} instances of ${QUOTA.instance} core) before it is the limit.`,
    );
  } finally {
    await Promise.all(processes.map(stop));
    for (const end of stops.reverse()) await end().catch((error) => console.error(String(error)));
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const g of made)
      try {
        g.remove();
      } catch (error) {
        console.error(
          `could not remove CPU group ${g.name}: ${error.message} (processes left: ${g.pids().join(' ')})`,
        );
      }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (RUNS.includes('free')) await unconstrained();
if (RUNS.includes('quota')) await underQuotas();
