// The flat layout of a dataset's bulk files: one row per record, one typed column per member the routes
// serve (camelCase, as in the JSON), then the record's revision and when it became known. Each dataset
// declares its own in its folder (bulk.ts); the CSV, NDJSON and Parquet files of a version all follow it.
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
  /** The stored columns the value is read from. */
  reads: readonly string[];
  /** The column's value of a stored row (null where the record has none); a json column's as JSON text. */
  value: (row: Row) => unknown;
}

export type Row = Record<string, unknown>;

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

/** A stored value as its column's type holds it (an engine may give a number as text, or a flag as 0/1). */
const CONVERT: Record<ColumnType, (value: unknown) => unknown> = {
  string: String,
  integer: Number,
  number: Number,
  decimal: String,
  boolean: (value) => value === true || value === 1 || value === '1' || value === 't',
  date: String,
  timestamp: (value) => (value instanceof Date ? value.toISOString() : String(value)),
  // Kept as the JSON text the store holds: the files write it as it is (NDJSON nests it).
  json: (value) => (typeof value === 'string' ? value : JSON.stringify(value)),
};

/** A column read from a stored column of the same name, snake_case. */
export function column(
  name: string,
  type: ColumnType,
  description: string,
  options: { nullable?: boolean; from?: string } = {},
): BulkColumn {
  const stored = options.from ?? name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  const convert = CONVERT[type];
  const read = (row: Row) => {
    const value = row[stored];
    return value === null || value === undefined ? null : convert(value);
  };
  return { name, type, description, nullable: options.nullable ?? false, reads: [stored], value: read };
}

/** A column computed from the row. */
export function derived(
  name: string,
  type: ColumnType,
  description: string,
  reads: readonly string[],
  value: (row: Row) => unknown,
  nullable = true,
): BulkColumn {
  return { name, type, description, nullable, reads, value };
}

/** The columns every layout ends with: which revision of the record a row is, and since when it is known. */
export function revisionColumns(knownAt = 'known_at'): BulkColumn[] {
  return [
    column('revision', 'integer', 'The revision of the record (1 for its first).'),
    column('knownAt', 'timestamp', 'When this revision became known: its publication, else its load.', {
      from: knownAt,
    }),
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
