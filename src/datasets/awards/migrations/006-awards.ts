import { type Kysely, sql } from 'kysely';
import { type Engine, serialId } from '../../../store/engine.js';

const FILTER_COLUMNS = [
  'ticker',
  'jurisdiction',
  'currency',
  'agency_name',
  'sector',
  'source',
  'parent_id',
  'award_type',
  'fiscal_year',
  'amount_key',
];

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('awards')
    .addColumn('row_id', serialId(engine), (c) => c.primaryKey())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('revision_id', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('source_award_id', 'text', (c) => c.notNull())
    .addColumn('jurisdiction', 'text', (c) => c.notNull())
    .addColumn('award_type', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('award_date', 'text', (c) => c.notNull())
    .addColumn('fiscal_year', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('obligated_amount', 'text', (c) => c.notNull())
    .addColumn('amount_key', 'text', (c) => c.notNull())
    .addColumn('amount_micros', 'bigint')
    .addColumn('recipient_name', 'text', (c) => c.notNull())
    .addColumn('agency_name', 'text', (c) => c.notNull())
    .addColumn('sector', 'text')
    .addColumn('ticker', 'text')
    .addColumn('parent_id', 'text')
    .addColumn('source_url', 'text', (c) => c.notNull())
    .addColumn('observed_at', 'text', (c) => c.notNull())
    .addColumn('entity', 'text')
    .addColumn('revenue_comparison', 'text')
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('is_current', 'integer', (c) => c.notNull())
    .addColumn('loaded_at', 'text', (c) => c.notNull())
    .addColumn('load_source', 'text', (c) => c.notNull())
    .addUniqueConstraint('awards_revision', ['id', 'revision'])
    .execute();
  await db.schema
    .createIndex('awards_listing')
    .on('awards')
    .columns(['is_current', 'award_date', 'id'])
    .execute();
  for (const column of FILTER_COLUMNS) {
    await db.schema
      .createIndex(`awards_by_${column}`)
      .on('awards')
      .columns(['is_current', column, 'award_date'])
      .execute();
  }

  // Full-text search over title, recipient and agency: the same tokens ('simple', no stemming) on both.
  if (engine === 'sqlite') {
    await sql`CREATE VIRTUAL TABLE awards_fts USING fts5(title, recipient, agency, content='', tokenize='unicode61')`.execute(
      db,
    );
  } else {
    await sql`ALTER TABLE awards ADD COLUMN search tsvector GENERATED ALWAYS AS
      (to_tsvector('simple', title || ' ' || recipient_name || ' ' || agency_name)) STORED`.execute(db);
    await sql`CREATE INDEX awards_search ON awards USING gin (search)`.execute(db);
  }
}
