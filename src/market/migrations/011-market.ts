import type { Kysely } from 'kysely';

/** Stored market data: latest quotes and daily bars, by provider symbol, prices in main units. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('market_quotes')
    .addColumn('symbol', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('exchange', 'text', (c) => c.notNull())
    .addColumn('asset_type', 'text', (c) => c.notNull())
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('as_of', 'text', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('loaded_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('market_bars')
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('open', 'double precision')
    .addColumn('high', 'double precision')
    .addColumn('low', 'double precision')
    .addColumn('close', 'double precision', (c) => c.notNull())
    .addColumn('volume', 'double precision')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('loaded_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('market_bars_pk', ['symbol', 'date'])
    .execute();
}
