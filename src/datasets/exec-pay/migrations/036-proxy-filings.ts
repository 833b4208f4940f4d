import { type Kysely, sql } from 'kysely';
import { type Engine, serialId } from '../../../store/engine.js';
import { revisioned } from '../../../store/migrations/columns.js';

/**
 * The proxies EDGAR lists for a company (from its submissions JSON) with their acceptance times, so that a
 * CEO-pay table's row is known from its proxy's filing; and a proxy's filing time may now be unknown (null):
 * a table's row whose proxy is not held says so rather than taking a date for it.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await revisioned(
    db.schema
      .createTable('proxy_filings')
      .addColumn('row_id', serialId(engine), (c) => c.primaryKey())
      .addColumn('accession', 'text', (c) => c.notNull())
      .addColumn('cik', 'text', (c) => c.notNull())
      .addColumn('form', 'text', (c) => c.notNull())
      .addColumn('accepted_at', 'text', (c) => c.notNull())
      .addColumn('filing_date', 'text', (c) => c.notNull())
      .addColumn('known_at', 'text')
      .addColumn('superseded_at', 'text'),
  )
    .addUniqueConstraint('proxy_filings_revision', ['accession', 'revision'])
    .execute();
  await db.schema
    .createIndex('proxy_filings_by_cik')
    .on('proxy_filings')
    .columns(['is_current', 'cik', 'accepted_at'])
    .execute();
  if (engine === 'postgres') {
    await sql`ALTER TABLE exec_pay ALTER COLUMN filed_at DROP NOT NULL`.execute(db);
    return;
  }
  // SQLite cannot drop a NOT NULL: the table is made again from its own definition, without it.
  const table = await sql<{ sql: string }>`
    SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'exec_pay'`.execute(db);
  const indexes = await sql<{ sql: string }>`
    SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'exec_pay' AND sql IS NOT NULL`.execute(
    db,
  );
  const definition = table.rows[0]?.sql ?? '';
  const relaxed = definition.replace(/("filed_at"\s+text)\s+not null/i, '$1');
  if (relaxed === definition) throw new Error('exec_pay.filed_at is not declared NOT NULL as expected');
  await sql`ALTER TABLE exec_pay RENAME TO exec_pay_before_036`.execute(db);
  await sql.raw(relaxed).execute(db);
  await sql`INSERT INTO exec_pay SELECT * FROM exec_pay_before_036`.execute(db);
  await sql`DROP TABLE exec_pay_before_036`.execute(db);
  for (const { sql: index } of indexes.rows) await sql.raw(index).execute(db);
}
