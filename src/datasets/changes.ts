// The change feed of a dataset (call type change): the revisions written after a cursor, oldest first, each
// with its record's key, whether it was new or a revision, when it became known and the record itself.
//
// The order is the store's write order. Each revisioned table numbers its rows as they are written, and loads
// of one dataset never overlap (the import takes the dataset's write lock: ingest/import.ts), so in every
// table a row numbered below one a reader sees is already committed. A cursor is therefore the last row
// delivered of each table, signed; a page takes rows above it from each table and interleaves them by load
// time, so no revision is skipped or repeated, even while a load is writing, on any instance.
import { type Kysely, sql } from 'kysely';
import { Type } from 'typebox';
import { fixed } from '../accounts/pricing.js';
import { decodeCursor, encodeCursor, listingOf } from '../kernel/cursor.js';
import type { Deps } from '../kernel/deps.js';
import { AppError } from '../kernel/errors.js';
import { Nullable } from '../kernel/schema.js';
import type { KnownFrom } from '../store/revisions.js';
import type { Source } from './descriptor.js';
import { storedMeta } from './envelope.js';
import { type DatasetOperation, define } from './operation.js';

/** A revisioned table of a dataset, as the feed reads it. */
export interface ChangeTable {
  table: string;
  /** The column numbering its rows in write order. */
  rowId: 'id' | 'row_id';
  /** The columns naming a record. */
  key: readonly string[];
  /** The column saying when a revision became known (default known_at). */
  knownAt?: string;
  /** Where every revision's known time comes from, for a table without a known_from column (kpis: filings). */
  knownFrom?: KnownFrom;
  /** Columns holding JSON text, served parsed. */
  json?: readonly string[];
  /** The record as the routes serve it (default: its columns, camelCased, without the revision's own). */
  record?: (row: Record<string, unknown>) => unknown;
}

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

/** Columns of a revisioned row that describe the revision, not the record. */
const REVISION_COLUMNS = new Set([
  'id',
  'row_id',
  'content_hash',
  'revision',
  'is_current',
  'source',
  'loaded_at',
  'known_at',
  'known_from',
  'superseded_at',
]);

const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** A row's record columns, camelCased; those named in `json` parsed. */
export function plainRecord(
  row: Record<string, unknown>,
  json: readonly string[] = [],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(row)) {
    if (REVISION_COLUMNS.has(name)) continue;
    out[camel(name)] = json.includes(name) && typeof value === 'string' ? JSON.parse(value) : value;
  }
  return out;
}

const Change = Type.Object(
  {
    table: Type.String({
      description: 'The table the revision was written to (a dataset may have several).',
    }),
    key: Type.Record(Type.String(), Type.Unknown(), { description: 'The columns naming the record.' }),
    change: Type.Enum(['inserted', 'revised'], {
      description:
        'inserted: the first revision of the record; revised: a later one (or an older one backfilled).',
    }),
    revision: Type.Integer({ minimum: 1 }),
    knownAt: Nullable(Type.String({ description: 'When the revision became known (its publication).' })),
    knownFrom: Nullable(
      Type.String({
        description:
          'Where knownAt came from: published (given with its file), calendar (the agency’s release calendar), ' +
          'filing (an EDGAR acceptance), record (a date the record states) or load; null where not recorded.',
      }),
    ),
    loadedAt: Type.String({ description: 'When the revision was written.' }),
    record: Type.Unknown({ description: 'The record as this revision states it.' }),
  },
  { title: 'Change' },
);

export const ChangesData = Type.Object({
  changes: Type.Array(Change, { description: 'Revisions written after the cursor, oldest first.' }),
  nextCursor: Type.String({
    description: 'Pass as since for the next page; also on the last page, to poll for what is written later.',
  }),
});

/** The feed's operation for a dataset: GET /v1/datasets/{dataset}/changes. */
export function changesOperation(
  dataset: string,
  sources: readonly Source[],
  tables: readonly ChangeTable[],
): DatasetOperation {
  return define({
    id: `${dataset}.changes`,
    dataset,
    url: `/v1/datasets/${dataset}/changes`,
    list: 'changes',
    summary: `Revisions of ${dataset} written since a cursor`,
    description:
      'The change feed: every revision written after the cursor, oldest first, with its record key, change ' +
      '(inserted or revised), revision, knownAt and where it came from (knownFrom), and the record. nextCursor is always given: pass it as since ' +
      'to continue, or later to poll. Without since, from the first revision.',
    querystring: Type.Object(
      {
        since: Type.Optional(
          Type.String({ minLength: 1, maxLength: 2048, description: 'A nextCursor of this feed.' }),
        ),
        limit: Type.Optional(
          Type.Integer({
            minimum: 1,
            maximum: MAX_LIMIT,
            description: `Changes per page, 1-${MAX_LIMIT}; default ${DEFAULT_LIMIT}.`,
          }),
        ),
      },
      { additionalProperties: false },
    ),
    data: ChangesData,
    price: fixed('change', 1),
    read: (deps, { query }) => readChanges(deps, dataset, sources, tables, query),
  });
}

type Position = Record<string, number>;
/** The store seen as tables named at run time: each feed names its own. */
type Tables = Kysely<Record<string, Record<string, unknown>>>;

async function readChanges(
  deps: Deps,
  dataset: string,
  sources: readonly Source[],
  tables: readonly ChangeTable[],
  query: { since?: string; limit?: number },
) {
  const listing = listingOf({ changes: dataset });
  const limit = query.limit ?? DEFAULT_LIMIT;
  const after = query.since ? positionOf(deps, listing, query.since, tables) : {};
  const db = deps.store.db as unknown as Tables;
  // Each table's next rows in write order; a page takes from their heads, oldest load first.
  const heads = await Promise.all(
    tables.map(async (spec) =>
      (
        await db
          .selectFrom(spec.table)
          .selectAll()
          .where(sql.ref(spec.rowId), '>', after[spec.table] ?? 0)
          .orderBy(spec.rowId)
          .limit(limit)
          .execute()
      ).map((row) => ({ spec, row })),
    ),
  );
  const next: Position = { ...after };
  const changes = [];
  while (changes.length < limit) {
    let pick = -1;
    for (let t = 0; t < heads.length; t += 1) {
      const head = heads[t]![0];
      if (!head) continue;
      const best = pick < 0 ? null : heads[pick]![0]!;
      if (!best || String(head.row.loaded_at) < String(best.row.loaded_at)) pick = t;
    }
    const head = pick < 0 ? undefined : heads[pick]!.shift();
    if (!head) break;
    const { spec, row } = head;
    next[spec.table] = Number(row[spec.rowId]);
    changes.push(changeOf(spec, row));
  }
  return {
    data: { changes, nextCursor: encodeCursor(deps.cursorSecret, listing, next) },
    meta: storedMeta(dataset, [...sources], {
      readAsOf: deps.clock().toISOString(),
      ...newestChange(changes),
    }),
  };
}

/** The change known last: the page's asOf, and where that time came from. */
function newestChange(changes: readonly { knownAt: string | null; knownFrom: string | null }[]) {
  let found: { knownAt: string | null; knownFrom: string | null } | null = null;
  for (const c of changes)
    if (c.knownAt !== null && (found === null || c.knownAt > (found.knownAt ?? ''))) found = c;
  return { asOf: found?.knownAt ?? null, knownFrom: found?.knownFrom ?? null };
}

function changeOf(spec: ChangeTable, row: Record<string, unknown>) {
  const revision = Number(row.revision);
  const knownAt = row[spec.knownAt ?? 'known_at'];
  return {
    table: spec.table,
    key: Object.fromEntries(spec.key.map((column) => [camel(column), row[column]])),
    change: revision === 1 ? ('inserted' as const) : ('revised' as const),
    revision,
    knownAt: knownAt === null || knownAt === undefined ? null : String(knownAt),
    knownFrom: spec.knownFrom ?? (typeof row.known_from === 'string' ? row.known_from : null),
    loadedAt: String(row.loaded_at),
    record: spec.record ? spec.record(row) : plainRecord(row, spec.json),
  };
}

/** The cursor's last row of each table; a cursor of another feed, or altered, is refused. */
function positionOf(deps: Deps, listing: string, since: string, tables: readonly ChangeTable[]): Position {
  const position = decodeCursor(deps.cursorSecret, listing, since, 'since');
  const known = new Set(tables.map((t) => t.table));
  const out: Position = {};
  for (const [table, rowId] of Object.entries(position)) {
    if (!known.has(table) || typeof rowId !== 'number' || !Number.isSafeInteger(rowId) || rowId < 0)
      throw new AppError('invalid_params', 'parameter "since" is not a valid cursor (malformed)');
    out[table] = rowId;
  }
  return out;
}
