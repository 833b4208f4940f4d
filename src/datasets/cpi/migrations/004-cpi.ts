import type { Kysely } from 'kysely';
import { type Engine, serialId } from '../../../store/engine.js';
import { revisioned } from '../../../store/migrations/columns.js';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await revisioned(
    db.schema
      .createTable('cpi_items')
      .addColumn('id', serialId(engine), (c) => c.primaryKey())
      .addColumn('item_code', 'text', (c) => c.notNull())
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('depth', 'integer', (c) => c.notNull())
      .addColumn('parent', 'text')
      .addColumn('sort_sequence', 'integer', (c) => c.notNull()),
  )
    .addUniqueConstraint('cpi_items_revision', ['item_code', 'revision'])
    .execute();

  await revisioned(
    db.schema
      .createTable('cpi_index')
      .addColumn('id', serialId(engine), (c) => c.primaryKey())
      .addColumn('item_code', 'text', (c) => c.notNull())
      .addColumn('seasonal', 'text', (c) => c.notNull())
      .addColumn('period', 'text', (c) => c.notNull())
      .addColumn('value', 'double precision', (c) => c.notNull()),
  )
    .addUniqueConstraint('cpi_index_revision', ['item_code', 'seasonal', 'period', 'revision'])
    .execute();
  await db.schema
    .createIndex('cpi_index_item')
    .on('cpi_index')
    .columns(['is_current', 'item_code', 'seasonal', 'period'])
    .execute();

  await revisioned(
    db.schema
      .createTable('cpi_weights')
      .addColumn('id', serialId(engine), (c) => c.primaryKey())
      .addColumn('item_code', 'text', (c) => c.notNull())
      .addColumn('weights_period', 'text', (c) => c.notNull())
      .addColumn('weight', 'double precision', (c) => c.notNull()),
  )
    .addUniqueConstraint('cpi_weights_revision', ['item_code', 'weights_period', 'revision'])
    .execute();

  await revisioned(
    db.schema
      .createTable('cpi_releases')
      .addColumn('id', serialId(engine), (c) => c.primaryKey())
      .addColumn('period', 'text', (c) => c.notNull())
      .addColumn('released_at', 'text')
      .addColumn('next_period', 'text')
      .addColumn('next_release_at', 'text'),
  )
    .addUniqueConstraint('cpi_releases_revision', ['period', 'revision'])
    .execute();
}
