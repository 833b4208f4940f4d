import type { Kysely } from 'kysely';
import { type Engine, serialId } from '../../../store/engine.js';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('energy_series')
    .addColumn('id', serialId(engine), (c) => c.primaryKey())
    .addColumn('series_id', 'text', (c) => c.notNull())
    .addColumn('report', 'text', (c) => c.notNull())
    .addColumn('tab', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('unit', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('is_current', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('loaded_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('energy_series_revision', ['series_id', 'revision'])
    .execute();

  await db.schema
    .createTable('energy_observations')
    .addColumn('id', serialId(engine), (c) => c.primaryKey())
    .addColumn('series_id', 'text', (c) => c.notNull())
    .addColumn('week_ending', 'text', (c) => c.notNull())
    .addColumn('value', 'double precision', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('is_current', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('loaded_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('energy_observations_revision', ['series_id', 'week_ending', 'revision'])
    .execute();
  await db.schema
    .createIndex('energy_observations_series')
    .on('energy_observations')
    .columns(['series_id', 'is_current', 'week_ending'])
    .execute();

  await db.schema
    .createTable('energy_reports')
    .addColumn('id', serialId(engine), (c) => c.primaryKey())
    .addColumn('report', 'text', (c) => c.notNull())
    .addColumn('week_ending', 'text', (c) => c.notNull())
    .addColumn('released_at', 'text')
    .addColumn('release_holiday', 'integer', (c) => c.notNull())
    .addColumn('next_week_ending', 'text')
    .addColumn('next_release_at', 'text')
    .addColumn('next_release_holiday', 'integer', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('is_current', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('loaded_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('energy_reports_revision', ['report', 'week_ending', 'revision'])
    .execute();
  await db.schema
    .createIndex('energy_reports_latest')
    .on('energy_reports')
    .columns(['report', 'is_current', 'week_ending'])
    .execute();
}
