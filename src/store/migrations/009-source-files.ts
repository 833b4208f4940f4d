import type { Kysely } from 'kysely';
import { type Engine, serialId } from '../engine.js';

/** One row per load of an agency's file: what was read and when. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('source_files')
    .addColumn('id', serialId(engine), (c) => c.primaryKey())
    .addColumn('dataset', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('checksum', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('rows', 'integer', (c) => c.notNull())
    .addColumn('first_date', 'text')
    .addColumn('last_date', 'text')
    .addColumn('inserted', 'integer', (c) => c.notNull())
    .addColumn('revised', 'integer', (c) => c.notNull())
    .addColumn('unchanged', 'integer', (c) => c.notNull())
    .addColumn('loaded_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('source_files_checksum')
    .on('source_files')
    .columns(['dataset', 'checksum'])
    .execute();
}
