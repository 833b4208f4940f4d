// Two processes on one embedded store (a server, and `quarry ingest` writing the same file): a load's
// transaction that read before the other process wrote still takes its turn to write. Begun deferred, it held
// a read snapshot the other's commit made stale, and its first write failed at once with "database is locked".
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite, type Store } from '../../src/store/engine.js';

describe('a load and another process writing one SQLite file', () => {
  let dir: string;
  let store: Store;
  let other: SQLite.Database;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'quarry-beside-'));
    store = openSqlite(path.join(dir, 'quarry.db'));
    // The other process's connection, told not to wait so the test sees who holds the lock.
    other = new SQLite(path.join(dir, 'quarry.db'));
    other.pragma('busy_timeout = 0');
    other.exec('CREATE TABLE counts (name TEXT PRIMARY KEY, n INTEGER)');
    other.exec("INSERT INTO counts VALUES ('load', 0), ('server', 0)");
  });
  afterAll(async () => {
    other.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds the write lock from its first statement: its write goes in, the other writer is told to wait', async () => {
    let otherWrite: unknown = null;
    await store.db.transaction().execute(async (tx) => {
      await sql`SELECT n FROM counts WHERE name = 'load'`.execute(tx);
      try {
        other.prepare("UPDATE counts SET n = n + 1 WHERE name = 'server'").run();
        otherWrite = 'written';
      } catch (error) {
        otherWrite = (error as { code?: string }).code;
      }
      await sql`UPDATE counts SET n = n + 1 WHERE name = 'load'`.execute(tx);
    });
    expect(otherWrite).toBe('SQLITE_BUSY');
    // Once the load has committed, the other process writes as usual.
    other.prepare("UPDATE counts SET n = n + 1 WHERE name = 'server'").run();
    const rows = other.prepare('SELECT name, n FROM counts ORDER BY name').all();
    expect(rows).toEqual([
      { name: 'load', n: 1 },
      { name: 'server', n: 1 },
    ]);
  });
});
