// A PostgreSQL connection ended by the server while a query runs on it (an operator's pg_terminate_backend, a
// failover, a restart): the query fails with the server's error, the process goes on, and the pool serves
// again on a fresh connection. Without a listener on the busy connection, its 'error' event ended the process.
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type Store } from '../../src/store/engine.js';
import { freshPostgres, pgUrl } from '../helpers/env.js';

describe.skipIf(pgUrl() === null)('a PostgreSQL connection lost during a query', () => {
  let database: Awaited<ReturnType<typeof freshPostgres>>;
  let store: Store;
  let admin: pg.Client;
  beforeAll(async () => {
    database = await freshPostgres();
    store = openPostgres(database.url, 2);
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await store.close();
    await database.drop();
  });

  it('fails that query and leaves the process and the pool serving', async () => {
    const marker = 'lost_connection_probe';
    const slow = sql`SELECT pg_sleep(30) AS ${sql.ref(marker)}`.execute(store.db);
    const outcome = slow.then(
      () => 'answered',
      (error: Error & { code?: string }) => error.code ?? error.message,
    );
    // The backend running the sleep, once it is running.
    let terminated = 0;
    for (let i = 0; i < 100 && terminated === 0; i += 1) {
      const { rowCount } = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE $1 AND pid <> pg_backend_pid()`,
        [`%pg_sleep(30) AS "${marker}"%`],
      );
      terminated = rowCount ?? 0;
      if (terminated === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(terminated).toBe(1);
    // 57P01: admin_shutdown, the server's own word for a terminated backend.
    expect(await outcome).toBe('57P01');
    // The pool may hand the dead connection out once more before the socket's end reaches it (the query
    // failed on the server's message first); after that it is dropped and a fresh one serves.
    const attempts: string[] = [];
    for (let i = 0; i < 3 && attempts.at(-1) !== 'answered'; i += 1)
      attempts.push(
        await sql<{ one: number }>`SELECT 1 AS one`.execute(store.db).then(
          ({ rows }) => (rows[0]?.one === 1 ? 'answered' : 'wrong'),
          (error: Error) => error.message,
        ),
      );
    expect(attempts.at(-1)).toBe('answered');
    expect(attempts.length).toBeLessThanOrEqual(2);
  });
});
