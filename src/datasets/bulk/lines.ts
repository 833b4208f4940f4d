// A bulk file's rows as text: the CSV line and the NDJSON line of a row, from the layout's typed values.
import { type BulkLayout, DECIMAL_PRECISION, DECIMAL_SCALE, type Row } from './layout.js';

/** Exact money that fits DECIMAL(18,4): a wrong number is worse than a file not made. */
const FITTING_DECIMAL = new RegExp(
  `^-?\\d{1,${DECIMAL_PRECISION - DECIMAL_SCALE}}(\\.\\d{1,${DECIMAL_SCALE}})?$`,
);

/** The layout's values of one stored row, in column order. */
export function valuesOf(layout: BulkLayout, row: Row): unknown[] {
  return layout.columns.map((column) => {
    const value = column.value(row);
    if (value === null || value === undefined) {
      if (!column.nullable)
        throw new Error(`bulk ${layout.table}: column ${column.name} is empty in a stored row`);
      return null;
    }
    if (column.type === 'decimal' && !FITTING_DECIMAL.test(String(value)))
      throw new Error(`bulk ${layout.table}: ${column.name} ${String(value)} does not fit DECIMAL(18,4)`);
    return value;
  });
}

const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/** One CSV field (RFC 4180): null is an empty field, an empty string is "". */
function csvField(value: unknown): string {
  if (value === null) return '';
  const text = String(value);
  return text === '' || NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvHeader(layout: BulkLayout): string {
  return `${layout.columns.map((c) => c.name).join(',')}\n`;
}

export function csvLine(values: readonly unknown[]): string {
  const fields = new Array<string>(values.length);
  for (let i = 0; i < values.length; i += 1) fields[i] = csvField(values[i]);
  return `${fields.join(',')}\n`;
}

/** The NDJSON members' names as each line starts them: `{"name":` then `,"name":`. */
const memberPrefixes = new WeakMap<BulkLayout, string[]>();

/** One NDJSON line: the row as an object, members in column order, a json column's text nested as it is. */
export function ndjsonLine(layout: BulkLayout, values: readonly unknown[]): string {
  let prefixes = memberPrefixes.get(layout);
  if (!prefixes) {
    prefixes = layout.columns.map((c, i) => `${i === 0 ? '{' : ','}${JSON.stringify(c.name)}:`);
    memberPrefixes.set(layout, prefixes);
  }
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i];
    const json =
      value === null ? 'null' : layout.columns[i]!.type === 'json' ? String(value) : JSON.stringify(value);
    parts[i] = prefixes[i] + json;
  }
  return `${parts.join('')}}\n`;
}
