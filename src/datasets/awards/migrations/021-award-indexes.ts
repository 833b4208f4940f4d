import { type Kysely, sql } from 'kysely';

const DROPPED = [
  'awards_listing',
  ...[
    'ticker',
    'jurisdiction',
    'currency',
    'agency_name',
    'sector',
    'source',
    'parent_id',
    'award_type',
    'fiscal_year',
    'amount_key',
  ].map((c) => `awards_by_${c}`),
];

/** Filters of /v1/awards that pick out few awards; jurisdiction, currency and award type do not. */
const FILTERS = ['ticker', 'agency_name', 'sector', 'source', 'parent_id', 'fiscal_year', 'amount_key'];

/**
 * The awards indexes hold current rows only (partial indexes), keyed by the filter and then the listing's
 * order. Led by is_current, the former ones were taken by both planners for any query naming is_current —
 * the lookup of one award by id among them, which then read every current row — and each cost every load
 * a write. Queries name `is_current = 1` as a literal, so that the planners can use these.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const name of DROPPED) await sql`DROP INDEX IF EXISTS ${sql.id(name)}`.execute(db);
  await sql`CREATE INDEX awards_current_listing ON awards (award_date, id) WHERE is_current = 1`.execute(db);
  for (const column of FILTERS) {
    await sql`CREATE INDEX ${sql.id(`awards_current_by_${column}`)} ON awards (${sql.id(column)}, award_date, id)
              WHERE is_current = 1`.execute(db);
  }
}
