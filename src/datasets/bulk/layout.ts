// The flat layout of a dataset's bulk files: one row per record, one typed column per member the routes
// serve (camelCase, as in the JSON), then the record's revision and when it became known. Each dataset
// declares its own in its folder (bulk.ts); the CSV, NDJSON and Parquet files of a version all follow it.
import type { Engine } from '../../store/engine.js';
import type { KnownFrom } from '../../store/revisions.js';
import { knownAt } from '../known.js';

/**
 * A column's type, the same in every format: `decimal` is money, exact (a decimal string in CSV and NDJSON,
 * DECIMAL(18,4) in Parquet); `json` is a nested value (JSON text in CSV and Parquet, the value in NDJSON);
 * `date` is YYYY-MM-DD and `timestamp` an ISO instant (Parquet DATE and TIMESTAMP in UTC).
 */
export type ColumnType =
  | 'string'
  | 'integer'
  | 'number'
  | 'decimal'
  | 'boolean'
  | 'date'
  | 'timestamp'
  | 'json';

export interface BulkColumn {
  name: string;
  type: ColumnType;
  nullable: boolean;
  description: string;
  /**
   * The column's value as an SQL expression over a stored row (null where the record has none): text for
   * string, decimal, date, timestamp (an ISO instant) and json (JSON text), a number for integer and number,
   * 0 or 1 for boolean.
   */
  sql: (engine: Engine) => string;
}

export interface BulkLayout {
  /** The revisioned table whose records the files hold. */
  table: string;
  /** The column numbering its rows in write order (the files keep that order). */
  rowId: 'id' | 'row_id';
  /** The columns (of the layout) naming a record. */
  key: readonly string[];
  columns: readonly BulkColumn[];
  /** The rows as known at an instant (default: known_at <= T < superseded_at), the current ones when null. */
  known?: (at: string | null) => ReturnType<typeof knownAt>;
}

/** Exact money: at most 14 digits before the point and 4 after (Parquet DECIMAL(18,4)). */
export const DECIMAL_PRECISION = 18;
export const DECIMAL_SCALE = 4;

/** A column read from a stored column of the same name, snake_case. */
export function column(
  name: string,
  type: ColumnType,
  description: string,
  options: { nullable?: boolean; from?: string } = {},
): BulkColumn {
  const stored = `"${options.from ?? name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}"`;
  return { name, type, description, nullable: options.nullable ?? false, sql: () => stored };
}

/** A column computed from the row by an SQL expression of each engine. */
export function derived(
  name: string,
  type: ColumnType,
  description: string,
  sql: (engine: Engine) => string,
  nullable = true,
): BulkColumn {
  return { name, type, description, nullable, sql };
}

/** The SQL of a member of a stored JSON text column (null where it is absent or null), as text. */
export function jsonMember(stored: string, path: readonly string[]): (engine: Engine) => string {
  for (const step of path)
    if (!/^[a-z0-9-]+$/i.test(step)) throw new Error(`bulk layout: JSON member ${step} needs quoting`);
  return (engine) =>
    engine === 'sqlite'
      ? `json_extract("${stored}", '$.${path.map((step) => `"${step}"`).join('.')}')`
      : `("${stored}"::json #>> '{${path.join(',')}}')`;
}

/**
 * The columns every layout ends with: which revision of the record a row is, since when it is known, and
 * where that time came from (a stored column, or one source for every row: kpis' facts are their filings).
 */
export function revisionColumns(
  knownAt = 'known_at',
  knownFrom: { always: KnownFrom } | null = null,
): BulkColumn[] {
  const from =
    'published (given with its file), calendar (the agency’s release calendar), filing (an EDGAR acceptance), ' +
    'record (a date the record states) or load; null where it was not recorded.';
  return [
    column('revision', 'integer', 'The revision of the record (1 for its first).'),
    column('knownAt', 'timestamp', 'When this revision became known: its publication, else its load.', {
      from: knownAt,
    }),
    knownFrom
      ? derived(
          'knownFrom',
          'string',
          `Where knownAt came from: ${from}`,
          () => `'${knownFrom.always}'`,
          false,
        )
      : column('knownFrom', 'string', `Where knownAt came from: ${from}`, { nullable: true }),
  ];
}

export function layout(spec: BulkLayout): BulkLayout {
  const names = new Set(spec.columns.map((c) => c.name));
  if (names.size !== spec.columns.length)
    throw new Error(`bulk layout of ${spec.table}: a column named twice`);
  for (const key of spec.key)
    if (!names.has(key)) throw new Error(`bulk layout of ${spec.table}: key ${key} is not a column`);
  return spec;
}

/** The layout's rows as known at `at`, or the current ones. */
export function knownRows(spec: BulkLayout, at: string | null) {
  return spec.known ? spec.known(at) : knownAt(at);
}
