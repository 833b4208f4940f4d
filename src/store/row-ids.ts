// A condition that a table's row id is one of a list, however long the list: on PostgreSQL one array
// parameter; on SQLite the ids written into the statement up to a few thousand (the planner then reads each
// by its key), past that one JSON array read by json_each, since bound values are limited in number.
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import { engineOf } from './engine.js';
import type { Database } from './schema.js';

const SQLITE_LISTED = 5000;

export function rowIdIn(db: Kysely<Database>, column: string, ids: number[]): Expression<SqlBool> {
  const ref = sql.ref(column);
  if (engineOf(db) !== 'sqlite') return sql<SqlBool>`${ref} = ANY(${ids}::bigint[])`;
  if (ids.length === 0) return sql<SqlBool>`1 = 0`;
  if (ids.length <= SQLITE_LISTED) return sql<SqlBool>`${ref} IN (${sql.join(ids)})`;
  return sql<SqlBool>`${ref} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`;
}
