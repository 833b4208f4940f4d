// Full-text search of awards, the one place where the two engines differ: FTS5 on SQLite, a tsvector with
// a GIN index on PostgreSQL. Both tokenise without stemming and require every word of the query.
import { type Expression, type Kysely, type SqlBool, sql, type Transaction } from 'kysely';
import { engineOf } from './engine.js';
import type { Database } from './schema.js';

/** The words of a query, as both engines will match them. */
export function words(query: string): string[] {
  return query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Adds a new award revision to the SQLite search index; PostgreSQL computes its column itself. */
export async function indexAward(
  tx: Transaction<Database> | Kysely<Database>,
  rowId: number,
  text: { title: string; recipient: string; agency: string },
): Promise<void> {
  if (engineOf(tx) !== 'sqlite') return;
  await sql`INSERT INTO awards_fts (rowid, title, recipient, agency)
            VALUES (${rowId}, ${text.title}, ${text.recipient}, ${text.agency})`.execute(tx);
}

/** A condition on the awards table: every word of `query` appears in title, recipient or agency. */
export function matches(db: Kysely<Database>, query: string): () => Expression<SqlBool> {
  const terms = words(query);
  if (terms.length === 0) return () => sql<SqlBool>`1 = 0`;
  if (engineOf(db) === 'sqlite') {
    const match = terms.map((t) => `"${t}"`).join(' ');
    return () =>
      sql<SqlBool>`awards.row_id IN (SELECT rowid FROM awards_fts WHERE awards_fts MATCH ${match})`;
  }
  const tsquery = terms.join(' & ');
  return () => sql<SqlBool>`awards.search @@ to_tsquery('simple', ${tsquery})`;
}
