import type { Kysely } from 'kysely';

/**
 * What the market upstream answered, shared by every instance on the store: quotes, daily bars, summaries and
 * statements, each a JSON document under a key such as `quote:AAPL`. `fresh_until` says when it must be asked
 * for again; until something newer arrives, the document is still served (marked stale) when the upstream fails.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('market_cache')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('fetched_at', 'text', (c) => c.notNull())
    .addColumn('fresh_until', 'text', (c) => c.notNull())
    .execute();
}
