// The CFTC's Commitments of Traders files: the legacy futures-only report (deacot annual.txt, spaced column
// names) and the disaggregated futures-only report (f_year.txt, underscore names), plain or zipped as the
// CFTC ships them. The same reports also come with underscore names throughout (the CFTC's Excel and CSV
// downloads, the older years' text files): the legacy classes abbreviated (NonComm_, Comm_, NonRept_, with
// the CFTC's own "Postions" in the spread column) and the date as Report_Date_as_MM_DD_YYYY, whose values are
// ISO dates in some years and month/day/year in others. Each row becomes a cot interchange record.
import { csvFields, SourceError, type SourceFile } from '../../../ingest/source.js';
import type { CotRecordValue } from '../import.js';
import { DISAGGREGATED_COLUMNS, LEGACY_COLUMNS } from './year-columns.js';

type Family = 'legacy' | 'disaggregated';

/** Column names of either naming style, reduced to one: lower case, runs of other characters as one _. */
export function columnKey(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9%]+/g, '_')
    .replace(/^_|_$/g, '');
}

/** Each class's long, short and spread columns; a column of several names is read by whichever the file has. */
type Names = string | string[];
/** The legacy report's non-commercial long column: the one that tells its files apart. */
const LEGACY_LONG: Names = ['noncommercial_positions_long_all', 'noncomm_positions_long_all'];
const POSITIONS: Record<Family, Record<string, [Names, Names, Names | null]>> = {
  legacy: {
    noncommercial: [
      LEGACY_LONG,
      ['noncommercial_positions_short_all', 'noncomm_positions_short_all'],
      [
        'noncommercial_positions_spreading_all',
        'noncomm_postions_spread_all',
        'noncomm_positions_spread_all',
      ],
    ],
    commercial: [
      ['commercial_positions_long_all', 'comm_positions_long_all'],
      ['commercial_positions_short_all', 'comm_positions_short_all'],
      null,
    ],
    nonreportable: [
      ['nonreportable_positions_long_all', 'nonrept_positions_long_all'],
      ['nonreportable_positions_short_all', 'nonrept_positions_short_all'],
      null,
    ],
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

const asList = (names: Names) => (typeof names === 'string' ? [names] : names);
const FIRST_OF = (columns: Map<string, number>, names: Names) => asList(names).find((n) => columns.has(n));

const REPORT_DATE = [
  'as_of_date_in_form_yyyy_mm_dd',
  'report_date_as_yyyy_mm_dd',
  'report_date_as_mm_dd_yyyy',
];

interface Layout {
  family: Family;
  columns: Map<string, number>;
  /** Each class's long, short and spread column as this file names it. */
  positions: [string, [string, string, string | null]][];
  date: string;
  marketCode: string;
}

function layoutOf(file: string, header: string[]): Layout {
  const columns = new Map(header.map((name, i) => [columnKey(name), i]));
  const family: Family | null = columns.has('m_money_positions_long_all')
    ? 'disaggregated'
    : FIRST_OF(columns, LEGACY_LONG)
      ? 'legacy'
      : null;
  if (!family)
    throw new SourceError(
      file,
      1,
      `not a CFTC legacy or disaggregated futures-only report (no position columns; the header begins ${header
        .slice(0, 4)
        .map((name) => `"${name.trim()}"`)
        .join(', ')})`,
    );
  const missing: string[] = [];
  const found = (names: Names): string => {
    const name = FIRST_OF(columns, names);
    if (!name) missing.push(asList(names)[0]!);
    return name ?? '';
  };
  for (const name of [
    'market_and_exchange_names',
    'cftc_contract_market_code',
    'cftc_commodity_code',
    'open_interest_all',
  ])
    found(name);
  const positions = Object.entries(POSITIONS[family]).map(
    ([traderClass, [long, short, spread]]): [string, [string, string, string | null]] => [
      traderClass,
      [found(long), found(short), spread ? found(spread) : null],
    ],
  );
  const date = FIRST_OF(columns, REPORT_DATE);
  const marketCode = FIRST_OF(columns, ['cftc_market_code_in_initials', 'cftc_market_code']);
  if (!date) {
    const dated = header.filter((name) => /date/i.test(name)).map((name) => `"${name.trim()}"`);
    missing.push(`report date (the header's date columns: ${dated.join(', ') || 'none'})`);
  }
  if (!marketCode) missing.push('market code');
  if (missing.length) throw new SourceError(file, 1, `missing columns: ${missing.join(', ')}`);
  return { family, columns, positions, date: date as string, marketCode: marketCode as string };
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

/**
 * A report date as the CFTC writes it: 2021-01-05 (with a time after it in some downloads) or 01/05/2021
 * (month first, unpadded or with a time in spreadsheet exports). Null for anything else.
 */
export function reportDate(text: string): string | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][0-9:.]+)?$/.exec(text);
  const us = iso ? null : /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?: [0-9:]+(?: ?[AP]M)?)?$/i.exec(text);
  const [year, month, day] = iso ? [iso[1], iso[2], iso[3]] : us ? [us[3], us[1], us[2]] : [];
  if (!year || !month || !day) return null;
  const date = `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  const parsed = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(date) ? date : null;
}

/**
 * The columns of a current-week file, which has no header: its first row is a report (a market name, the date
 * as YYMMDD and as YYYY-MM-DD), and its width says which year file's columns it carries. Null for a header row.
 */
function headerless(fields: string[]): readonly string[] | null {
  if (!/^\d{6}$/.test(fields[1]?.trim() ?? '') || !reportDate(fields[2]?.trim() ?? '')) return null;
  if (fields.length === LEGACY_COLUMNS.length) return LEGACY_COLUMNS;
  if (fields.length === DISAGGREGATED_COLUMNS.length) return DISAGGREGATED_COLUMNS;
  return null;
}

/**
 * The cot records of a CFTC file, with their line numbers: a year file (a header row first), or the current
 * week's file without a header, read by the year file's columns.
 */
export async function* cftcRecords(
  source: SourceFile,
): AsyncGenerator<{ line: number; value: CotRecordValue }> {
  let layout: Layout | null = null;
  for await (const { line, text: raw } of source.lines()) {
    if (raw.trim() === '') continue;
    const fields = csvFields(raw);
    if (!layout) {
      const columns = headerless(fields);
      layout = layoutOf(source.name, columns ? [...columns] : fields);
      if (!columns) continue;
    }
    if (fields.length < layout.columns.size) {
      throw new SourceError(
        source.name,
        line,
        `${fields.length} fields where the header has ${layout.columns.size}`,
      );
    }
    const dateText = text(fields, layout, layout.date);
    const date = reportDate(dateText);
    if (!date) {
      throw new SourceError(
        source.name,
        line,
        `report date "${dateText}" is neither YYYY-MM-DD nor MM/DD/YYYY`,
      );
    }
    const positions: CotRecordValue['positions'] = {};
    for (const [traderClass, [long, short, spread]] of layout.positions) {
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
        reportDate: date,
        openInterest: count(source.name, line, fields, layout, 'open_interest_all'),
        positions,
      },
    };
  }
  if (!layout) throw new SourceError(source.name, null, 'the file is empty');
}
