// Inserting award rows in bulk, the engines apart: on SQLite one prepared statement per row (kept across
// calls; a statement of hundreds of rows costs more to prepare than its rows take to write) with the row's
// search entry; on PostgreSQL multi-row inserts (its search column is computed by the table itself).

import type SQLite from 'better-sqlite3';
import type { Insertable, Kysely, Transaction } from 'kysely';
import { sqliteHandle } from './engine.js';
import type { AwardsTable, Database } from './schema.js';

const COLUMNS = [
  'id',
  'revision_id',
  'source',
  'source_award_id',
  'jurisdiction',
  'award_type',
  'title',
  'award_date',
  'fiscal_year',
  'currency',
  'obligated_amount',
  'amount_key',
  'amount_micros',
  'recipient_name',
  'agency_name',
  'sector',
  'ticker',
  'parent_id',
  'source_url',
  'observed_at',
  'entity',
  'revenue_comparison',
  'details',
  'revision',
  'is_current',
  'loaded_at',
  'load_source',
] as const satisfies readonly (keyof AwardsTable)[];

export type AwardRow = Required<Omit<Insertable<AwardsTable>, 'row_id'>>;

/** Rows per multi-row INSERT on PostgreSQL: 27 values each, well under its 65,535. */
const PG_ROWS = 1000;

interface Statements {
  insert: SQLite.Statement;
  search: SQLite.Statement;
}
const prepared = new WeakMap<SQLite.Database, Statements>();

function statements(handle: SQLite.Database): Statements {
  let kept = prepared.get(handle);
  if (!kept) {
    kept = {
      insert: handle.prepare(
        `INSERT INTO awards (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`,
      ),
      search: handle.prepare('INSERT INTO awards_fts (rowid, title, recipient, agency) VALUES (?, ?, ?, ?)'),
    };
    prepared.set(handle, kept);
  }
  return kept;
}

/** Inserts `rows` inside `tx` (a transaction on `root`). */
export async function insertAwardRows(
  root: Kysely<Database>,
  tx: Transaction<Database>,
  rows: AwardRow[],
): Promise<void> {
  const handle = sqliteHandle(root);
  if (handle) {
    const { insert, search } = statements(handle);
    for (const row of rows) {
      const { lastInsertRowid } = insert.run(COLUMNS.map((c) => row[c]));
      search.run(lastInsertRowid, row.title, row.recipient_name, row.agency_name);
    }
    return;
  }
  for (let i = 0; i < rows.length; i += PG_ROWS) {
    await tx
      .insertInto('awards')
      .values(rows.slice(i, i + PG_ROWS))
      .execute();
  }
}
