// npm run bench:bulk: the bulk files at USAspending's scale. BULK_ROWS (default 1,000,000) generated awards are
// imported into a fresh embedded store (and a PostgreSQL one when DATABASE_URL is set; BULK_ENGINES=sqlite or
// postgres runs one), a server is started on it, and the first download makes the version's files. Reported,
// with the targets beside them: rows a second making the CSV with its gzip copy (level 1) and the Parquet file
// (target: >= 200,000 each; the NDJSON with its gzip copy beside them), the server's RSS growth while it
// does (<= 150 MB),
// the Parquet file's size against the CSV.gz's (<= 1), a whole download's throughput on loopback
// (>= 300 MB/s) and the time to first byte of a download (p50 <= 20 ms).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { awardsImporter } from '../dist/datasets/awards/import.js';
import { importFile } from '../dist/ingest/import.js';
import { loadConfig } from '../dist/runtime/config.js';
import { createDeps } from '../dist/runtime/deps.js';
import { generateAwards } from './awards-data.js';
import { freshDatabase, startQuarry, stop, unlimitedDatasetsKey } from './process.js';
import { percentile } from './stats.js';

const ROWS = Number(process.env.BULK_ROWS ?? 1_000_000);
const ENGINES = (process.env.BULK_ENGINES ?? 'sqlite,postgres').split(',');
const TTFB_RUNS = 50;
// The servers started here see only the store each run names: the SQLite run must not inherit the URL.
const DATABASE_URL = process.env.DATABASE_URL;
delete process.env.DATABASE_URL;

const rssMb = (pid) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
  return line ? Number(line[1]) / 1024 : 0;
};
/** The RSS of a process's children (DuckDB's process, while it runs), in MB. */
const childrenRssMb = (pid) => {
  let total = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    let children = '';
    try {
      children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const child of children.split(' ').filter(Boolean)) {
      try {
        total += rssMb(child);
      } catch {
        // Ended meanwhile.
      }
    }
  }
  return total;
};
const mark = (ok) => (ok ? 'meets' : 'MISSES');

/** GETs `route`; resolves with the time to the first body byte, the whole time and the bytes. */
function download(port, route, headers, stopAtFirstByte = false) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request({ host: '127.0.0.1', port, path: route, headers }, (res) => {
      let first = null;
      let bytes = 0;
      res.on('data', (chunk) => {
        first ??= performance.now() - started;
        bytes += chunk.length;
        if (stopAtFirstByte) req.destroy();
      });
      const done = () =>
        resolve({
          status: res.statusCode,
          first,
          total: performance.now() - started,
          bytes,
          headers: res.headers,
        });
      res.on('end', done);
      res.on('close', done);
    });
    req.on('error', (error) => (stopAtFirstByte ? undefined : reject(error)));
    req.end();
  });
}

async function bench(engine, env, file) {
  const deps = await createDeps(loadConfig(env));
  await importFile(deps, awardsImporter, file);
  const key = await unlimitedDatasetsKey(deps);
  await deps.close();
  const server = await startQuarry(env);
  const headers = { authorization: `Bearer ${key}` };
  try {
    const pid = server.child.pid;
    await download(server.port, '/healthz', {});
    const before = rssMb(pid);
    let peak = before;
    let childPeak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(pid));
      childPeak = Math.max(childPeak, childrenRssMb(pid));
    }, 20);
    const first = await download(server.port, '/v1/datasets/awards/bulk?format=csv', headers);
    clearInterval(sampler);
    if (first.status !== 200) {
      const again = await fetch(`http://127.0.0.1:${server.port}/v1/datasets/awards/bulk?format=csv`, {
        headers,
      });
      throw new Error(`${engine}: the first download answered ${first.status}, then ${await again.text()}`);
    }
    const catalog = await (await fetch(`http://127.0.0.1:${server.port}/v1/datasets`)).json();
    const files = catalog.datasets.find((d) => d.id === 'awards').bulk;
    const manifest = JSON.parse(
      readFileSync(path.join(env.QUARRY_BULK_DIR, 'awards', `v${files.version}`, 'manifest.json'), 'utf8'),
    );
    const rate = (format) => ROWS / manifest.seconds[format];
    const growth = peak - before;
    const ratio = files.formats.parquet.bytes / files.formats.csv.gzipBytes;
    console.log(
      `${engine}: ${ROWS} awards, version ${files.version}, first download ${(first.total / 1000).toFixed(1)} s`,
    );
    const made = (format, what, target) =>
      console.log(
        `${engine}: ${what} ${manifest.seconds[format].toFixed(1)} s = ${Math.round(rate(format))} rows/s${target ? ` (target >= 200000: ${mark(rate(format) >= 200_000)})` : ''}`,
      );
    made('csv', 'CSV and its gzip copy (level 1), from the store', true);
    made('parquet', 'Parquet (DuckDB from the CSV)', true);
    made('ndjson', 'NDJSON (DuckDB from the CSV) and its gzip copy', false);
    console.log(
      `${engine}: server RSS ${before.toFixed(0)} MB before, ${peak.toFixed(0)} MB at most while making them: +${growth.toFixed(0)} MB (target <= 150: ${mark(growth <= 150)}); DuckDB's own process at most ${childPeak.toFixed(0)} MB`,
    );
    const mb = (n) => (n / 1e6).toFixed(1);
    console.log(
      `${engine}: CSV ${mb(files.formats.csv.bytes)} MB, CSV.gz ${mb(files.formats.csv.gzipBytes)} MB, NDJSON ${mb(files.formats.ndjson.bytes)} MB, NDJSON.gz ${mb(files.formats.ndjson.gzipBytes)} MB, Parquet ${mb(files.formats.parquet.bytes)} MB: Parquet / CSV.gz ${ratio.toFixed(2)} (target <= 1: ${mark(ratio <= 1)})`,
    );
    const speeds = [];
    for (let i = 0; i < 5; i += 1) {
      const got = await download(server.port, '/v1/datasets/awards/bulk?format=csv', headers);
      speeds.push(got.bytes / 1e6 / (got.total / 1000));
    }
    speeds.sort((a, b) => a - b);
    const speed = percentile(speeds, 0.5);
    console.log(
      `${engine}: whole CSV download ${speed.toFixed(0)} MB/s median of 5 (target >= 300: ${mark(speed >= 300)})`,
    );
    const firsts = [];
    for (let i = 0; i < TTFB_RUNS; i += 1)
      firsts.push(
        (await download(server.port, '/v1/datasets/awards/bulk?format=parquet', headers, true)).first,
      );
    firsts.sort((a, b) => a - b);
    const p50 = percentile(firsts, 0.5);
    console.log(
      `${engine}: time to first byte p50 ${p50.toFixed(1)} ms, p99 ${percentile(firsts, 0.99).toFixed(1)} ms over ${TTFB_RUNS} (target p50 <= 20: ${mark(p50 <= 20)})`,
    );
  } finally {
    // Ended before its database is dropped: its shutdown still writes the usage it buffered.
    await stop(server);
  }
}

const dir = mkdtempSync(path.join(tmpdir(), 'quarry-bench-bulk-'));
try {
  const file = path.join(dir, 'awards.ndjson');
  generateAwards(file, ROWS);
  const base = { DATA_API_ENABLED: 'true', LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: '0' };
  if (ENGINES.includes('sqlite')) {
    const data = path.join(dir, 'sqlite');
    await bench('sqlite', { ...base, QUARRY_DATA_DIR: data, QUARRY_BULK_DIR: path.join(data, 'bulk') }, file);
  }
  if (ENGINES.includes('postgres') && DATABASE_URL) {
    const database = await freshDatabase(DATABASE_URL, `quarry_bench_bulk_${process.pid}`);
    try {
      const data = path.join(dir, 'postgres');
      await bench(
        'postgres',
        {
          ...base,
          QUARRY_DATA_DIR: data,
          QUARRY_BULK_DIR: path.join(data, 'bulk'),
          DATABASE_URL: database.url,
        },
        file,
      );
    } finally {
      await database.drop();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
