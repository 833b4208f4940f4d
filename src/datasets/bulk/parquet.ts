// Parquet from a version's CSV file, written by DuckDB (docs/adr/026-bulk-files.md): its CSV reader types each
// column as the layout says and its Parquet writer streams row groups to disk, in its own threads, so neither
// the file's size nor the event loop bounds it.
import { DuckDBInstance } from '@duckdb/node-api';
import { type BulkLayout, type ColumnType, DECIMAL_PRECISION, DECIMAL_SCALE } from './layout.js';

const DUCKDB_TYPE: Record<ColumnType, string> = {
  string: 'VARCHAR',
  integer: 'BIGINT',
  number: 'DOUBLE',
  decimal: `DECIMAL(${DECIMAL_PRECISION},${DECIMAL_SCALE})`,
  boolean: 'BOOLEAN',
  date: 'DATE',
  timestamp: 'TIMESTAMPTZ',
  json: 'VARCHAR',
};

const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** Writes `parquetPath` from the CSV at `csvPath` (the layout's header, nulls as empty fields). */
export async function writeParquet(
  layout: BulkLayout,
  csvPath: string,
  parquetPath: string,
  metadata: Record<string, string>,
): Promise<void> {
  const instance = await DuckDBInstance.create(':memory:', {
    threads: '2',
    memory_limit: '384MB',
    preserve_insertion_order: 'true',
  });
  const connection = await instance.connect();
  try {
    const columns = layout.columns.map((c) => `${quoted(c.name)}: ${quoted(DUCKDB_TYPE[c.type])}`).join(', ');
    const kv = Object.entries(metadata)
      .map(([k, v]) => `${quoted(k)}: ${quoted(v)}`)
      .join(', ');
    await connection.run(`SET TimeZone = 'UTC'`);
    await connection.run(
      `COPY (SELECT * FROM read_csv(${quoted(csvPath)}, header = true, auto_detect = false, delim = ',', ` +
        `quote = '"', escape = '"', allow_quoted_nulls = false, columns = {${columns}})) ` +
        `TO ${quoted(parquetPath)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 100000, KV_METADATA {${kv}})`,
    );
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
