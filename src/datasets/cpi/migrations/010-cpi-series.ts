import type { Kysely } from 'kysely';
import { type Engine, serialId } from '../../../store/engine.js';

/** The BLS series catalogue (cu.series), U.S. city average monthly series. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('cpi_series')
    .addColumn('id', serialId(engine), (c) => c.primaryKey())
    .addColumn('series_id', 'text', (c) => c.notNull())
    .addColumn('item_code', 'text', (c) => c.notNull())
    .addColumn('seasonal', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('first_period', 'text')
    .addColumn('last_period', 'text')
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('is_current', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('loaded_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('cpi_series_revision', ['series_id', 'revision'])
    .execute();
}
