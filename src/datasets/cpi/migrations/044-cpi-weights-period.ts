import type { Kysely } from 'kysely';

/** The relative-importance Decembers by date: the newest before a month is one seek (the bulk file's weights). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('cpi_weights_period').on('cpi_weights').column('weights_period').execute();
}
