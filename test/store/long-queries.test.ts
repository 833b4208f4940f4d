// On SQLite a statement runs on the event loop: one that held it past a few milliseconds gives the loop a turn
// before its caller goes on (work queued meanwhile runs first); a short one does not.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite, type Store } from '../../src/store/engine.js';

describe('SQLite statements and the event loop', () => {
  let dir: string;
  let store: Store;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'quarry-long-queries-'));
    store = openSqlite(path.join(dir, 'quarry.db'));
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Whether a callback queued before the statement ran before the statement's caller continued. */
  async function turnTaken(statement: Promise<unknown>): Promise<boolean> {
    let ran = false;
    setImmediate(() => {
      ran = true;
    });
    await statement;
    return ran;
  }

  it('a long statement (a million rows counted) yields the loop before its caller goes on', async () => {
    const long = sql<{
      n: number;
    }>`WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000)
      SELECT count(*) AS n FROM c`.execute(store.db);
    expect(await turnTaken(long)).toBe(true);
    expect((await long).rows).toEqual([{ n: 1_000_000 }]);
  });

  it('a short one does not', async () => {
    // Of five (a pause of the whole process, a collection, can stretch any one past the threshold).
    const taken: boolean[] = [];
    for (let i = 0; i < 5; i += 1) taken.push(await turnTaken(sql`SELECT 1 AS one`.execute(store.db)));
    expect(taken).toContain(false);
  });

  it('in a transaction too', async () => {
    const inside = await store.db.transaction().execute(async (tx) => ({
      long: await turnTaken(
        sql`WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000) SELECT count(*) FROM c`.execute(
          tx,
        ),
      ),
    }));
    expect(inside).toEqual({ long: true });
  });
});
