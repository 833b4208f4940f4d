// How the embedded store's writers share its two files (docs/adr/036). The data (quarry.db) and the accounts
// (accounts.db: accounts, keys, the credit ledger, usage, console sessions, bulk claims) are separate SQLite
// files, the second attached to every connection as `acct`; a table's name finds its file, so queries name no
// file. Each transaction takes the write lock of the one file it writes, as it begins: a load holds the data
// file's lock, never the one a charge, a revocation or a balance change needs. No statement sleeps in SQLite's
// busy handler (it would hold the event loop): a statement that finds its file locked is tried again off the
// loop every few milliseconds, and gives up after LOCKED_FOR_MS with StoreLocked, which a keyed call answers as
// 503 with Retry-After and a CLI command as what did not happen.
import { setTimeout as delay } from 'node:timers/promises';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type Kysely,
  type QueryResult,
  SqliteAdapter,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  sql,
} from 'kysely';
import type { Database } from './schema.js';

/** The schema name the accounts file is attached under. */
export const ACCOUNTS_SCHEMA = 'acct';

/** A table in each file that is never written: a write to it begins a write transaction on that file alone. */
export const WRITE_LOCK_TABLE = 'write_lock';

/** How long a write waits for another connection's lock on its file before it gives up, and how often it tries. */
export const LOCKED_FOR_MS = 10_000;
const TRY_EVERY_MS = 2;

/** A write that found its file locked by another connection for LOCKED_FOR_MS: it was not made. */
export class StoreLocked extends Error {
  /** As SQLite names it: the HTTP error reply answers it 503 with Retry-After. */
  readonly code = 'SQLITE_BUSY';
  constructor(what: string) {
    super(
      `${what} was not made: another process held the store's lock for ${LOCKED_FOR_MS / 1000} s; try again`,
    );
    this.name = 'StoreLocked';
  }
}

export function isBusy(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT';
}

/**
 * Runs `write` until it does not find its file locked, trying again every TRY_EVERY_MS off the event loop;
 * StoreLocked after `lockedForMs`. Only for a write that changed nothing when it found the lock taken: a
 * statement on its own, or the first write of a transaction. With `ready`, each try first waits until it says
 * so (the connection's own transaction ended), and the wait for the lock starts again after.
 */
export async function whenUnlocked<T>(
  write: () => T | Promise<T>,
  what: string,
  { lockedForMs = LOCKED_FOR_MS, ready }: { lockedForMs?: number; ready?: () => boolean } = {},
): Promise<T> {
  let since = performance.now();
  for (;;) {
    if (ready && !ready()) {
      while (!ready()) await delay(1);
      since = performance.now();
    }
    try {
      return await write();
    } catch (error) {
      if (!isBusy(error)) throw error;
      if (performance.now() - since > lockedForMs) throw new StoreLocked(what);
    }
    await delay(TRY_EVERY_MS);
  }
}

/**
 * The connection as Kysely sees it, with a statement that finds its file locked tried again off the loop. The
 * statement runs synchronously: a happy path costs one try block.
 */
class WaitingConnection implements DatabaseConnection {
  constructor(private readonly inner: DatabaseConnection) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return this.inner.executeQuery<R>(query);
    } catch (error) {
      if (!isBusy(error)) throw error;
      return whenUnlocked(() => this.inner.executeQuery<R>(query), 'the change');
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

const LOCK_DATA = CompiledQuery.raw(`delete from main.${WRITE_LOCK_TABLE} where 0`);
const LOCK_ACCOUNTS = CompiledQuery.raw(`delete from ${ACCOUNTS_SCHEMA}.${WRITE_LOCK_TABLE} where 0`);

/**
 * Transactions that take the data file's write lock as they begin. Begun without it, one that read first could
 * not take the lock once another process had written since its read, and failed at once instead of waiting its
 * turn (docs/adr/035). `begin immediate` would lock the accounts file too.
 */
class DataWritingDriver extends SqliteDriver {
  private readonly connections = new WeakMap<DatabaseConnection, WaitingConnection>();

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    let waiting = this.connections.get(connection);
    if (!waiting) {
      waiting = new WaitingConnection(connection);
      this.connections.set(connection, waiting);
    }
    return waiting;
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'));
    try {
      await connection.executeQuery(LOCK_DATA);
    } catch (error) {
      await connection.executeQuery(CompiledQuery.raw('rollback'));
      throw error;
    }
  }
}

export class DataWritingSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): Driver {
    return new DataWritingDriver(this.settings);
  }
}

/**
 * A transaction that writes the accounts' tables only: on the embedded store it takes the accounts file's lock,
 * not the data file's, so a load never holds it up; on PostgreSQL an ordinary transaction.
 */
export async function accountsTransaction<T>(
  db: Kysely<Database>,
  work: (tx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return db.transaction().execute(work);
  return db.connection().execute(async (connection) => {
    await sql`begin`.execute(connection);
    try {
      await sql.raw(LOCK_ACCOUNTS.sql).execute(connection);
      // The connection is held for the work alone, as a transaction's is; its queries run inside the begin above.
      const result = await work(connection);
      await sql`commit`.execute(connection);
      return result;
    } catch (error) {
      await sql`rollback`.execute(connection).catch(() => {});
      throw error;
    }
  });
}

/** The statement that begins a write transaction on the accounts file alone (for the credits' own statements). */
export const LOCK_ACCOUNTS_SQL = LOCK_ACCOUNTS.sql;
