// Operator commands while a load holds what it writes (another process's `quarry ingest`, the collector, the
// demo's own load: embedded, the data file's write lock; on PostgreSQL, the dataset's load lock and its rows),
// on each engine: every command that writes succeeds at once, and the running server answers keyed calls and
// refuses a revoked key within a second of the command returning, the load still open (docs/adr/036).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explain } from '../../src/cli/output.js';
import { StoreLocked } from '../../src/store/sqlite-locks.js';
import { NO_AGENCIES } from '../helpers/agency.js';
import { runQuarry } from '../helpers/cli.js';
import { ENGINES, freshPostgres } from '../helpers/env.js';
import { type ServerProcess, startServer } from '../helpers/server.js';

for (const { engine, skip } of ENGINES) {
  describe.skipIf(skip)(`operator commands while a load holds the data on ${engine}`, () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'quarry-operator-'));
    let database: { url: string; drop(): Promise<void> } | null = null;
    let env: NodeJS.ProcessEnv;
    let server: ServerProcess;
    let load: Held;

    async function quarry(...args: string[]) {
      const result = await runQuarry(args, env);
      expect(result.stderr).not.toMatch(/unexpected failure|locked/);
      expect(result.code).toBe(0);
      return JSON.parse(result.stdout);
    }

    const call = (key: string) =>
      fetch(`${server.url}/v1/macro/cpi`, { headers: { authorization: `Bearer ${key}` } }).then(
        async (res) => ({
          status: res.status,
          error: ((await res.json()) as { error?: string }).error,
          remaining: res.headers.get('x-credits-remaining'),
        }),
      );

    beforeAll(async () => {
      database = engine === 'postgres' ? await freshPostgres() : null;
      const store: Record<string, string> = database ? { DATABASE_URL: database.url } : {};
      env = { ...process.env, ...NO_AGENCIES, QUARRY_DATA_DIR: dataDir, DATA_API_ENABLED: 'true', ...store };
      expect((await runQuarry(['migrate'], env)).code).toBe(0);
      server = await startServer({ QUARRY_DATA_DIR: dataDir, DATA_API_ENABLED: 'true', ...store });
      // A load of another process, between its first write and its commit.
      load = await holdALoad(dataDir, database?.url ?? null);
    });
    afterAll(async () => {
      await load.release();
      await server.stop();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('creates an account and a key, sets balance and plan, revokes: each at once, each seen by the server', async () => {
      const account = await quarry(
        'accounts',
        'create',
        '--email',
        'ops@example.com',
        '--plan',
        'desk',
        '--confirmed',
      );
      const key = await quarry('keys', 'create', account.id, '--api', 'datasets');
      await expect.poll(async () => (await call(key.key)).status, { timeout: 1000, interval: 50 }).toBe(200);

      const set = await quarry('accounts', 'set-balance', account.id, '5');
      expect(set.credits).toMatchObject({ balance: 5 });
      expect(await call(key.key)).toMatchObject({ status: 200, remaining: '4' });

      await quarry('accounts', 'set-plan', account.id, 'basic');
      expect(await call(key.key)).toMatchObject({ status: 200, remaining: '149999' });

      expect((await quarry('keys', 'revoke', key.id)).revokedAt).toEqual(expect.any(String));
      await expect
        .poll(async () => (await call(key.key)).error, { timeout: 1000, interval: 50 })
        .toBe('invalid_key');
      // All of it while the load still holds what it writes.
      expect(await load.holding()).toBe(true);
    });
  });
}

interface Held {
  holding(): Promise<boolean>;
  release(): Promise<void>;
}

/**
 * A load's transaction, open: embedded, the data file's write lock taken; on PostgreSQL, a dataset's load lock
 * and a row of the data written.
 */
async function holdALoad(dataDir: string, url: string | null): Promise<Held> {
  const sql = "INSERT INTO dataset_versions (dataset, version, updated_at) VALUES ('cot', 1, '2026-12-07')";
  if (url === null) {
    const db = new SQLite(path.join(dataDir, 'quarry.db'));
    db.exec('BEGIN IMMEDIATE');
    db.exec(sql);
    return {
      holding: async () => db.inTransaction,
      release: async () => {
        if (db.inTransaction) db.exec('ROLLBACK');
        db.close();
      },
    };
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('BEGIN');
  await client.query("SELECT pg_advisory_xact_lock(hashtext('quarry-load:cot'))");
  await client.query(sql);
  return {
    holding: async () => (await client.query('SELECT 1')).rowCount === 1,
    release: async () => {
      await client.query('ROLLBACK');
      await client.end();
    },
  };
}

describe('a command that could not make its change', () => {
  it('says in plain words what did not happen: a revoke that gave up leaves the key live', () => {
    const message = explain(new StoreLocked('the change'), ['keys', 'revoke', 'key_abc']);
    expect(message).toBe(
      "quarry: keys revoke did not happen: another process held the store's lock for 10 s, so the key is still live. Run the command again.",
    );
    expect(explain(new StoreLocked('the change'), ['accounts', 'set-balance', 'acct_x', '5'])).toMatch(
      /set-balance did not happen: .* so the balance is as it was\./,
    );
  });
});
