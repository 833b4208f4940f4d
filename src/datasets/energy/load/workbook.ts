// EIA workbooks: psw01.xls (WPSR Table 1 history: the stocks sheet "Data 1" with its Sourcekey row, and the
// release calendar on "Contents") and ngshistory.xls (weekly natural gas storage by region).
import { readFileSync } from 'node:fs';
import { SourceError, type SourceFile } from '../../../ingest/source.js';
import { type Cell, excelDate, readWorkbook, type Sheet, WorkbookError } from '../../../ingest/xls.js';
import { addDays, weekday } from '../../../kernel/dates.js';
import { eastern } from '../../../kernel/eastern.js';
import type { EnergyRecordValue } from '../import.js';
import { usDate } from './eia.js';
import { knownSeries, STORAGE_SERIES } from './series.js';

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

async function* psw01(source: SourceFile, sheets: Sheet[]): Out {
  const contents = sheets.find((s) => s.name === 'Contents');
  const stocks = sheets.find((s) => s.name === 'Data 1');
  if (!stocks) throw new SourceError(source.name, null, 'no "Data 1" sheet (petroleum stocks)');
  const ids = stocks.rows[1] ?? [];
  const names = stocks.rows[2] ?? [];
  if (ids[0] !== 'Sourcekey') throw new SourceError(source.name, null, '"Data 1" has no Sourcekey row');

  for (let col = 1; col < ids.length; col += 1) {
    const series = String(ids[col] ?? '').trim();
    if (!series) continue;
    const { label, unit } = splitName(String(names[col] ?? series));
    yield {
      line: 2,
      value: { type: 'series', series, report: 'wpsr', tab: 'stocks', label, unit, position: col },
    };
  }
  for (let row = 3; row < stocks.rows.length; row += 1) {
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
        value: { type: 'observation', series: String(ids[col]).trim(), weekEnding, value },
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
        yield { line: row + 1, value: { type: 'observation', series: series as string, weekEnding, value } };
    }
  }
  // "LATEST ESTIMATES (Bcf) AS OF JUNE 3, 2021": the release of the last week, Thursdays 10:30 Eastern.
  const note = sheet.rows
    .flat()
    .find((c) => typeof c === 'string' && /AS OF [A-Z]+ \d{1,2}, \d{4}/.test(c)) as string | undefined;
  const m = note ? /AS OF ([A-Z]+) (\d{1,2}), (\d{4})/.exec(note) : null;
  if (last && m) {
    const released = `${m[3]}-${String(MONTHS.indexOf(m[1] as string) + 1).padStart(2, '0')}-${(m[2] as string).padStart(2, '0')}`;
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
  if (sheets.some((s) => s.name === 'Data 1')) return yield* psw01(source, sheets);
  const storage = sheets.find((s) => s.name === 'html_report_history');
  if (storage) return yield* ngsHistory(source, storage);
  throw new SourceError(
    source.name,
    null,
    `a workbook with sheets ${sheets.map((s) => s.name).join(', ')} is not one this loader reads`,
  );
}
