// quarry backup: a consistent copy of a serving embedded store, taken while a load holds the data file; a
// store started on the copy answers what the original answered when it was taken, accounts and data alike.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setBalance } from '../../src/accounts/accounts.js';
import { loadFile } from '../../src/ingest/run.js';
import { LOADERS } from '../../src/runtime/loaders.js';
import { runQuarry } from '../helpers/cli.js';
import { bearer, type Customer, customer, type TestEnv, testEnv } from '../helpers/env.js';
import { real } from '../helpers/real-data.js';

const treasury = LOADERS.treasury as NonNullable<typeof LOADERS.treasury>;

describe('quarry backup', () => {
  let env: TestEnv;
  let copy: TestEnv | null = null;
  let user: Customer;
  const folder = path.join(mkdtempSync(path.join(tmpdir(), 'quarry-backup-')), 'copy');
  beforeAll(async () => {
    env = await testEnv({ engine: 'sqlite' });
    await loadFile(env.deps, treasury, real('treasury/par-2019_full-year.csv'));
    user = await customer(env.deps);
    await setBalance(env.deps, { accountId: user.accountId, balance: 500 });
  });
  afterAll(async () => {
    await copy?.close();
    await env.close();
    rmSync(path.dirname(folder), { recursive: true, force: true });
  });

  const ask = (on: TestEnv, url: string) => on.app.inject({ method: 'GET', url, headers: bearer(user.key) });

  it('copies both files while a load holds the data file; the copy answers the same', async () => {
    const load = new SQLite(path.join(env.dataDir, 'quarry.db'));
    load.exec('BEGIN IMMEDIATE');
    let result: Awaited<ReturnType<typeof runQuarry>>;
    try {
      result = await runQuarry(['backup', folder], { ...process.env, QUARRY_DATA_DIR: env.dataDir });
      expect(load.inTransaction).toBe(true);
    } finally {
      load.exec('ROLLBACK');
      load.close();
    }
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.files.map((f: { name: string }) => f.name)).toEqual(['quarry.db', 'accounts.db']);
    const curve = '/v1/rates/treasury/curve?date=2019-06-03';
    const before = await ask(env, curve);
    expect(before.statusCode).toBe(200);
    copy = await testEnv({ engine: 'sqlite', env: { QUARRY_DATA_DIR: folder } });
    const after = await ask(copy, curve);
    expect(after.statusCode).toBe(200);
    expect(after.json().data).toEqual(before.json().data);
    // The account came along: the same key, and the balance as it was when copied, less the one call on each.
    expect(before.headers['x-credits-remaining']).toBe('499');
    expect(after.headers['x-credits-remaining']).toBe('499');
  });

  it('refuses a folder that holds a store already, and says how to back PostgreSQL up', async () => {
    const again = await runQuarry(['backup', folder], { ...process.env, QUARRY_DATA_DIR: env.dataDir });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/holds a store already \(quarry\.db, accounts\.db\): give an empty folder/);
  });
});
