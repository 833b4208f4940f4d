// A charge asked for while a load's transaction is open on the embedded store's connection (a load yields the
// event loop between its batches) is its own: it waits for the load to end rather than joining its
// transaction, so a load that fails and rolls back does not take the charge with it. A load of another process
// holds the data file's write lock, which a charge does not need (docs/adr/036); another process's lock on the
// accounts file is waited for without holding this process's event loop.
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteCredits } from '../../src/store/credits-sqlite.js';
import { accountsPath, sqliteHandle, sqlitePath } from '../../src/store/engine.js';
import { StoreLocked } from '../../src/store/sqlite-locks.js';
import { type Customer, customer, type TestEnv, testEnv } from '../helpers/env.js';

describe('a charge beside an open load on SQLite', () => {
  let env: TestEnv;
  let user: Customer;
  beforeAll(async () => {
    env = await testEnv({
      engine: 'sqlite',
      extend(app) {
        // What a keyed call's charge throws when it gives up, to see the answer it gets.
        app.get('/v1/test/locked', async () => {
          throw new StoreLocked('the charge');
        });
      },
    });
    user = await customer(env.deps);
  });
  afterAll(() => env.close());

  const balance = async () =>
    (
      await sql<{ balance: number }>`SELECT balance FROM accounts WHERE id = ${user.accountId}`.execute(
        env.deps.store.db,
      )
    ).rows[0]?.balance;

  it('is committed at once, and stays when the load fails', async () => {
    const before = await balance();
    let charged: Promise<unknown> = Promise.resolve();
    const load = env.deps.store.db.transaction().execute(async (tx) => {
      await sql`SELECT 1`.execute(tx);
      charged = env.deps.credits.charge({
        accountId: user.accountId,
        amount: 7,
        allowance: 0,
        requestId: 'req_beside_load',
        keyId: user.keyId,
        operation: 'test.beside-load',
        now: env.deps.clock(),
      });
      // The load yields the loop a few times, as a long load does between its batches.
      for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
      throw new Error('the load fails');
    });
    await expect(load).rejects.toThrow('the load fails');
    expect(await charged).toMatchObject({ ok: true });
    expect(await balance()).toBe((before ?? 0) - 7);
  });

  const chargeOf = (amount: number, requestId: string) =>
    env.deps.credits.charge({
      accountId: user.accountId,
      amount,
      allowance: 0,
      requestId,
      keyId: user.keyId,
      operation: 'test.beside-other-process',
      now: env.deps.clock(),
    });

  it("is not held up by another process's load: the data file's lock is not the accounts'", async () => {
    const before = await balance();
    const other = new SQLite(sqlitePath(env.dataDir));
    try {
      // Another process's load: the data file's write lock taken and held while the charge is made.
      other.exec('BEGIN IMMEDIATE');
      expect(await chargeOf(3, 'req_beside_load_elsewhere')).toMatchObject({ ok: true });
      expect(other.inTransaction).toBe(true);
      expect(await balance()).toBe((before ?? 0) - 3);
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
    }
  });

  it("waits for another process's lock on the accounts file off the event loop, then charges", async () => {
    const before = await balance();
    const other = new SQLite(accountsPath(sqlitePath(env.dataDir)));
    try {
      // Another process's change to the accounts (a CLI command, another server's charges), held across turns.
      other.exec('BEGIN IMMEDIATE');
      const charged = chargeOf(5, 'req_beside_other');
      let settled = false;
      charged.then(
        () => {
          settled = true;
        },
        () => {
          settled = true;
        },
      );
      // The loop turns while the charge waits: a charge sleeping in SQLite's busy handler would hold it (and
      // then fail after the busy timeout, the other connection never getting the turn to commit).
      let turns = 0;
      while (turns < 50) {
        await new Promise((resolve) => setImmediate(resolve));
        turns += 1;
      }
      expect(settled).toBe(false);
      other.exec('COMMIT');
      expect(await charged).toMatchObject({ ok: true });
      expect(await balance()).toBe((before ?? 0) - 5);
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
    }
  });

  it('gives up after its wait with StoreLocked, which a keyed call answers 503 with Retry-After', async () => {
    const handle = sqliteHandle(env.deps.store.db);
    if (!handle) throw new Error('an embedded store has a handle');
    // The same connection with a wait of 30 ms, so that giving up is seen without waiting 10 s.
    const impatient = new SqliteCredits(handle, 30);
    const other = new SQLite(accountsPath(sqlitePath(env.dataDir)));
    try {
      other.exec('BEGIN IMMEDIATE');
      await expect(
        impatient.charge({
          accountId: user.accountId,
          amount: 1,
          allowance: 0,
          requestId: 'req_gives_up',
          keyId: user.keyId,
          operation: 'test.gives-up',
          now: env.deps.clock(),
        }),
      ).rejects.toBeInstanceOf(StoreLocked);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    const answered = await env.app.inject({ method: 'GET', url: '/v1/test/locked' });
    expect(answered.statusCode).toBe(503);
    expect(answered.headers['retry-after']).toBe('1');
    expect(answered.json()).toMatchObject({ error: 'service_unavailable' });
    expect(answered.body).not.toMatch(/another process|SQLITE/);
  });
});
