// The CFTC's Commitments of Traders files: the legacy futures-only report (deacot annual.txt, spaced column
// names) and the disaggregated futures-only report (f_year.txt, underscore names), plain or zipped as the
// CFTC ships them. Each row becomes a cot interchange record.
import { csvFields, SourceError, type SourceFile } from '../../../ingest/source.js';
import type { CotRecordValue } from '../import.js';

type Family = 'legacy' | 'disaggregated';

/** Column names of either naming style, reduced to one: lower case, runs of other characters as one _. */
export function columnKey(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9%]+/g, '_')
    .replace(/^_|_$/g, '');
}

const POSITIONS: Record<Family, Record<string, [string, string, string | null]>> = {
  legacy: {
    noncommercial: [
      'noncommercial_positions_long_all',
      'noncommercial_positions_short_all',
      'noncommercial_positions_spreading_all',
    ],
    commercial: ['commercial_positions_long_all', 'commercial_positions_short_all', null],
    nonreportable: ['nonreportable_positions_long_all', 'nonreportable_positions_short_all', null],
  },
  disaggregated: {
    producer: ['prod_merc_positions_long_all', 'prod_merc_positions_short_all', null],
    swap: ['swap_positions_long_all', 'swap_positions_short_all', 'swap_positions_spread_all'],
    'managed-money': [
      'm_money_positions_long_all',
      'm_money_positions_short_all',
      'm_money_positions_spread_all',
    ],
    'other-reportable': [
      'other_rept_positions_long_all',
      'other_rept_positions_short_all',
      'other_rept_positions_spread_all',
    ],
    nonreportable: ['nonrept_positions_long_all', 'nonrept_positions_short_all', null],
  },
};

const FIRST_OF = (columns: Map<string, number>, names: string[]) => names.find((n) => columns.has(n));

interface Layout {
  family: Family;
  columns: Map<string, number>;
  date: string;
  marketCode: string;
}

function layoutOf(file: string, header: string[]): Layout {
  const columns = new Map(header.map((name, i) => [columnKey(name), i]));
  const family: Family | null = columns.has('m_money_positions_long_all')
    ? 'disaggregated'
    : columns.has('noncommercial_positions_long_all')
      ? 'legacy'
      : null;
  if (!family)
    throw new SourceError(
      file,
      1,
      'not a CFTC legacy or disaggregated futures-only report (no position columns)',
    );
  const date = FIRST_OF(columns, ['as_of_date_in_form_yyyy_mm_dd', 'report_date_as_yyyy_mm_dd']);
  const marketCode = FIRST_OF(columns, ['cftc_market_code_in_initials', 'cftc_market_code']);
  const required = [
    'market_and_exchange_names',
    'cftc_contract_market_code',
    'cftc_commodity_code',
    'open_interest_all',
    ...Object.values(POSITIONS[family]).flatMap((cols) => cols.filter((c): c is string => c !== null)),
  ];
  const missing = required.filter((c) => !columns.has(c));
  if (!date) missing.push('report date');
  if (!marketCode) missing.push('market code');
  if (missing.length) throw new SourceError(file, 1, `missing columns: ${missing.join(', ')}`);
  return { family, columns, date: date as string, marketCode: marketCode as string };
}

function count(file: string, line: number, fields: string[], layout: Layout, column: string): number {
  const text = fields[layout.columns.get(column) as number]?.trim() ?? '';
  if (!/^-?[0-9]+$/.test(text))
    throw new SourceError(file, line, `${column} is "${text}", not a whole number`);
  return Number(text);
}

function text(fields: string[], layout: Layout, column: string): string {
  return fields[layout.columns.get(column) as number]?.trim() ?? '';
}

/** The cot records of a CFTC file, with their line numbers. */
export async function* cftcRecords(
  source: SourceFile,
): AsyncGenerator<{ line: number; value: CotRecordValue }> {
  let layout: Layout | null = null;
  for await (const { line, text: raw } of source.lines()) {
    if (raw.trim() === '') continue;
    const fields = csvFields(raw);
    if (!layout) {
      layout = layoutOf(source.name, fields);
      continue;
    }
    if (fields.length < layout.columns.size) {
      throw new SourceError(
        source.name,
        line,
        `${fields.length} fields where the header has ${layout.columns.size}`,
      );
    }
    const reportDate = text(fields, layout, layout.date);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(reportDate)) {
      throw new SourceError(source.name, line, `report date "${reportDate}" is not YYYY-MM-DD`);
    }
    const positions: CotRecordValue['positions'] = {};
    for (const [traderClass, [long, short, spread]] of Object.entries(POSITIONS[layout.family])) {
      positions[traderClass] = {
        long: count(source.name, line, fields, layout, long),
        short: count(source.name, line, fields, layout, short),
        spreading: spread ? count(source.name, line, fields, layout, spread) : null,
      };
    }
    yield {
      line,
      value: {
        report: layout.family,
        contractCode: text(fields, layout, 'cftc_contract_market_code').toUpperCase(),
        marketName: text(fields, layout, 'market_and_exchange_names'),
        exchangeCode: text(fields, layout, layout.marketCode),
        commodityCode: text(fields, layout, 'cftc_commodity_code'),
        reportDate,
        openInterest: count(source.name, line, fields, layout, 'open_interest_all'),
        positions,
      },
    };
  }
  if (!layout) throw new SourceError(source.name, null, 'the file is empty');
}
