// npm run bench:awards: award rows at USAspending's scale. AWARDS_ROWS (default 1,000,000) rows shaped like the
// real ones — agencies, recipients, titles and tickers drawn from the bundled award and EDGAR files, amounts
// and dates random — are imported into a fresh embedded store, and into PostgreSQL when DATABASE_URL is set;
// then each listed query of /v1/awards is run through its verb (the listing, aggregates included) and timed,
// as it is now and as known on a past date (asOf; each row's Last Modified Date is random, so about half the
// awards were known by then): the asOf read's p50 against the current read's (target: at most 2x). Then the
// change feed: a page of 200 revisions from the start and from the middle (target: p50 <= 10 ms, p99 <= 30 ms).
// AWARDS_ENGINES=postgres (or sqlite) runs one engine only.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { awardsImporter } from '../dist/datasets/awards/import.js';
import { listAwards } from '../dist/datasets/awards/read.js';
import { OPERATIONS } from '../dist/datasets/registry.js';
import { importFile } from '../dist/ingest/import.js';
import { encodeCursor, listingOf } from '../dist/kernel/cursor.js';
import { loadConfig } from '../dist/runtime/config.js';
import { createDeps } from '../dist/runtime/deps.js';
import { generateAwards } from './awards-data.js';
import { percentile } from './stats.js';

const ROWS = Number(process.env.AWARDS_ROWS ?? 1_000_000);
/** The past date the asOf reads name: the generated Last Modified Dates run from 2008 to 2025. */
const AS_OF = '2016-12-31';
const RUNS = Number(process.env.AWARDS_RUNS ?? 30);
const ENGINES = (process.env.AWARDS_ENGINES ?? 'sqlite,postgres').split(',');

/** What the awards table and each of its indexes take on disk, in MB. */
async function printSizes(engine, deps) {
  const sizes =
    engine === 'sqlite'
      ? deps.store.sqlite
          .prepare(
            `SELECT name, SUM(pgsize) AS bytes FROM dbstat
             WHERE name = 'awards' OR name LIKE 'awards_fts%' OR name IN (SELECT name FROM sqlite_master WHERE tbl_name = 'awards' AND type = 'index')
             GROUP BY name ORDER BY bytes DESC`,
          )
          .all()
      : (
          await deps.store.pool.query(
            `SELECT c.relname AS name, pg_relation_size(c.oid) AS bytes FROM pg_class c
             WHERE c.relname = 'awards' OR c.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid = 'awards'::regclass)
             ORDER BY bytes DESC`,
          )
        ).rows;
  for (const { name, bytes } of sizes)
    console.log(`${engine}: ${name} ${(Number(bytes) / 1e6).toFixed(1)} MB`);
}

async function bench(engine, env, file, p) {
  const deps = await createDeps(loadConfig(env));
  const started = Date.now();
  const report = await importFile(deps, awardsImporter, file);
  const seconds = (Date.now() - started) / 1000;
  console.log(
    `${engine}: ${report.inserted} rows in ${seconds.toFixed(1)} s, ${Math.round(report.inserted / seconds)} rows/s`,
  );
  await printSizes(engine, deps);
  // The word most titles share (a common one), against a word of one bulk row's title (a rare one).
  const counts = new Map();
  for (const title of p.titles)
    for (const word of new Set(title.toUpperCase().match(/[A-Z]{5,}/g) ?? []))
      counts.set(word, (counts.get(word) ?? 0) + 1);
  const common = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'SERVICES';
  const cold = process.hrtime.bigint();
  const first = await listAwards(deps, { params: {}, query: { limit: 100 } });
  console.log(
    `${engine}: first listing after the load (builds the summary columns) ${(Number(process.hrtime.bigint() - cold) / 1e6).toFixed(0)} ms`,
  );
  let cursor = first.data.nextCursor;
  for (let i = 0; i < 20 && cursor; i += 1)
    cursor = (await listAwards(deps, { params: {}, query: { limit: 100, cursor } })).data.nextCursor;
  const cases = {
    'no filter': {},
    [`query ${common} (common)`]: { query: common },
    'query EPRINTER (rare)': { query: 'EPRINTER' },
    'agency + fiscalYear': { agency: p.agencies[0], fiscalYear: 2020 },
    'minAmount 1e9': { minAmount: '1000000000' },
    ticker: { ticker: p.tickers[0].ticker },
    'cursor page 21': cursor ? { cursor } : {},
  };
  const time = async (query) => {
    const times = [];
    for (let i = 0; i < RUNS; i += 1) {
      const t = process.hrtime.bigint();
      await listAwards(deps, { params: {}, query: { limit: 100, ...query } });
      times.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    const first = times[0];
    times.sort((a, b) => a - b);
    return { first, p50: percentile(times, 0.5), p99: percentile(times, 0.99) };
  };
  const rows = [];
  for (const [name, query] of Object.entries(cases)) {
    const now = await time(query);
    const row = {
      engine,
      query: name,
      first_ms: now.first.toFixed(1),
      p50_ms: now.p50.toFixed(1),
      p99_ms: now.p99.toFixed(1),
    };
    if (!query.cursor) {
      const then = await time({ ...query, asOf: AS_OF });
      Object.assign(row, {
        asof_first_ms: then.first.toFixed(1),
        asof_p50_ms: then.p50.toFixed(1),
        'asof/now (≤2)': (then.p50 / now.p50).toFixed(2),
      });
    }
    rows.push(row);
  }
  const feed = OPERATIONS.find((op) => op.id === 'awards.changes');
  const middle = encodeCursor(deps.cursorSecret, listingOf({ changes: 'awards' }), {
    awards: Math.floor(ROWS / 2),
  });
  for (const [name, query] of [
    ['changes: 200 from the start', { limit: 200 }],
    ['changes: 200 from the middle', { limit: 200, since: middle }],
  ]) {
    const times = [];
    for (let i = 0; i < RUNS; i += 1) {
      const t = process.hrtime.bigint();
      const page = await feed.read(deps, { params: {}, query });
      if (page.data.changes.length !== 200) throw new Error(`${name}: ${page.data.changes.length} changes`);
      times.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    const first = times[0];
    times.sort((a, b) => a - b);
    rows.push({
      engine,
      query: name,
      first_ms: first.toFixed(1),
      p50_ms: percentile(times, 0.5).toFixed(1),
      p99_ms: percentile(times, 0.99).toFixed(1),
    });
  }
  await deps.close();
  return rows;
}

const dir = mkdtempSync(path.join(tmpdir(), 'quarry-bench-awards-'));
const file = path.join(dir, 'awards.ndjson');
const p = generateAwards(file, ROWS);
const results = ENGINES.includes('sqlite')
  ? await bench('sqlite', { QUARRY_DATA_DIR: dir, DATA_API_ENABLED: 'true', LOG_LEVEL: 'silent' }, file, p)
  : [];
if (process.env.DATABASE_URL && ENGINES.includes('postgres')) {
  // A database of its own on that server, dropped afterwards.
  const database = `quarry_bench_awards_${process.pid}`;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${database}`;
  try {
    const env = {
      QUARRY_DATA_DIR: dir,
      DATABASE_URL: url.toString(),
      DATA_API_ENABLED: 'true',
      LOG_LEVEL: 'silent',
    };
    results.push(...(await bench('postgres', env, file, p)));
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  }
}
console.table(results);
rmSync(dir, { recursive: true, force: true });
