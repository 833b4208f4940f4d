import type { Kysely } from 'kysely';

/**
 * The XBRL concept a statement figure was read from ('' where the source has none, as Yahoo's): a fiscal
 * fourth quarter is derived as the year less its first three only when all four figures share one concept.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('market_statements')
    .addColumn('concept', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}
