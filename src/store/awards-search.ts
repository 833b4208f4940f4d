// Full-text search of awards, the one place where the two engines differ: FTS5 on SQLite, a tsvector with
// a GIN index on PostgreSQL. Both tokenise without stemming and require every word of the query.
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import { engineOf, sqliteHandle } from './engine.js';
import type { Database } from './schema.js';

/** The words of a query, as both engines will match them. */
export function words(query: string): string[] {
  return query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** The query as FTS5 matches it (every word, each quoted) and as PostgreSQL's tsquery does. */
const ftsMatch = (terms: string[]) => terms.map((t) => `"${t}"`).join(' ');
const tsQuery = (terms: string[]) => terms.join(' & ');

/** A condition on the awards table: every word of `query` appears in title, recipient or agency. */
export function matches(db: Kysely<Database>, query: string): () => Expression<SqlBool> {
  const terms = words(query);
  if (terms.length === 0) return () => sql<SqlBool>`1 = 0`;
  if (engineOf(db) === 'sqlite') {
    const match = ftsMatch(terms);
    return () =>
      sql<SqlBool>`awards.row_id IN (SELECT rowid FROM awards_fts WHERE awards_fts MATCH ${match})`;
  }
  const tsquery = tsQuery(terms);
  return () => sql<SqlBool>`awards.search @@ to_tsquery('simple', ${tsquery})`;
}

/** The row ids (any revision) whose title, recipient or agency hold every word of `query`. */
export async function matchingRowIds(db: Kysely<Database>, query: string): Promise<number[]> {
  const terms = words(query);
  if (terms.length === 0) return [];
  const handle = sqliteHandle(db);
  if (handle) {
    // Plain numbers straight from the statement: a common word matches hundreds of thousands of rows.
    return handle
      .prepare('SELECT rowid FROM awards_fts WHERE awards_fts MATCH ?')
      .pluck()
      .all(ftsMatch(terms)) as number[];
  }
  const { rows } = await sql<{ row_id: string }>`SELECT row_id FROM awards
    WHERE is_current = 1 AND search @@ to_tsquery('simple', ${tsQuery(terms)})`.execute(db);
  return rows.map((r) => Number(r.row_id));
}
