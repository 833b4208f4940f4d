import type { Kysely } from 'kysely';

/**
 * Fields of a symbol recorded without a quote (a quoteSummary response without its price module, such as
 * defaultKeyStatistics alone). They add to the symbol's quote when it has one; alone they are not a quote.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('market_facts')
    .addColumn('symbol', 'text', (c) => c.primaryKey())
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('as_of', 'text', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('loaded_at', 'text', (c) => c.notNull())
    .execute();
}
