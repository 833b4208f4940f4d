import type { Kysely } from 'kysely';
import { type Engine, serialId } from '../../../store/engine.js';
import { revisioned } from '../../../store/migrations/columns.js';

/** Treasury's daily rates: a row per series, tenor and day, revisioned and known from a time. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await revisioned(
    db.schema
      .createTable('treasury_rates')
      .addColumn('id', serialId(engine), (c) => c.primaryKey())
      .addColumn('series', 'text', (c) => c.notNull())
      .addColumn('tenor', 'text', (c) => c.notNull())
      .addColumn('date', 'text', (c) => c.notNull())
      .addColumn('value', 'double precision', (c) => c.notNull()),
  )
    .addColumn('known_at', 'text')
    .addColumn('known_from', 'text')
    .addColumn('superseded_at', 'text')
    .addUniqueConstraint('treasury_rates_revision', ['series', 'tenor', 'date', 'revision'])
    .execute();
  await db.schema
    .createIndex('treasury_rates_by_date')
    .on('treasury_rates')
    .columns(['series', 'is_current', 'date'])
    .execute();
  await db.schema
    .createIndex('treasury_rates_by_tenor')
    .on('treasury_rates')
    .columns(['series', 'tenor', 'is_current', 'date'])
    .execute();
}
