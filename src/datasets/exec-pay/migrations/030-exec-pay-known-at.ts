import { type Kysely, sql } from 'kysely';

/** Each revisioned table, by the columns that name a record. */
const TABLES: Record<string, string[]> = {
  exec_pay: ['id'],
};

/**
 * When each revision became known and when a later one superseded it: the proxies' pay as it stood on a date. The revisions held
 * before were known when they were loaded, and superseded when the next revision of their record was.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [table, key] of Object.entries(TABLES)) {
    await db.schema.alterTable(table).addColumn('known_at', 'text').execute();
    await db.schema.alterTable(table).addColumn('superseded_at', 'text').execute();
    await sql`UPDATE ${sql.table(table)} SET known_at = loaded_at`.execute(db);
    const sameRecord = sql.join(
      key.map((c) => sql`later.${sql.ref(c)} = ${sql.table(table)}.${sql.ref(c)}`),
      sql` AND `,
    );
    await sql`UPDATE ${sql.table(table)} SET superseded_at = (
      SELECT MIN(later.loaded_at) FROM ${sql.table(table)} later
      WHERE ${sameRecord} AND later.revision > ${sql.table(table)}.revision
    ) WHERE is_current = 0`.execute(db);
  }
}
