import type { Kysely } from 'kysely';
import { type Engine, serialId } from '../../../store/engine.js';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('kpi_facts')
    .addColumn('row_id', serialId(engine), (c) => c.primaryKey())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('fact_key', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('metric_id', 'text', (c) => c.notNull())
    .addColumn('series_key', 'text', (c) => c.notNull())
    .addColumn('period_start', 'text')
    .addColumn('period_end', 'text', (c) => c.notNull())
    .addColumn('period_kind', 'text', (c) => c.notNull())
    .addColumn('fiscal_year', 'integer', (c) => c.notNull())
    .addColumn('fiscal_quarter', 'integer')
    .addColumn('period_label', 'text', (c) => c.notNull())
    .addColumn('value', 'double precision', (c) => c.notNull())
    .addColumn('unit', 'text', (c) => c.notNull())
    .addColumn('currency', 'text')
    .addColumn('basis', 'text', (c) => c.notNull())
    .addColumn('dimensions', 'text', (c) => c.notNull())
    .addColumn('confidence', 'double precision', (c) => c.notNull())
    .addColumn('as_of', 'text', (c) => c.notNull())
    .addColumn('supersedes_id', 'text')
    .addColumn('conflict', 'integer', (c) => c.notNull())
    .addColumn('evidence', 'text', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('is_current', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('loaded_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('kpi_facts_revision', ['fact_key', 'revision'])
    .execute();
  await db.schema
    .createIndex('kpi_facts_company')
    .on('kpi_facts')
    .columns(['symbol', 'kind', 'period_end'])
    .execute();
  await db.schema
    .createIndex('kpi_facts_metric')
    .on('kpi_facts')
    .columns(['symbol', 'kind', 'metric_id', 'period_end'])
    .execute();

  await db.schema
    .createTable('kpi_metrics')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sector', 'text', (c) => c.notNull())
    .addColumn('unit', 'text', (c) => c.notNull())
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('aliases', 'text', (c) => c.notNull())
    .addColumn('favorable', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}
