// The NDJSON and Parquet files of a version, written by DuckDB from its CSV (docs/adr/026-bulk-files.md): its
// CSV reader types each column as the layout says, each value is checked once (a column that may not be empty,
// money that must fit DECIMAL(18,4)), and its writers stream to disk in their own threads within a memory
// limit, in a child process: the server's memory and event loop are not theirs, whatever the file's size.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import {
  type BulkColumn,
  type BulkLayout,
  type ColumnType,
  DECIMAL_PRECISION,
  DECIMAL_SCALE,
} from './layout.js';

/** Two threads and a memory limit: at 128 MB DuckDB writes Parquet at half the speed (docs/adr/026). */
const SETTINGS = { threads: '2', memory_limit: '384MB', preserve_insertion_order: 'true' };

const DECIMAL = `DECIMAL(${DECIMAL_PRECISION},${DECIMAL_SCALE})`;

/** How the CSV is read: exact text for what a file must write as the store holds it. */
const READ_AS: Record<ColumnType, string> = {
  string: 'VARCHAR',
  integer: 'BIGINT',
  number: 'DOUBLE',
  decimal: 'VARCHAR',
  boolean: 'BOOLEAN',
  date: 'VARCHAR',
  timestamp: 'VARCHAR',
  json: 'JSON',
};

/** Parquet's type of each column where it is not the one the CSV is read as. */
const PARQUET_AS: Partial<Record<ColumnType, string>> = {
  decimal: DECIMAL,
  date: 'DATE',
  timestamp: 'TIMESTAMPTZ',
  json: 'VARCHAR',
};

/** Exact money that fits DECIMAL(18,4): a wrong number is worse than a file not made. */
const FITTING_DECIMAL = `-?[0-9]{1,${DECIMAL_PRECISION - DECIMAL_SCALE}}([.][0-9]{1,${DECIMAL_SCALE}})?`;

const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;
const ident = (name: string) => `"${name}"`;

/** A column's value, refused (the file is not made) where it is empty but may not be, or money that does not fit. */
function checked(layout: BulkLayout, column: BulkColumn): string {
  const name = ident(column.name);
  const refusal = (why: string) => `error(${quoted(`bulk ${layout.table}: ${column.name} `)} || ${why})`;
  const tests: string[] = [];
  if (!column.nullable)
    tests.push(`WHEN ${name} IS NULL THEN ${refusal(quoted('is empty in a stored row'))}`);
  if (column.type === 'decimal')
    tests.push(
      `WHEN NOT regexp_full_match(${name}, ${quoted(FITTING_DECIMAL)}) THEN ${refusal(`${name} || ' does not fit ${DECIMAL}'`)}`,
    );
  return tests.length === 0 ? name : `CASE ${tests.join(' ')} ELSE ${name} END AS ${name}`;
}

// The child's code, plain CommonJS: it runs the statements it is sent in order, reporting the seconds of each,
// and exits; a failure is reported and ends it, and so does the parent going away.
const SCRIPT = `
const { DuckDBInstance } = require(process.argv[1]);
process.on('disconnect', () => process.exit(1));
// Resolves once the message is handed to the channel: an exit right after a send could lose it.
const send = (message) => new Promise((resolve) => process.send(message, resolve));
process.once('message', async ({ settings, statements }) => {
  try {
    const instance = await DuckDBInstance.create(':memory:', settings);
    const connection = await instance.connect();
    for (const statement of statements) {
      const started = performance.now();
      await connection.run(statement);
      await send({ seconds: (performance.now() - started) / 1000 });
    }
    connection.closeSync();
    instance.closeSync();
    process.exit(0);
  } catch (error) {
    await send({ error: String(error && error.message) });
    process.exit(1);
  }
});
`;

/** Runs `statements` in a DuckDB of a child process; the seconds each took. */
function runInChild(statements: readonly string[]): Promise<number[]> {
  const driver = createRequire(import.meta.url).resolve('@duckdb/node-api');
  const child = spawn(process.execPath, ['-e', SCRIPT, driver], {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  return new Promise((resolve, reject) => {
    const seconds: number[] = [];
    let failure: string | null = null;
    child.on('message', (message: { seconds?: number; error?: string }) => {
      if (message.error !== undefined) failure = message.error;
      else seconds.push(message.seconds ?? 0);
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0 && seconds.length === statements.length) resolve(seconds);
      else
        reject(
          new Error(failure ?? `DuckDB's process ended (${signal ?? `exit ${code}`}): ${stderr.trim()}`),
        );
    });
    child.send({ settings: SETTINGS, statements });
  });
}

/**
 * Writes the Parquet and then the NDJSON file of the CSV at `csvPath` (the layout's header, nulls as empty
 * fields) in a DuckDB of a process of its own, so neither its memory nor its work is the server's; the seconds
 * each file took.
 */
export async function writeFromCsv(
  layout: BulkLayout,
  csvPath: string,
  out: { ndjson: string; parquet: string },
  metadata: Record<string, string>,
): Promise<{ ndjson: number; parquet: number }> {
  const types = layout.columns.map((c) => `${quoted(c.name)}: ${quoted(READ_AS[c.type])}`).join(', ');
  const parquetColumns = layout.columns.map((c) => {
    const type = PARQUET_AS[c.type];
    return type ? `CAST(${ident(c.name)} AS ${type}) AS ${ident(c.name)}` : ident(c.name);
  });
  const kv = Object.entries(metadata)
    .map(([k, v]) => `${quoted(k)}: ${quoted(v)}`)
    .join(', ');
  const [, , parquet, ndjson] = await runInChild([
    `SET TimeZone = 'UTC'`,
    `CREATE VIEW stored AS SELECT ${layout.columns.map((c) => checked(layout, c)).join(', ')} ` +
      `FROM read_csv(${quoted(csvPath)}, header = true, auto_detect = false, delim = ',', quote = '"', ` +
      `escape = '"', allow_quoted_nulls = false, columns = {${types}})`,
    `COPY (SELECT ${parquetColumns.join(', ')} FROM stored) TO ${quoted(out.parquet)} ` +
      `(FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 100000, KV_METADATA {${kv}})`,
    `COPY (SELECT * FROM stored) TO ${quoted(out.ndjson)} (FORMAT json)`,
  ]);
  return { parquet: parquet ?? 0, ndjson: ndjson ?? 0 };
}
