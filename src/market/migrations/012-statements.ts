import type { Kysely } from 'kysely';

/** Reported financial-statement facts (SEC XBRL company facts), by ticker and field. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('market_statements')
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('field', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('start', 'text', (c) => c.notNull())
    .addColumn('end', 'text', (c) => c.notNull())
    .addColumn('value', 'double precision', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('fp', 'text', (c) => c.notNull())
    .addColumn('form', 'text', (c) => c.notNull())
    .addColumn('filed', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('loaded_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('market_statements_pk', ['symbol', 'field', 'kind', 'start', 'end'])
    .execute();
}
