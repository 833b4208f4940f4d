// npm run bench:isolation: does a request wait behind another's work? In one server process at a time, a steady
// light load — /healthz and a keyed board route, one request after another on each — runs while heavy work is
// done in the same process, in turn:
//   - the first awards listing after loading ISOLATION_AWARDS (default 1,000,000) generated awards (it builds
//     the listing's columns in memory);
//   - the awards' bulk files, made by the first download of the version;
//   - /v1/history of 10 tickers x 5 fields over 20 years of daily bars, 5 at a time, ISOLATION_HISTORY_ROUNDS
//     (default 4) times;
//   - a collector load (serve --collect) of two CFTC year files, served by a local stand-in for cftc.gov;
//   - `quarry ingest` of the bundle's largest agency files (five CFTC years, two EDGAR company-facts files) in a
//     process of its own, and the demo's own load (serve --demo), each beside keyed calls charged as they go;
//   - a universe of prices (ISOLATION_UNIVERSE_BARS, default 5,000,000 bars built as bench:universe builds
//     them) loaded by `quarry ingest prices` in a process of its own into the store the server serves, the
//     board's CFTC year loaded first so each light keyed call is charged (a write beside the load's).
// Each runs in a fresh process, so the longest event-loop block the server reports (/metrics) is that work's.
// Reported for each: p50/p99/max latency of the light requests and the longest block. Targets: light p99 <=
// 50 ms, no block over 100 ms. ISOLATION_SCENARIOS (listing,bulk,history,collect,agency,demo,universe) picks some. Embedded, and
// again on PostgreSQL + Redis when DATABASE_URL and REDIS_URL are set (a fresh database for each store, made
// and dropped); ISOLATION_ENGINES=sqlite or postgres runs one. ISOLATION_PROFILE=<folder> has each server write a
// CPU profile there (node --cpu-prof) for finding what held the loop.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { awardsImporter } from '../dist/datasets/awards/import.js';
import { importFile } from '../dist/ingest/import.js';
import { loadConfig } from '../dist/runtime/config.js';
import { createDeps } from '../dist/runtime/deps.js';
import { generateAwards } from './awards-data.js';
import { prepareMarket, SYMBOLS } from './market-setup.js';
import { freshDatabase, start, stop, unlimitedDatasetsKey } from './process.js';
import { profilerArgs } from './profile.js';
import { percentile } from './stats.js';
import { realSeries, universeFile } from './universe-file.js';

const ROWS = Number(process.env.ISOLATION_AWARDS ?? 1_000_000);
const HISTORY_ROUNDS = Number(process.env.ISOLATION_HISTORY_ROUNDS ?? 4);
const SCENARIOS = (
  process.env.ISOLATION_SCENARIOS ?? 'listing,bulk,history,collect,agency,demo,universe'
).split(',');
const UNIVERSE_BARS = Number(process.env.ISOLATION_UNIVERSE_BARS ?? 5_000_000);
const ENGINES = (process.env.ISOLATION_ENGINES ?? 'sqlite,postgres').split(',');
// The servers started here see only the store each run names.
const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
delete process.env.DATABASE_URL;
delete process.env.REDIS_URL;
const ASSETS = path.resolve('assets');
const LISTENING = /quarry listening at http:\/\/127\.0\.0\.1:(\d+)/;
const BASE_ENV = { DATA_API_ENABLED: 'true', LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: '0' };
// No agency is reached but the stand-in: every other collector job fails at once on a closed port.
const NO_AGENCIES = Object.fromEntries(
  ['CFTC', 'EIA', 'BLS', 'SEC', 'USASPENDING', 'STRIPE', 'YAHOO', 'OPENFIGI'].map((a) => [
    `QUARRY_${a}_URL`,
    'http://127.0.0.1:9',
  ]),
);

const mark = (ok) => (ok ? 'meets' : 'MISSES');

/** A datasets key with credits and a rate past any run, on the store `env` names (made first if need be). */
async function keyFor(env) {
  const deps = await createDeps(loadConfig(env));
  try {
    return await unlimitedDatasetsKey(deps);
  } finally {
    await deps.close();
  }
}

/** Requests `route` one after another until `until` settles; each one's latency in ms, and the 5xx answers. */
async function steady(base, route, until, headers) {
  const times = [];
  let failed = 0;
  let done = false;
  until.finally(() => {
    done = true;
  });
  while (!done) {
    const started = performance.now();
    const res = await fetch(base + route, { headers });
    await res.arrayBuffer();
    times.push(performance.now() - started);
    if (res.status >= 500) failed += 1;
  }
  return { times, failed };
}

/** The server's longest event-loop block since it started (ms), and how many of its delay samples were over 100 ms. */
async function loopDelays(base) {
  const lines = (await (await fetch(`${base}/metrics`)).text()).split('\n');
  const value = (prefix) =>
    Number(
      lines
        .find((l) => l.startsWith(prefix))
        ?.split(' ')
        .at(-1),
    );
  return {
    longest: value('quarry_event_loop_longest_block_seconds ') * 1000,
    over100:
      value('quarry_event_loop_delay_seconds_count ') -
      value('quarry_event_loop_delay_seconds_bucket{le="0.1"}'),
  };
}

/** Starts a server on `env`, runs `heavy` under the light load, and returns the scenario's row. */
async function scenario(name, env, key, heavy, args = ['dist/cli/main.js', 'serve']) {
  const profile = process.env.ISOLATION_PROFILE;
  const nodeArgs = profile ? profilerArgs(profile, 250) : [];
  const server = await start([...nodeArgs, ...args], { ...env, PORT: '0' }, LISTENING);
  const base = `http://127.0.0.1:${server.port}`;
  // A key made once the server runs (on a store the server is loading) is asked for then.
  const headers = { authorization: `Bearer ${typeof key === 'function' ? await key() : key}` };
  try {
    await fetch(`${base}/v1/cftc/cot`, { headers });
    const before = await loopDelays(base);
    const started = performance.now();
    const work = heavy(base, headers);
    const [health, board] = await Promise.all([
      steady(base, '/healthz', work, {}),
      steady(base, '/v1/cftc/cot', work, headers),
    ]);
    await work;
    const light = [...health.times, ...board.times].sort((a, b) => a - b);
    // The server keeps its longest block since it started: when the work set no new longest, its blocks were
    // no longer than the slowest light request, one of which was always waiting on the loop; and no longer
    // than 100 ms when no delay sample over 100 ms was added.
    const after = await loopDelays(base);
    const [block, bound] =
      after.longest > before.longest
        ? [after.longest, '']
        : after.over100 === before.over100
          ? [Math.min(100, light.at(-1)), '<= ']
          : [Math.min(after.longest, light.at(-1)), '<= '];
    return {
      work: name,
      seconds: ((performance.now() - started) / 1000).toFixed(1),
      light: light.length,
      p50_ms: percentile(light, 0.5).toFixed(1),
      p99_ms: percentile(light, 0.99).toFixed(1),
      max_ms: light.at(-1).toFixed(1),
      block_ms: bound + block.toFixed(0),
      before_ms: before.longest.toFixed(0),
      keyed_5xx: board.failed,
      targets: `${mark(percentile(light, 0.99) <= 50)} / ${mark(block <= 100)}`,
    };
  } finally {
    await stop(server);
  }
}

const expectOk = async (res, what) => {
  const body = await res.arrayBuffer();
  if (res.status !== 200)
    throw new Error(`${what} answered ${res.status}: ${Buffer.from(body).toString().slice(0, 200)}`);
  return body;
};

const rows = [];
const folders = [];
const databases = [];

/** The store settings of a run: none embedded; on PostgreSQL a fresh database (dropped at the end) and Redis. */
async function storeOf(engine) {
  if (engine === 'sqlite') return {};
  const database = await freshDatabase(
    DATABASE_URL,
    `quarry_bench_isolation_${process.pid}_${databases.length}`,
  );
  databases.push(database);
  return { DATABASE_URL: database.url, REDIS_URL };
}

async function runAll(engine) {
  if (SCENARIOS.includes('listing') || SCENARIOS.includes('bulk')) {
    const dir = mkdtempSync(path.join(tmpdir(), 'quarry-bench-isolation-'));
    folders.push(dir);
    const env = { ...BASE_ENV, QUARRY_DATA_DIR: dir, ...(await storeOf(engine)) };
    const file = path.join(dir, 'awards.ndjson');
    generateAwards(file, ROWS);
    const deps = await createDeps(loadConfig(env));
    await importFile(deps, awardsImporter, file);
    await deps.close();
    const key = await keyFor(env);
    if (SCENARIOS.includes('listing'))
      rows.push(
        await scenario(`${engine}: first awards listing, ${ROWS} awards`, env, key, async (base, headers) =>
          expectOk(await fetch(`${base}/v1/awards?limit=50`, { headers }), 'the listing'),
        ),
      );
    if (SCENARIOS.includes('bulk'))
      rows.push(
        await scenario(`${engine}: awards bulk files, ${ROWS} awards`, env, key, async (base, headers) =>
          expectOk(
            await fetch(`${base}/v1/datasets/awards/bulk?format=parquet`, { headers }),
            'the bulk download',
          ),
        ),
      );
  }
  if (SCENARIOS.includes('history')) {
    const { dataDir, env, keys } = await prepareMarket('isolation', await storeOf(engine));
    folders.push(dataDir);
    const marketEnv = { ...BASE_ENV, ...env };
    const key = await keyFor(marketEnv);
    const route = `/v1/history?tickers=${SYMBOLS.slice(0, 10).join(',')}&fields=price,open,high,low,volume&start=2006-01-01&end=2025-12-31`;
    rows.push(
      await scenario(
        `${engine}: history 10x5x20y, 5 at a time x${HISTORY_ROUNDS}`,
        marketEnv,
        key,
        async (base) => {
          for (let round = 0; round < HISTORY_ROUNDS; round += 1)
            await Promise.all(
              keys
                .slice(round * 5, round * 5 + 5)
                .map(async (k) =>
                  expectOk(
                    await fetch(base + route, { headers: { authorization: `Bearer ${k}` } }),
                    'history',
                  ),
                ),
            );
        },
      ),
    );
  }
  if (SCENARIOS.includes('collect')) {
    const year = new Date().getUTCFullYear();
    const files = {
      [`/files/dea/history/fut_disagg_txt_${year}.zip`]: path.join(ASSETS, 'cftc/fut_disagg_txt_2021.zip'),
      [`/files/dea/history/deacot${year}.zip`]: path.join(ASSETS, 'cftc/deacot2021.zip'),
    };
    const agency = createServer((req, res) => {
      const file = files[req.url ?? ''];
      if (!file) return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/zip' }).end(readFileSync(file));
    });
    await new Promise((resolve) => agency.listen(0, '127.0.0.1', resolve));
    const dir = mkdtempSync(path.join(tmpdir(), 'quarry-bench-isolation-collect-'));
    folders.push(dir);
    const env = {
      ...BASE_ENV,
      ...NO_AGENCIES,
      QUARRY_DATA_DIR: dir,
      QUARRY_CFTC_URL: `http://127.0.0.1:${agency.address().port}`,
      QUARRY_CONTACT: 'ops@quarry.example',
      QUARRY_MARKET_UPSTREAM: 'none',
      QUARRY_COLLECT_POLL_MS: '200',
      ...(await storeOf(engine)),
    };
    const key = await keyFor(env);
    try {
      rows.push(
        await scenario(
          `${engine}: collector load of two CFTC year files`,
          env,
          key,
          async (base, headers) => {
            // Done once the board holds the disaggregated year's contracts.
            for (;;) {
              const res = await fetch(`${base}/v1/cftc/cot?report=disaggregated`, { headers });
              const body = await res.json();
              if (res.status === 200 && (body.data?.rows?.length ?? 0) > 0) return;
              await new Promise((resolve) => setTimeout(resolve, 100));
            }
          },
          ['dist/cli/main.js', 'serve', '--collect'],
        ),
      );
    } finally {
      agency.close();
    }
  }
}

/** `quarry <args>` in a process of its own, awaited without holding this process's event loop. */
function cliRun(args, env) {
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      ['dist/cli/main.js', ...args],
      { env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${args.join(' ')}: ${stderr || error.message}`)) : resolve(stdout),
    ),
  );
}

/** The environment of a server on a new, empty store (a folder, and on PostgreSQL a fresh database). */
async function emptyStore(engine, name) {
  const dir = mkdtempSync(path.join(tmpdir(), `quarry-bench-isolation-${name}-`));
  folders.push(dir);
  return { ...BASE_ENV, QUARRY_DATA_DIR: dir, QUARRY_MARKET_UPSTREAM: 'none', ...(await storeOf(engine)) };
}

/**
 * The largest agency files of the bundle (five CFTC year files, two EDGAR company-facts files) loaded by
 * `quarry ingest` in a process of its own into the store the server serves, each file one transaction on the
 * data file, while each light keyed call is charged on the accounts file.
 */
async function agencyScenario(engine) {
  const env = await emptyStore(engine, 'agency');
  const years = [2017, 2018, 2019, 2020, 2021].map((y) => path.join(ASSETS, `cftc/fut_disagg_txt_${y}.zip`));
  const facts = ['CIK0001045810.json', 'CIK0000320193.json'].map((f) =>
    path.join(ASSETS, 'sec/companyfacts', f),
  );
  rows.push(
    await scenario(
      `${engine}: quarry ingest of five CFTC years and two company-facts files, beside`,
      env,
      await keyFor(env),
      async () => {
        await cliRun(['ingest', 'cftc', ...years], env);
        await cliRun(['ingest', 'sec', path.join(ASSETS, 'sec/company_tickers.json'), ...facts], env);
      },
    ),
  );
}

/** The demo's own load (serve --demo on an empty store), the key made once the server runs. */
async function demoScenario(engine) {
  const env = await emptyStore(engine, 'demo');
  rows.push(
    await scenario(
      `${engine}: the demo's own load of the bundle (serve --demo)`,
      env,
      () => keyFor(env),
      async (base) => {
        while ((await fetch(`${base}/readyz`)).status !== 200) await new Promise((r) => setTimeout(r, 100));
      },
      ['dist/cli/main.js', 'serve', '--demo'],
    ),
  );
}

async function universeScenario(engine) {
  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-bench-isolation-universe-'));
  folders.push(dir);
  const file = path.join(dir, 'universe.csv');
  const { bars, tickers } = universeFile(file, null, realSeries(), { bars: UNIVERSE_BARS });
  const env = {
    ...BASE_ENV,
    QUARRY_DATA_DIR: dir,
    QUARRY_MARKET_UPSTREAM: 'none',
    ...(await storeOf(engine)),
  };
  await cliRun(['ingest', 'cftc', path.join(ASSETS, 'cftc/deacot2021.zip')], env);
  const key = await keyFor(env);
  let loaded = null;
  rows.push(
    await scenario(
      `${engine}: quarry ingest prices of ${bars} bars, ${tickers.length} listings, beside`,
      env,
      key,
      async () => {
        const report = JSON.parse(await cliRun(['ingest', 'prices', file], env)).files[0];
        loaded = report;
      },
    ),
  );
  rows.at(-1).work += ` (${Math.round(loaded.lines / loaded.seconds)} bars/s)`;
}

try {
  for (const engine of ENGINES) {
    if (engine === 'postgres' && !(DATABASE_URL && REDIS_URL)) continue;
    await runAll(engine);
    if (SCENARIOS.includes('agency')) await agencyScenario(engine);
    if (SCENARIOS.includes('demo')) await demoScenario(engine);
    if (SCENARIOS.includes('universe')) await universeScenario(engine);
  }
  console.table(rows);
  console.log(
    'targets: light-request p99 <= 50 ms / no event-loop block over 100 ms (block_ms: the longest while the work ran; before_ms: before it, from start-up)',
  );
} finally {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  for (const database of databases) await database.drop();
}
