import { type Kysely, sql } from 'kysely';
import { type Engine, serialId } from '../../../store/engine.js';
import { revisioned } from '../../../store/migrations/columns.js';

/**
 * EDGAR's registrants (company_tickers.json): every listed ticker with its CIK and name, so a filing that
 * names only a CIK finds its ticker. `rank` is the file's order; a CIK's first ticker is its main one.
 * A proxy also says where it was read: a filing, or a secondary CEO-pay table.
 *
 * Revised events and proxies used to leave their earlier revision marked current as well: only the newest
 * revision of each stays current.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await revisioned(
    db.schema
      .createTable('registrants')
      .addColumn('row_id', serialId(engine), (c) => c.primaryKey())
      .addColumn('ticker', 'text', (c) => c.notNull())
      .addColumn('cik', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('rank', 'integer', (c) => c.notNull()),
  )
    .addUniqueConstraint('registrants_revision', ['ticker', 'revision'])
    .execute();
  await db.schema
    .createIndex('registrants_by_cik')
    .on('registrants')
    .columns(['is_current', 'cik'])
    .execute();
  await db.schema
    .alterTable('exec_pay')
    .addColumn('source_kind', 'text', (c) => c.notNull().defaultTo('filing'))
    .execute();
  for (const table of ['events', 'exec_pay']) {
    await sql`
      UPDATE ${sql.table(table)} SET is_current = 0
      WHERE is_current = 1 AND EXISTS (
        SELECT 1 FROM ${sql.table(table)} AS newer
        WHERE newer.id = ${sql.table(table)}.id AND newer.revision > ${sql.table(table)}.revision)`.execute(
      db,
    );
  }
}
