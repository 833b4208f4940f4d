import { type Kysely, sql } from 'kysely';
import type { Engine } from '../../../store/engine.js';

/**
 * The words of `query` are found in memory beside the listing's columns (ADR 016), so the stores' own
 * full-text indexes go: FTS5's table on SQLite, the tsvector column and its GIN index on PostgreSQL. Each
 * cost every load a tokenising write per award, and PostgreSQL answered a common word only by visiting
 * every matching row of the table.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine === 'sqlite') {
    await sql`DROP TABLE IF EXISTS awards_fts`.execute(db);
    return;
  }
  await sql`DROP INDEX IF EXISTS awards_search`.execute(db);
  await sql`ALTER TABLE awards DROP COLUMN IF EXISTS search`.execute(db);
}
