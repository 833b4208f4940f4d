import type { Kysely } from 'kysely';

/**
 * Second opinions that disagreed: a daily close served from one upstream (`source`) that another configured
 * upstream (`other`) answered otherwise, beyond the tolerance (docs/adr/039), and when it was found.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('market_disputes')
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('other', 'text', (c) => c.notNull())
    .addColumn('close', 'double precision', (c) => c.notNull())
    .addColumn('other_close', 'double precision', (c) => c.notNull())
    .addColumn('found_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('market_disputes_pk', ['symbol', 'date', 'source', 'other'])
    .execute();
}
