// Reading and inserting award rows in bulk, the engines apart: on SQLite one prepared statement per row
// (kept across calls; a statement of hundreds of rows costs more to prepare than its rows take to write); on
// PostgreSQL a statement per batch.

import type SQLite from 'better-sqlite3';
import { type Insertable, type Kysely, sql, type Transaction } from 'kysely';
import { sqliteHandle } from '../../store/engine.js';
import type { Database } from '../../store/schema.js';
import type { AwardsTable } from './tables.js';

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
  'known_at',
  'known_from',
  'superseded_at',
] as const satisfies readonly (keyof AwardsTable)[];

export type AwardRow = Required<Omit<Insertable<AwardsTable>, 'row_id'>>;

/** Rows per INSERT on PostgreSQL. */
const PG_ROWS = 2000;

/** The PostgreSQL type of each column that is not text. */
const PG_TYPES: Partial<Record<(typeof COLUMNS)[number], string>> = {
  fiscal_year: 'integer',
  amount_micros: 'bigint',
  revision: 'integer',
  is_current: 'integer',
};

interface Statements {
  insert: SQLite.Statement;
  held: SQLite.Statement;
}
const prepared = new WeakMap<SQLite.Database, Statements>();

function statements(handle: SQLite.Database): Statements {
  let kept = prepared.get(handle);
  if (!kept) {
    kept = {
      insert: handle.prepare(
        // Named parameters, bound from the row object itself.
        `INSERT INTO awards (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})`,
      ),
      held: handle.prepare(`SELECT ${HELD_COLUMNS.join(', ')} FROM awards WHERE id = ? AND is_current = 1`),
    };
    prepared.set(handle, kept);
  }
  return kept;
}

/** What a write needs of an award's current row. */
export interface HeldAward {
  row_id: number;
  id: string;
  revision_id: string;
  revision: number;
  details: string | null;
  known_at: string;
}
const HELD_COLUMNS = ['row_id', 'id', 'revision_id', 'revision', 'details', 'known_at'] as const;

/** Awards per read of current rows on PostgreSQL. */
const PG_READ = 1000;

/** The current rows of the awards `ids` held, by id, read inside `tx` (a transaction on `root`). */
export async function heldAwards(
  root: Kysely<Database>,
  tx: Transaction<Database>,
  ids: string[],
): Promise<Map<string, HeldAward>> {
  const held = new Map<string, HeldAward>();
  const keep = (row: HeldAward) =>
    held.set(row.id, { ...row, row_id: Number(row.row_id), revision: Number(row.revision) });
  const handle = sqliteHandle(root);
  if (handle) {
    const { held: read } = statements(handle);
    for (const id of ids) {
      const row = read.get(id) as HeldAward | undefined;
      if (row) keep(row);
    }
    return held;
  }
  // The rows a load has written are in no statistics until it commits, and the planner takes `id = ANY(…)`
  // over a table it believes small for a scan of all of it: every batch of a large load then read the whole
  // table again. A subquery per id that cannot be flattened (OFFSET 0) is answered by the (id, revision) key
  // whatever the statistics say; JIT, which the planner's guess of many rows would set off, only delays it.
  await sql`SET LOCAL jit = off`.execute(tx);
  for (let i = 0; i < ids.length; i += PG_READ) {
    const columns = sql.join(HELD_COLUMNS.map((c) => sql.ref(`held.${c}`)));
    const { rows } = await sql<HeldAward & { is_current: number }>`
      SELECT ${columns}, held.is_current FROM unnest(${ids.slice(i, i + PG_READ)}::text[]) AS wanted(id)
      CROSS JOIN LATERAL (SELECT * FROM awards WHERE awards.id = wanted.id OFFSET 0) AS held`.execute(tx);
    for (const row of rows) if (Number(row.is_current) === 1) keep(row);
  }
  return held;
}

/** Inserts `rows` inside `tx` (a transaction on `root`). */
export async function insertAwardRows(
  root: Kysely<Database>,
  tx: Transaction<Database>,
  rows: AwardRow[],
): Promise<void> {
  const handle = sqliteHandle(root);
  if (handle) {
    const { insert } = statements(handle);
    for (const row of rows) insert.run(row);
    return;
  }
  // One array per column, unnested into rows: one parameter per column a statement however many rows it holds, where a
  // multi-row VALUES list binds and parses every value as a parameter of its own.
  for (let i = 0; i < rows.length; i += PG_ROWS) {
    const chunk = rows.slice(i, i + PG_ROWS);
    const arrays = COLUMNS.map(
      (c) => sql`${chunk.map((row) => row[c])}::${sql.raw(PG_TYPES[c] ?? 'text')}[]`,
    );
    await sql`INSERT INTO awards (${sql.join(COLUMNS.map((c) => sql.id(c)))})
              SELECT * FROM unnest(${sql.join(arrays)})`.execute(tx);
  }
}
