import type { Kysely } from 'kysely';

/**
 * What an operator states about a listing its price files do not carry (`quarry ingest prices --name`): the
 * company's name, so that search finds a listing held only as daily bars by the name of its issuer.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('market_listings')
    .addColumn('symbol', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('loaded_at', 'text', (c) => c.notNull())
    .execute();
}
