// A bulk file's CSV lines, made by the store: each column's value as an SQL expression turned into its CSV
// field, the fields joined into a line, and a page's lines into one text. The rows never become JavaScript
// objects, so a page costs the store's own work and one string.
import type { Engine } from '../../store/engine.js';
import type { BulkColumn, BulkLayout } from './layout.js';

/**
 * The SQL of one CSV field (RFC 4180): a null is an empty field. Text is quoted (its quotes doubled, which
 * only a value holding one pays for), so an empty string is `""` and no value can break the line. Numbers,
 * dates, instants and money are written bare: none can hold a comma or a quote, and a malformed one stops the
 * files when DuckDB reads the CSV back with the layout's column count and types.
 */
function csvField(column: BulkColumn, engine: Engine): string {
  const value = column.sql(engine);
  switch (column.type) {
    case 'integer':
    case 'number':
      return `coalesce(CAST(${value} AS TEXT), '')`;
    case 'boolean':
      return `CASE WHEN ${value} IS NULL THEN '' WHEN ${value} = 1 THEN 'true' ELSE 'false' END`;
    case 'decimal':
      return `coalesce(${decimalText(value, engine)}, '')`;
    case 'date':
    case 'timestamp':
      return `coalesce(${value}, '')`;
    default: {
      const holdsQuote = engine === 'sqlite' ? `instr(${value}, '"') > 0` : `strpos(${value}, '"') > 0`;
      return `CASE WHEN ${value} IS NULL THEN '' WHEN ${holdsQuote} THEN '"' || replace(${value}, '"', '""') || '"' ELSE '"' || ${value} || '"' END`;
    }
  }
}

/**
 * Money as text, whether the store keeps it as text or as a double: a whole amount without a fraction (SQLite
 * writes a double 826549 as "826549.0"; PostgreSQL's text of a double is already the shortest one).
 */
function decimalText(value: string, engine: Engine): string {
  if (engine === 'postgres') return `CAST(${value} AS TEXT)`;
  return `CASE WHEN typeof(${value}) <> 'real' THEN ${value} WHEN ${value} = CAST(${value} AS INTEGER) THEN CAST(CAST(${value} AS INTEGER) AS TEXT) ELSE CAST(${value} AS TEXT) END`;
}

export function csvHeader(layout: BulkLayout): string {
  return `${layout.columns.map((c) => c.name).join(',')}\n`;
}

/** The SQL of a row's CSV line, its newline included. */
export function csvLine(layout: BulkLayout, engine: Engine): string {
  return `${layout.columns.map((c) => csvField(c, engine)).join(" || ',' || ")} || ${engine === 'sqlite' ? 'char(10)' : 'chr(10)'}`;
}

/** The SQL joining a page's lines (column `line`) in the order of column `n`. */
export function joinedLines(engine: Engine): string {
  return engine === 'sqlite' ? `group_concat(line, '' ORDER BY n)` : `string_agg(line, '' ORDER BY n)`;
}
