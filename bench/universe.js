// npm run bench:universe: prices at the scale a desk holds. One end-of-day file of many listings (Date,Ticker,…,
// the layout bulk exports use) is built from the real price files of assets/market, each series copied under
// other tickers until it holds UNIVERSE_BARS bars (5,000,000 unless said), or UNIVERSE_LISTINGS listings when
// that is given; UNIVERSE_SERIES=longest copies only the longest series (the Dow's 34 years: 5,000 listings of
// it are 43 million bars). Then, on each engine (embedded
// SQLite; PostgreSQL too when DATABASE_URL is set; UNIVERSE_ENGINES=sqlite or postgres runs one):
// - `quarry ingest prices` of the file in its own process: bars a second, and bytes a bar held;
// - the same reads on a store holding six listings and on the universe store, both served by the built server:
//   /v1/data 6 tickers x 25 fields, /v1/history 6 tickers x 5 fields over every year held (p50, and the ratio
//   universe / six);
// - a cross-section: 500 listings' PX_LAST, ten /v1/data calls of 50, as read cold (nothing read before) and
//   then again (p50 of the ten calls' total).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freshDatabase, marketKeys, startQuarry, stop } from './process.js';
import { realSeries, universeFile } from './universe-file.js';

const TARGET_BARS = Number(process.env.UNIVERSE_BARS ?? 5_000_000);
const TARGET_LISTINGS = process.env.UNIVERSE_LISTINGS ? Number(process.env.UNIVERSE_LISTINGS) : null;
const LONGEST_ONLY = process.env.UNIVERSE_SERIES === 'longest';
const ENGINES = (process.env.UNIVERSE_ENGINES ?? 'sqlite,postgres').split(',');
const DATABASE_URL = process.env.DATABASE_URL;
delete process.env.DATABASE_URL;
const ROUNDS = Number(process.env.UNIVERSE_ROUNDS ?? 40);
const FIELDS = ['PX_LAST', 'PX_OPEN', 'PX_HIGH', 'PX_LOW', 'PX_VOLUME', 'CHG_PCT_1D', 'PX_CLOSE_1D'].concat(
  ['HIGH_52WEEK', 'LOW_52WEEK', 'NAME', 'CRNCY', 'VOLATILITY_10D', 'VOLATILITY_30D', 'VOLATILITY_90D'],
  ['VOLATILITY_260D', 'price', 'open', 'high', 'low', 'volume', 'previousClose', 'change', 'changePercent'],
  ['high52w', 'low52w'],
);

const cli = (args, env) =>
  execFileSync(process.execPath, ['dist/cli/main.js', ...args], {
    env: { ...process.env, ...env },
    maxBuffer: 64 * 1024 * 1024,
  }).toString();

function ingest(file, env) {
  const started = performance.now();
  const answer = JSON.parse(cli(['ingest', 'prices', file], env));
  const wall = (performance.now() - started) / 1000;
  if (answer.failed?.length) throw new Error(answer.failed[0].error);
  return { report: answer.files[0], wall };
}

async function heldBytes(engine, env) {
  if (engine === 'sqlite') return statSync(path.join(env.QUARRY_DATA_DIR, 'quarry.db')).size;
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query(
      "SELECT pg_total_relation_size('market_bar_blocks')::bigint AS bytes, pg_database_size(current_database())::bigint AS db",
    );
    return Number(rows[0].bytes);
  } finally {
    await client.end();
  }
}

const percentile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

async function timedGet(base, route, key) {
  const started = performance.now();
  // Identity: the path is measured, not the compression of megabytes of history.
  const answer = await fetch(base + route, {
    headers: { authorization: `Bearer ${key}`, 'accept-encoding': 'identity' },
  });
  const body = await answer.text();
  if (answer.status !== 200)
    throw new Error(`${route.slice(0, 80)} answered ${answer.status}: ${body.slice(0, 200)}`);
  return performance.now() - started;
}

/** p50 of the six-ticker data and history calls on a store; the cross-section too when `crossSection` is given. */
async function reads(env, six, crossSection) {
  const keys = await marketKeys(env, 20);
  let next = 0;
  const key = () => keys[next++ % keys.length];
  const server = await startQuarry(env);
  const base = `http://127.0.0.1:${server.port}`;
  try {
    const data = `/v1/data?tickers=${six.join(',')}&fields=${FIELDS.join(',')}`;
    const history = `/v1/history?tickers=${six.join(',')}&fields=price,open,high,low,volume&start=1990-01-01&end=2026-12-31`;
    const out = {};
    const cross = [];
    if (crossSection) {
      // Cold: the first time any of these listings is read.
      const calls = async () => {
        let total = 0;
        for (let i = 0; i < crossSection.length; i += 50)
          total += await timedGet(
            base,
            `/v1/data?tickers=${crossSection.slice(i, i + 50).join(',')}&fields=PX_LAST`,
            key(),
          );
        return total;
      };
      out.crossColdMs = Math.round(await calls());
      for (let round = 0; round < 10; round += 1) cross.push(await calls());
      out.crossP50Ms = Math.round(percentile(cross, 0.5));
    }
    for (const [name, route] of [
      ['data', data],
      ['history', history],
    ]) {
      for (let i = 0; i < 5; i += 1) await timedGet(base, route, key());
      const times = [];
      for (let i = 0; i < ROUNDS; i += 1) times.push(await timedGet(base, route, key()));
      out[`${name}P50Ms`] = Math.round(percentile(times, 0.5) * 10) / 10;
    }
    return out;
  } finally {
    await stop(server);
  }
}

async function engineRun(engine, dir, file, smallFile, universe) {
  const base = { LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: '0', QUARRY_MARKET_UPSTREAM: 'none' };
  const stores = [];
  const storeEnv = async (name) => {
    const env = { ...base, QUARRY_DATA_DIR: path.join(dir, `${engine}-${name}`) };
    if (engine === 'postgres') {
      const database = await freshDatabase(DATABASE_URL, `quarry_bench_universe_${name}_${process.pid}`);
      stores.push(database);
      env.DATABASE_URL = database.url;
    }
    return env;
  };
  try {
    // Six listings: the first six of the universe file, loaded alone.
    const six = universe.tickers.slice(0, 6).map((t) => t.ticker);
    const sixBars = universe.tickers.slice(0, 6).reduce((n, t) => n + t.bars, 0);
    const small = await storeEnv('six');
    ingest(smallFile, small);
    const big = await storeEnv('universe');
    cli(['status'], big);
    const empty = await heldBytes(engine, big);
    const { report, wall } = ingest(file, big);
    const bytes = (await heldBytes(engine, big)) - (engine === 'sqlite' ? empty : 0);
    const loaded = {
      engine,
      bars: report.lines,
      listings: universe.tickers.length,
      seconds: report.seconds,
      barsPerSecond: Math.round(report.lines / report.seconds),
      wallSeconds: Math.round(wall * 10) / 10,
      bytesPerBar: Math.round((bytes / report.lines) * 10) / 10,
    };
    console.table([loaded]);
    const crossSection = universe.tickers.slice(-500).map((t) => t.ticker);
    const sixReads = await reads(small, six);
    const universeReads = await reads(big, six, crossSection);
    console.table([
      { store: `six listings (${sixBars} bars)`, ...sixReads },
      { store: `${universe.tickers.length} listings (${report.lines} bars)`, ...universeReads },
    ]);
    console.log(
      `${engine}: universe / six: data ${(universeReads.dataP50Ms / sixReads.dataP50Ms).toFixed(2)}, ` +
        `history ${(universeReads.historyP50Ms / sixReads.historyP50Ms).toFixed(2)} (target <= 1.2); ` +
        `cross-section of 500 p50 ${universeReads.crossP50Ms.toFixed(0)} ms (target <= 50); ` +
        `${loaded.barsPerSecond} bars/s (target >= 200,000), ${loaded.bytesPerBar} bytes a bar` +
        (engine === 'sqlite' ? ' (target <= 60)' : ' (blocks, their TOAST and indexes)'),
    );
  } finally {
    for (const database of stores) await database.drop();
  }
}

const dir = mkdtempSync(path.join(tmpdir(), 'quarry-bench-universe-'));
try {
  const file = path.join(dir, 'universe.csv');
  const smallFile = path.join(dir, 'six.csv');
  const series = realSeries();
  const universe = universeFile(file, smallFile, LONGEST_ONLY ? series.slice(0, 1) : series, {
    bars: TARGET_BARS,
    listings: TARGET_LISTINGS,
  });
  console.log(
    `${universe.bars} bars of ${universe.tickers.length} listings (${(statSync(file).size / 1e6).toFixed(0)} MB), built from the real series of assets/market`,
  );
  if (ENGINES.includes('sqlite')) await engineRun('sqlite', dir, file, smallFile, universe);
  if (ENGINES.includes('postgres') && DATABASE_URL)
    await engineRun('postgres', dir, file, smallFile, universe);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
