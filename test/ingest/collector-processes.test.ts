// Two `quarry collect` processes on one PostgreSQL store: a job runs in exactly one of them; kill -9 of the
// holder while it fetches loses nothing, and the other takes the job over once the lease has run out.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/runtime/config.js';
import { createDeps } from '../../src/runtime/deps.js';
import { MockAgency, NO_AGENCIES } from '../helpers/agency.js';
import { freshPostgres, pgUrl } from '../helpers/env.js';
import { real } from '../helpers/real-data.js';
import { faketimeLib, startingAt, startServer } from '../helpers/server.js';

const FILE = real('cftc/fut_disagg_txt_2021_f_year.zip');
const LEASE_MS = 1500;
// The collectors' clocks start on a Monday of June 2026 and run on (libfaketime): the year files they ask
// for are 2026's and 2025's.
const START = new Date('2026-06-15T12:00:00Z');
const YEAR = START.getUTCFullYear();

interface Worker {
  child: ChildProcess;
  events: Record<string, unknown>[];
}

describe.skipIf(pgUrl() === null || faketimeLib() === null)('two collectors on PostgreSQL', () => {
  const agency = new MockAgency();
  let store: Awaited<ReturnType<typeof freshPostgres>>;
  const dirs: string[] = [];
  const workers: Worker[] = [];
  beforeAll(async () => {
    await agency.start();
    store = await freshPostgres();
  });
  afterAll(async () => {
    for (const w of workers)
      if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
    await agency.stop();
    await store.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const env = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'quarry-collect-'));
    dirs.push(dir);
    return {
      ...process.env,
      ...NO_AGENCIES,
      QUARRY_DATA_DIR: dir,
      DATABASE_URL: store.url,
      LOG_LEVEL: 'warn',
      ...agency.env(),
      ...startingAt(START),
      QUARRY_COLLECT_LEASE_MS: String(LEASE_MS),
      QUARRY_COLLECT_POLL_MS: '200',
      QUARRY_FETCH_TIMEOUT_MS: '60000',
    };
  };
  const start = (): Worker => {
    const child = spawn(process.execPath, ['dist/cli/main.js', 'collect'], {
      env: env(),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const worker = { child, events: [] as Record<string, unknown>[] };
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      worker.events.push(JSON.parse(line));
    });
    workers.push(worker);
    return worker;
  };
  const started = (w: Worker) => w.events.filter((e) => e.event === 'job_started' && e.job === 'cftc');

  it('one runs the job; killed mid-fetch, the other takes it over after the lease and loads the file once', async () => {
    const migrate = spawn(process.execPath, ['dist/cli/main.js', 'migrate'], { env: env(), stdio: 'ignore' });
    await new Promise((resolve) => migrate.once('exit', resolve));
    const history = '/files/dea/history';
    // The first file the job asks for hangs: the holder is caught mid-job.
    agency.fail(`${history}/deacot${YEAR - 1}.zip`, 'hang');
    agency.serve(`${history}/fut_disagg_txt_${YEAR}.zip`, FILE);

    const [a, b] = [start(), start()];
    await expect.poll(() => started(a).length + started(b).length, { timeout: 15_000 }).toBe(1);
    const [holder, other] = started(a).length ? [a, b] : [b, a];
    // The holder renews its lease while it waits: over three lease lengths the other never takes the job.
    const leaseUntil = async () => {
      const db = new pg.Client({ connectionString: store.url });
      await db.connect();
      try {
        const { rows } = await db.query("SELECT lease_until FROM jobs WHERE name = 'cftc'");
        return Date.parse(rows[0]?.lease_until);
      } finally {
        await db.end();
      }
    };
    const first = await leaseUntil();
    await expect
      .poll(leaseUntil, { timeout: 15_000, interval: 250 })
      .toBeGreaterThanOrEqual(first + 3 * LEASE_MS);
    expect(started(other)).toHaveLength(0);

    holder.child.kill('SIGKILL');
    agency.fail(`${history}/deacot${YEAR - 1}.zip`, null);
    await expect
      .poll(() => other.events.find((e) => e.event === 'job_finished' && e.job === 'cftc')?.outcome, {
        timeout: 15_000,
      })
      .toBe('new');

    const db = new pg.Client({ connectionString: store.url });
    await db.connect();
    try {
      const files = await db.query("SELECT name, rows FROM source_files WHERE dataset = 'cot'");
      expect(files.rows).toEqual([{ name: `fut_disagg_txt_${YEAR}.zip`, rows: 2178 }]);
      const records = await db.query('SELECT count(*)::int AS n FROM cot_records');
      expect(records.rows[0].n).toBe(2178);
      const job = await db.query("SELECT holder, last_outcome FROM jobs WHERE name = 'cftc'");
      expect(job.rows[0]).toEqual({ holder: null, last_outcome: 'new' });
    } finally {
      await db.end();
    }
    other.child.kill('SIGTERM');
    const code = await new Promise((resolve) => other.child.once('exit', (c) => resolve(c)));
    expect(code).toBe(0);
  }, 60_000);
});

describe.skipIf(faketimeLib() === null)('quarry serve --collect', () => {
  it('the server collects on the embedded store: a due job loads the agency’s file, and SIGTERM stops both', async () => {
    const agency = await new MockAgency().start();
    agency.serve(`/files/dea/history/fut_disagg_txt_${YEAR}.zip`, FILE);
    const dir = mkdtempSync(path.join(tmpdir(), 'quarry-serve-collect-'));
    const env = {
      QUARRY_DATA_DIR: dir,
      ...agency.env(),
    };
    const server = await startServer({ ...env, ...startingAt(START) }, ['--collect']);
    const deps = await createDeps(loadConfig(env));
    try {
      await expect
        .poll(async () => await deps.store.db.selectFrom('source_files').select(['name', 'rows']).execute(), {
          timeout: 15_000,
        })
        .toEqual([{ name: `fut_disagg_txt_${YEAR}.zip`, rows: 2178 }]);
      const jobs = () =>
        deps.store.db.selectFrom('jobs').select(['name', 'last_outcome']).orderBy('name').execute();
      await expect.poll(jobs, { timeout: 15_000 }).toEqual([
        { name: 'bls-cpi', last_outcome: 'nothing_new' },
        { name: 'cftc', last_outcome: 'new' },
        { name: 'eia-gas-storage', last_outcome: 'nothing_new' },
        { name: 'eia-petroleum', last_outcome: 'nothing_new' },
        { name: 'treasury-rates', last_outcome: 'nothing_new' },
      ]);
    } finally {
      await deps.close();
      const exited = new Promise((resolve) => server.child.once('exit', (code) => resolve(code)));
      await server.stop();
      expect(await exited).toBe(0);
      await agency.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
