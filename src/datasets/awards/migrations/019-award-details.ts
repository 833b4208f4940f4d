import type { Kysely } from 'kysely';

/**
 * What a source says of an award beyond the row's common fields (JSON): which amount the row's amount is,
 * a loan's face value, the sub-tier agency, the parent award, a modification's number, the loader's alerts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('awards').addColumn('details', 'text').execute();
}
