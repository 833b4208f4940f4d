import { type Kysely, sql } from 'kysely';

/** The partial indexes of migration 021 that only a listing's rare fallback read. */
const DROPPED = ['ticker', 'agency_name', 'sector', 'source', 'parent_id', 'fiscal_year', 'amount_key'].map(
  (c) => `awards_current_by_${c}`,
);

/**
 * The listing finds its page's awards by row id from the in-memory columns (ADR 016), so the filter indexes
 * served only the case of thousands of matching awards on the newest days, which the listing index answers
 * as well: its first rows in order are the matches. Each cost every load a b-tree write in random order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const name of DROPPED) await sql`DROP INDEX IF EXISTS ${sql.id(name)}`.execute(db);
}
