import { type Kysely, sql } from 'kysely';

/**
 * A statement figure as first reported beside its latest restatement: the value and filing date of the
 * earliest filing that reported the period, so a read as known on a date serves what was published by then.
 * The figures held before are their own first report.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('market_statements').addColumn('first_value', 'double precision').execute();
  await db.schema.alterTable('market_statements').addColumn('first_filed', 'text').execute();
  await sql`UPDATE market_statements SET first_value = value, first_filed = filed`.execute(db);
}
