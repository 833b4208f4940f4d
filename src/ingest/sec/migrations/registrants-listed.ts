import type { Kysely } from 'kysely';

/**
 * company_tickers.json is a snapshot of every listed ticker: a ticker a newer one no longer names ends there, as a
 * revision with `listed` 0 (the one before it kept for reads as known on an earlier day). Rows before were listed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('registrants')
    .addColumn('listed', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}
