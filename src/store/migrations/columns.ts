// Columns shared by the tables of several migrations. Changing this file changes no landed migration's
// effect: it only names what those migrations already added.
import { type CreateTableBuilder, type Kysely, sql } from 'kysely';

/** The revision columns of every revisioned dataset table. */
export function revisioned<T extends string, C extends string>(table: CreateTableBuilder<T, C>) {
  return table
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('is_current', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('loaded_at', 'text', (c) => c.notNull());
}

/**
 * When each revision became known and when a later one superseded it (migrations 026 to 031), on revisioned
 * tables given with the columns that name a record. The revisions held before are known from their load and
 * superseded when the next revision of their record was loaded.
 */
export async function addKnownAt(
  db: Kysely<unknown>,
  tables: Record<string, readonly string[]>,
): Promise<void> {
  for (const [table, key] of Object.entries(tables)) {
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

/**
 * Where each revision's known time came from (store/revisions.ts, KnownFrom), on revisioned tables. Revisions
 * written before it was recorded say null: not recorded, rather than a guess.
 */
export async function addKnownFrom(db: Kysely<unknown>, tables: readonly string[]): Promise<void> {
  for (const table of tables) await db.schema.alterTable(table).addColumn('known_from', 'text').execute();
}
