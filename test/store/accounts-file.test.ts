// A store made before the accounts had a file of their own: the migration moves every account table into
// accounts.db with its rows, keys, references and indexes, and leaves none of them in the data file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, getAccount, setBalance } from '../../src/accounts/accounts.js';
import { createKey } from '../../src/accounts/keys.js';
import { MIGRATIONS } from '../../src/runtime/migrations.js';
import { openSqlite, type Store } from '../../src/store/engine.js';
import { migrate } from '../../src/store/migrate.js';
import { ACCOUNT_TABLES } from '../../src/store/migrations/accounts-file.js';

const MOVE = 'store/accounts-file';

describe('the accounts moved to their own file', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-accounts-file-'));
  let store: Store;
  const clock = () => new Date('2026-11-18T10:00:00Z');
  beforeAll(async () => {
    store = openSqlite(path.join(dir, 'quarry.db'));
    const before = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name !== MOVE));
    await migrate(store, before);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const tables = (file: string) => {
    const db = new SQLite(path.join(dir, file), { readonly: true });
    try {
      return db.prepare("SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").all() as {
        type: string;
        name: string;
      }[];
    } finally {
      db.close();
    }
  };

  it('keeps every row, reference and index, and leaves the data file without them', async () => {
    const deps = { store, clock };
    const account = await createAccount(deps, {
      email: 'moved@example.com',
      plan: 'desk',
      emailConfirmed: true,
    });
    const key = await createKey(deps, { accountId: account.id, api: 'datasets' });
    await setBalance(deps, { accountId: account.id, balance: 77 });
    expect(tables('quarry.db').map((t) => t.name)).toContain('ledger');
    const ledger = await store.db.selectFrom('ledger').selectAll().orderBy('id').execute();

    expect(await migrate(store, MIGRATIONS)).toEqual([MOVE]);
    const data = tables('quarry.db').map((t) => t.name);
    for (const table of ACCOUNT_TABLES) expect(data).not.toContain(table);
    const moved = tables('accounts.db');
    for (const table of ACCOUNT_TABLES) expect(moved).toContainEqual({ type: 'table', name: table });
    expect(moved).toContainEqual({ type: 'index', name: 'ledger_account_period' });
    expect(moved).toContainEqual({ type: 'index', name: 'api_keys_account' });

    expect(await store.db.selectFrom('ledger').selectAll().orderBy('id').execute()).toEqual(ledger);
    expect((await getAccount(store.db, account.id)).balance).toBe(77);
    const keys = await store.db.selectFrom('api_keys').select('id').execute();
    expect(keys.map((k) => k.id)).toEqual([key.id]);
    // The ledger still references its account in the accounts file: a row for no account is refused.
    const { id: _, ...row } = ledger[0]!;
    await expect(
      store.db
        .insertInto('ledger')
        .values({ ...row, account_id: 'acct_none' })
        .execute(),
    ).rejects.toThrow(/FOREIGN KEY/);
  });
});
