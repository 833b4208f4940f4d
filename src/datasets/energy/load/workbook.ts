// EIA workbooks: psw01.xls (WPSR Table 1 history: the stocks sheet "Data 1" with its Sourcekey row, and the
// release calendar on "Contents") and ngshistory.xls (weekly natural gas storage by region). A psw01 re-saved
// without its Sourcekey row (and without Contents) is read by its column labels, which name the same series.
import { readFileSync } from 'node:fs';
import { SourceError, type SourceFile } from '../../../ingest/source.js';
import { type Cell, excelDate, readWorkbook, type Sheet, WorkbookError } from '../../../ingest/xls.js';
import { addDays, weekday } from '../../../kernel/dates.js';
import { eastern } from '../../../kernel/eastern.js';
import type { EnergyRecordValue } from '../import.js';
import { usDate } from './eia.js';
import { knownSeries, STOCK_LABELS, STORAGE_SERIES } from './series.js';

type Out = AsyncGenerator<{ line: number; value: EnergyRecordValue }>;

function cellDate(cell: Cell | undefined): string | null {
  if (typeof cell === 'number') return excelDate(cell);
  if (typeof cell === 'string') return usDate(cell);
  return null;
}

/** "Weekly U.S. Ending Stocks of Crude Oil  (Thousand Barrels)" -> label and unit. */
export function splitName(name: string): { label: string; unit: string } {
  const m = /^(.*?)\s*\(([^()]+)\)\s*$/.exec(name.trim());
  const label = (m?.[1] ?? name)
    .replace(/^Weekly U\.S\.\s+/, '')
    .replace(/\s+/g, ' ')
    .trim();
  return { label, unit: (m?.[2] ?? 'units').toLowerCase() };
}

function find(sheet: Sheet | undefined, label: string): Cell[] | undefined {
  return sheet?.rows.find((row) => row?.some((c) => typeof c === 'string' && c.trim() === label));
}

/** WPSR releases at 10:30 a.m. Eastern on Wednesdays; another weekday marks a holiday shift. */
const WPSR_DAY = 3;

/** "Data 1: Petroleum Stocks", the title EIA writes on a data sheet's first row; null when there is none. */
function titleOf(sheet: Sheet): string | null {
  const title = sheet.rows[0]?.find((c) => typeof c === 'string' && /^Data \d+:/.test(c.trim()));
  return typeof title === 'string' ? title.trim() : null;
}

/**
 * The series id of each column of the stocks sheet: from its Sourcekey row, or, when a re-saved copy lost
 * that row, from the label row ("Date", then EIA's series names) by the names psw01 gives its stock series.
 */
function stockColumns(source: SourceFile, stocks: Sheet): { ids: string[]; names: Cell[]; labelRow: number } {
  const leading = (row: number) => String(stocks.rows[row]?.[0] ?? '').trim();
  const labelRow = [0, 1, 2, 3].find((row) => leading(row) === 'Date');
  if (labelRow === undefined)
    throw new SourceError(source.name, null, '"Data 1" has no row of series names beginning "Date"');
  const names = stocks.rows[labelRow] ?? [];
  const keyRow = labelRow > 0 && leading(labelRow - 1) === 'Sourcekey' ? stocks.rows[labelRow - 1] : null;
  if (keyRow) return { ids: keyRow.map((c) => String(c ?? '').trim()), names, labelRow };

  const ids = names.map((name) => STOCK_LABELS.get(splitName(String(name ?? '')).label.toLowerCase()) ?? '');
  const unknown = names.filter((name, col) => col > 0 && name !== undefined && !ids[col]);
  if (unknown.length) {
    const title = titleOf(stocks);
    throw new SourceError(
      source.name,
      labelRow + 1,
      `"Data 1"${title ? ` ("${title}")` : ''} has no Sourcekey row and columns that are not petroleum stock series: ${unknown
        .slice(0, 3)
        .map((name) => `"${String(name).replace(/\s+/g, ' ').trim()}"`)
        .join(', ')}${unknown.length > 3 ? ` and ${unknown.length - 3} more` : ''}`,
    );
  }
  return { ids, names, labelRow };
}

async function* psw01(source: SourceFile, sheets: Sheet[]): Out {
  const contents = sheets.find((s) => s.name === 'Contents');
  const stocks = sheets.find((s) => s.name === 'Data 1');
  if (!stocks) throw new SourceError(source.name, null, 'no "Data 1" sheet (petroleum stocks)');
  const title = titleOf(stocks);
  if (title && !/stocks/i.test(title))
    throw new SourceError(
      source.name,
      1,
      `"Data 1" is "${title}", not the weekly petroleum stocks table (psw01) this loader reads`,
    );
  const { ids, names, labelRow } = stockColumns(source, stocks);

  for (let col = 1; col < ids.length; col += 1) {
    const series = ids[col];
    if (!series) continue;
    const { label, unit } = splitName(String(names[col] ?? series));
    yield {
      line: labelRow,
      value: { type: 'series', series, report: 'wpsr', tab: 'stocks', label, unit, position: col },
    };
  }
  for (let row = labelRow + 1; row < stocks.rows.length; row += 1) {
    source.advance(row + 1, stocks.rows.length);
    const cells = stocks.rows[row];
    if (!cells || cells[0] === undefined) continue;
    const weekEnding = cellDate(cells[0]);
    if (!weekEnding)
      throw new SourceError(source.name, row + 1, `"Data 1" row ${row + 1} has no week-ending date`);
    for (let col = 1; col < ids.length; col += 1) {
      const value = cells[col];
      if (typeof value !== 'number') continue; // the series did not exist yet
      yield {
        line: row + 1,
        value: { type: 'observation', series: ids[col]!, weekEnding, value, report: 'wpsr' },
      };
    }
  }

  const latest = cellDate(find(contents, 'Data 1')?.[5]);
  const released = cellDate(find(contents, 'Release Date:')?.[2]);
  const next = cellDate(find(contents, 'Next Release Date:')?.[2]);
  if (latest) {
    yield {
      line: 0,
      value: {
        type: 'report',
        report: 'wpsr',
        weekEnding: latest,
        releasedAt: released ? eastern(released, 10, 30) : null,
        releaseHoliday: released ? weekday(released) !== WPSR_DAY : false,
        nextWeekEnding: addDays(latest, 7),
        nextReleaseAt: next ? eastern(next, 10, 30) : null,
        nextReleaseHoliday: next ? weekday(next) !== WPSR_DAY : false,
      },
    };
  }
}

/** Regions of the storage report; the Lower 48 total keeps EIA's own series id. */

const MONTHS = [
  'JANUARY',
  'FEBRUARY',
  'MARCH',
  'APRIL',
  'MAY',
  'JUNE',
  'JULY',
  'AUGUST',
  'SEPTEMBER',
  'OCTOBER',
  'NOVEMBER',
  'DECEMBER',
];

async function* ngsHistory(source: SourceFile, sheet: Sheet): Out {
  const headerRow = sheet.rows.findIndex((row) => row?.[0] === 'Week ending');
  if (headerRow < 0) throw new SourceError(source.name, null, 'no "Week ending" header row');
  const header = (sheet.rows[headerRow] ?? []).map((c) => String(c ?? '').trim());
  const columns = header
    .map((name, col) => [col, STORAGE_SERIES[name]] as const)
    .filter(([, id]) => id !== undefined);
  for (const [, series] of columns) {
    const described = knownSeries(series as string);
    if (described) yield { line: headerRow + 1, value: described };
  }
  let last: string | null = null;
  for (let row = headerRow + 1; row < sheet.rows.length; row += 1) {
    source.advance(row + 1, sheet.rows.length);
    const cells = sheet.rows[row];
    if (!cells || cells[0] === undefined) continue;
    const weekEnding = cellDate(cells[0]);
    if (!weekEnding) throw new SourceError(source.name, row + 1, 'no week-ending date');
    last = weekEnding;
    for (const [col, series] of columns) {
      const value = cells[col];
      if (typeof value === 'number')
        yield {
          line: row + 1,
          value: { type: 'observation', series: series as string, weekEnding, value, report: 'wngsr' },
        };
    }
  }
  // "LATEST ESTIMATES (Bcf) AS OF JUNE 3, 2021": the release of the last week, Thursdays 10:30 Eastern.
  const note = sheet.rows
    .flat()
    .find((c) => typeof c === 'string' && /AS OF [A-Z]+ \d{1,2}, \d{4}/.test(c)) as string | undefined;
  const m = note ? /AS OF ([A-Z]+) (\d{1,2}), (\d{4})/.exec(note) : null;
  if (last && m) {
    const released = `${m[3]}-${String(MONTHS.indexOf(m[1]!) + 1).padStart(2, '0')}-${(m[2]!).padStart(2, '0')}`;
    yield {
      line: 0,
      value: {
        type: 'report',
        report: 'wngsr',
        weekEnding: last,
        releasedAt: eastern(released, 10, 30),
        releaseHoliday: weekday(released) !== 4,
        nextWeekEnding: addDays(last, 7),
        nextReleaseAt: null,
        nextReleaseHoliday: false,
      },
    };
  }
}

export async function* workbookRecords(source: SourceFile): Out {
  let sheets: Sheet[];
  try {
    sheets = readWorkbook(readFileSync(source.path));
  } catch (error) {
    if (error instanceof WorkbookError) throw new SourceError(source.name, null, error.message);
    throw error;
  }
  yield* sheetRecords(source, sheets);
}

/** The records of a workbook's sheets, by which of EIA's workbooks they are. */
export async function* sheetRecords(source: SourceFile, sheets: Sheet[]): Out {
  if (sheets.some((s) => s.name === 'Data 1')) return yield* psw01(source, sheets);
  const storage = sheets.find((s) => s.name === 'html_report_history');
  if (storage) return yield* ngsHistory(source, storage);
  const named = sheets.map((s) => (titleOf(s) ? `${s.name} ("${titleOf(s)}")` : s.name));
  throw new SourceError(
    source.name,
    null,
    `a workbook with sheets ${named.join(', ')} is neither the petroleum stocks table (psw01) nor the gas storage history (ngshistory)`,
  );
}
