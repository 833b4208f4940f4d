import type { Kysely } from 'kysely';

/**
 * A bulk file's charge is claimed before it is taken: `paid` is 0 while the claiming download's charge is being
 * decided, 1 once it was taken. Downloads of the same file meanwhile wait for the claim instead of being
 * charged beside it; a refused charge gives the claim up. Rows from before were all paid.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('bulk_downloads')
    .addColumn('paid', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}
