import type { Kysely } from 'kysely';

/**
 * What each of SEC's exchange files said of a listing, by the file's date: the listing's exchange and CIK as
 * known on a past day (`/v1/data?asOf=`), where `market_facts` holds the newest alone. A null exchange is a
 * listing the file names without one, or no longer names.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('market_exchange_snapshots')
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('snapshot_at', 'text', (c) => c.notNull())
    .addColumn('cik', 'text')
    .addColumn('exchange_code', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('market_exchange_snapshots_pk', ['symbol', 'snapshot_at'])
    .execute();
}
