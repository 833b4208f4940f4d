import type { Kysely } from 'kysely';

/** A guidance fact's range: its low and high ends (null for a point or approximate figure). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('kpi_facts').addColumn('low', 'double precision').execute();
  await db.schema.alterTable('kpi_facts').addColumn('high', 'double precision').execute();
}
