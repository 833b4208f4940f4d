import type { Kysely } from 'kysely';

/**
 * A secret for signing cursors and links, the same for every process on this store. Made by the awards' first
 * migration (006) when it landed; a store that ran 006 has it already.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('settings')
    .ifNotExists()
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}
