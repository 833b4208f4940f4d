// WAL checkpoints on a worker thread: with the checkpointer running, committed pages reach the database file
// while the serving connection takes no checkpoint of its own; without it, they stay in the WAL.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Checkpointer } from '../../src/store/checkpointer.js';
import { openSqlite } from '../../src/store/engine.js';

const dir = mkdtempSync(path.join(tmpdir(), 'quarry-checkpoint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A fresh store with one table, its WAL emptied; `size` is its database file's size then. */
function open(name: string) {
  const file = path.join(dir, name);
  const store = openSqlite(file);
  if (store.engine !== 'sqlite') throw new Error('expected the embedded store');
  store.sqlite.exec('CREATE TABLE rows (body TEXT)');
  store.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  return { store, sqlite: store.sqlite, file, size: statSync(file).size };
}

/** 300 commits of 2,000 bytes each. */
function commit(sqlite: ReturnType<typeof open>['sqlite']) {
  const insert = sqlite.prepare('INSERT INTO rows VALUES (?)');
  for (let i = 0; i < 300; i += 1) insert.run('x'.repeat(2000));
}

describe('background WAL checkpoints', () => {
  it('commits reach the database file from the worker, not from the serving connection', async () => {
    const { store, sqlite, file, size } = open('with.db');
    const errors: string[] = [];
    const checkpointer = Checkpointer.start(sqlite, file, (message) => errors.push(message));
    // The serving connection now checkpoints only past 10,000 pages; 300 commits are far below that, so what
    // reaches the file below was checkpointed by the worker's connection (the next test shows the same
    // commits staying in the WAL when nothing else checkpoints).
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(10_000);
    commit(sqlite);
    // The worker checkpoints on its own schedule, and may take the pages in more than one pass: wait for all.
    await expect
      .poll(() => statSync(file).size, { timeout: 10_000, interval: 50 })
      .toBeGreaterThan(size + 300 * 2000);
    await checkpointer.stop();
    expect(errors).toEqual([]);
    expect(sqlite.prepare('SELECT count(*) AS n FROM rows').get()).toEqual({ n: 300 });
    await store.close();
  });

  it('without it, the same commits stay in the WAL', async () => {
    const { store, sqlite, file, size } = open('without.db');
    sqlite.pragma('wal_autocheckpoint = 10000');
    commit(sqlite);
    // Nothing else runs: the commits are synchronous and no connection checkpoints below 10,000 pages.
    expect(statSync(file).size).toBe(size);
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(300 * 2000);
    await store.close();
  });
});
