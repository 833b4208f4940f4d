import { type Kysely, sql } from 'kysely';
import type { Engine } from '../engine.js';
import { ACCOUNTS_SCHEMA } from '../sqlite-locks.js';

/**
 * The embedded store's accounts move to a file of their own (accounts.db, attached as `acct`), so that a load,
 * which holds the data file's write lock, never holds up a charge or an operator's change (docs/adr/036). Each
 * table is made again in the accounts file as it was declared (its columns, keys and references), its rows
 * copied, its indexes made again, and the table in the data file dropped; parents first, children dropped
 * first. PostgreSQL has one store and locks rows: nothing to do there.
 */
export const ACCOUNT_TABLES = [
  'accounts',
  'api_keys',
  'ledger',
  'usage',
  'unit_usage',
  'console_sessions',
  'account_activity',
  'stripe_events',
  'bulk_downloads',
] as const;

interface Declared {
  type: 'table' | 'index';
  name: string;
  tbl_name: string;
  sql: string | null;
}

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== 'sqlite') return;
  const declared = (
    await sql<Declared>`SELECT type, name, tbl_name, sql FROM main.sqlite_master
      WHERE tbl_name IN (${sql.join([...ACCOUNT_TABLES])}) AND sql IS NOT NULL`.execute(db)
  ).rows;
  const of = (table: string, type: Declared['type']) =>
    declared.filter((d) => d.tbl_name === table && d.type === type);
  for (const table of ACCOUNT_TABLES) {
    const [created] = of(table, 'table');
    if (!created?.sql) continue;
    await sql.raw(inSchema(created.sql, /^CREATE TABLE\s+/i)).execute(db);
    await sql.raw(`INSERT INTO ${ACCOUNTS_SCHEMA}."${table}" SELECT * FROM main."${table}"`).execute(db);
    for (const index of of(table, 'index'))
      if (index.sql) await sql.raw(inSchema(index.sql, /^CREATE (?:UNIQUE )?INDEX\s+/i)).execute(db);
  }
  for (const table of [...ACCOUNT_TABLES].reverse())
    if (of(table, 'table').length > 0) await sql.raw(`DROP TABLE main."${table}"`).execute(db);
}

/** The statement with the accounts schema before the name it declares (`CREATE TABLE "ledger"` → `… acct."ledger"`). */
function inSchema(statement: string, head: RegExp): string {
  const match = head.exec(statement);
  if (!match) throw new Error(`cannot move "${statement.slice(0, 60)}…" to the accounts file`);
  return `${match[0]}${ACCOUNTS_SCHEMA}.${statement.slice(match[0].length)}`;
}
