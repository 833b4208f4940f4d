import type { Kysely } from 'kysely';
import { type Engine, serialId } from '../../../store/engine.js';
import { revisioned } from '../../../store/migrations/columns.js';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('companies')
    .addColumn('ticker', 'text', (c) => c.primaryKey())
    .addColumn('cik', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('short_name', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await revisioned(
    db.schema
      .createTable('events')
      .addColumn('row_id', serialId(engine), (c) => c.primaryKey())
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('ticker', 'text', (c) => c.notNull())
      .addColumn('form', 'text', (c) => c.notNull())
      .addColumn('filed_at', 'text', (c) => c.notNull())
      .addColumn('filing_date', 'text', (c) => c.notNull())
      .addColumn('doc_url', 'text', (c) => c.notNull())
      .addColumn('items', 'text', (c) => c.notNull())
      .addColumn('headline', 'text')
      .addColumn('summary', 'text')
      .addColumn('people', 'text', (c) => c.notNull()),
  )
    .addUniqueConstraint('events_revision', ['id', 'revision'])
    .execute();
  await db.schema
    .createIndex('events_by_ticker')
    .on('events')
    .columns(['is_current', 'ticker', 'filed_at'])
    .execute();

  await revisioned(
    db.schema
      .createTable('exec_pay')
      .addColumn('row_id', serialId(engine), (c) => c.primaryKey())
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('ticker', 'text', (c) => c.notNull())
      .addColumn('proxy_year', 'integer', (c) => c.notNull())
      .addColumn('fiscal_year', 'integer', (c) => c.notNull())
      .addColumn('fiscal_year_label', 'text', (c) => c.notNull())
      .addColumn('filed_at', 'text', (c) => c.notNull())
      .addColumn('meeting_date', 'text')
      .addColumn('ceo_name', 'text', (c) => c.notNull())
      .addColumn('ceo_title', 'text', (c) => c.notNull())
      .addColumn('ceo_total', 'double precision', (c) => c.notNull())
      .addColumn('ceo_prior_year_total', 'double precision')
      .addColumn('pay_ratio', 'double precision')
      .addColumn('median_employee_pay', 'double precision'),
  )
    .addUniqueConstraint('exec_pay_revision', ['id', 'revision'])
    .execute();
  await db.schema
    .createIndex('exec_pay_by_ticker')
    .on('exec_pay')
    .columns(['is_current', 'ticker', 'fiscal_year'])
    .execute();
}
