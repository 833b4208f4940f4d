import type { Kysely } from 'kysely';

/** One counter per dataset, bumped by every load that changes it; read caches key on it. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dataset_versions')
    .addColumn('dataset', 'text', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}
