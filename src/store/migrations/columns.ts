// Columns shared by the tables of several migrations. Changing this file changes no landed migration's
// effect: it only names what those migrations already added.
import type { CreateTableBuilder } from 'kysely';

/** The revision columns of every revisioned dataset table. */
export function revisioned<T extends string, C extends string>(table: CreateTableBuilder<T, C>) {
  return table
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('is_current', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('loaded_at', 'text', (c) => c.notNull());
}
