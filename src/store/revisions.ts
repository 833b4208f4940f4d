// Revisioned writes: a record is identified by its key columns; loading it again with the same content
// changes nothing, with other content it becomes a new revision and the old one stops being current.
import { createHash } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.js';

export type WriteOutcome = 'inserted' | 'revised' | 'unchanged';

/** SHA-256 of a value's canonical JSON (object keys sorted), so equal content hashes equally. */
export function contentHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

type RevisionedTable =
  | 'cot_records'
  | 'energy_series'
  | 'energy_observations'
  | 'energy_reports'
  | 'cpi_items'
  | 'cpi_index'
  | 'cpi_weights'
  | 'cpi_releases'
  | 'cpi_series'
  | 'events'
  | 'exec_pay';

/**
 * Writes `row` (without the revision columns) under `key`. The key columns must be part of `row`.
 */
export async function writeRevision(
  db: Kysely<Database> | Transaction<Database>,
  table: RevisionedTable,
  key: Record<string, string>,
  row: Record<string, unknown>,
  meta: { hash: string; source: string; loadedAt: string },
): Promise<WriteOutcome> {
  // Dynamic table and key columns: typed access would need one copy of this function per table.
  const dyn = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  let current = dyn.selectFrom(table).select(['id', 'content_hash', 'revision']).where('is_current', '=', 1);
  for (const [column, value] of Object.entries(key)) current = current.where(column, '=', value);
  const found = (await current.executeTakeFirst()) as
    | { id: number; content_hash: string; revision: number }
    | undefined;
  if (found && found.content_hash === meta.hash) return 'unchanged';
  if (found) await dyn.updateTable(table).set({ is_current: 0 }).where('id', '=', found.id).execute();
  await dyn
    .insertInto(table)
    .values({
      ...row,
      content_hash: meta.hash,
      revision: (found?.revision ?? 0) + 1,
      is_current: 1,
      source: meta.source,
      loaded_at: meta.loadedAt,
    })
    .execute();
  return found ? 'revised' : 'inserted';
}

/** Marks a dataset changed, inside the load's transaction, so that read caches drop what they hold. */
export async function bumpVersion(db: Kysely<Database> | Transaction<Database>, dataset: string, at: string) {
  await db
    .insertInto('dataset_versions')
    .values({ dataset, version: 1, updated_at: at })
    .onConflict((oc) =>
      oc.column('dataset').doUpdateSet((eb) => ({
        version: eb('dataset_versions.version', '+', 1),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
}
