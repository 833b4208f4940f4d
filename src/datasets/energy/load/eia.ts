// EIA files: the Weekly Petroleum Status Report's table1.csv and EIA data-browser CSV downloads (and, through
// ./workbook.ts, the psw01 and ngshistory workbooks). Each becomes energy-inventories interchange records.
// WPSR stocks are kept in thousand barrels, as EIA's series are; table1.csv prints million barrels.
import { csvFields, SourceError, type SourceFile } from '../../../ingest/source.js';
import type { EnergyRecordValue } from '../import.js';
import { knownSeries, TABLE1_STOCKS } from './series.js';

type Out = AsyncGenerator<{ line: number; value: EnergyRecordValue }>;

/** M/D/YY or MM/DD/YYYY (EIA's two habits) to YYYY-MM-DD. */
export function usDate(text: string): string | null {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(text.trim());
  if (!m) return null;
  const year = m[3]!.length === 2 ? 2000 + Number(m[3]) : Number(m[3]);
  const date = `${year}-${(m[1]!).padStart(2, '0')}-${(m[2]!).padStart(2, '0')}`;
  return Number.isNaN(Date.parse(`${date}T00:00:00Z`)) ? null : date;
}

/** "1,559.930" million barrels -> 1559930 thousand barrels, exactly. */
export function millionsToThousands(text: string): number | null {
  const m = /^(-?)([\d,]+)(?:\.(\d{1,3}))?$/.exec(text.trim());
  if (!m) return null;
  const whole = Number(m[2]!.replaceAll(',', ''));
  const fraction = Number(((m[3] ?? '') as string).padEnd(3, '0'));
  return (m[1] ? -1 : 1) * (whole * 1000 + fraction);
}

async function* table1(
  source: SourceFile,
  header: string[],
  rest: AsyncGenerator<{ line: number; text: string }>,
): Out {
  const current = usDate(header[1] ?? '');
  const weekAgo = usDate(header[2] ?? '');
  const yearAgo = usDate(header[5] ?? '');
  if (!current || !weekAgo || !yearAgo)
    throw new SourceError(
      source.name,
      1,
      'expected the dates of the week, the week before and a year before',
    );
  const stubs = new Map(TABLE1_STOCKS.map(([stub, series]) => [stub, series]));
  for await (const { line, text } of rest) {
    const f = csvFields(text).map((x) => x.trim());
    if (f[0] === 'STUB_1') break; // the supply section, in thousand barrels a day, is not served
    const series = stubs.get(f[0] ?? '');
    const described = series ? knownSeries(series) : undefined;
    if (!series || !described) continue;
    yield { line, value: described };
    for (const [column, weekEnding] of [
      [1, current],
      [2, weekAgo],
      [5, yearAgo],
    ] as const) {
      const value = millionsToThousands(f[column] ?? '');
      if (value === null)
        throw new SourceError(source.name, line, `"${f[column]}" is not a number of million barrels`);
      // The week-ago and year-ago columns restate earlier weeks: known from this file, not their own release.
      const observation = { type: 'observation' as const, series, weekEnding, value };
      yield { line, value: column === 1 ? { ...observation, report: 'wpsr' as const } : observation };
    }
  }
}

async function* dataBrowser(
  source: SourceFile,
  first: string,
  rest: AsyncGenerator<{ line: number; text: string }>,
): Out {
  let seriesKey: string | null = null;
  let label = first.trim();
  let seenHeader = false;
  let report: 'wpsr' | 'wngsr' = 'wpsr';
  for await (const { line, text } of rest) {
    const f = csvFields(text).map((x) => x.trim());
    if (!seenHeader) {
      if (f[0] === 'Series Key') seriesKey = (f[1] ?? '').replace(/\.W$/, '');
      if (f[0]?.startsWith('Week of') || f[0] === 'Date') {
        if (!seriesKey) throw new SourceError(source.name, line, 'no "Series Key" line before the data');
        label = f[1] || label;
        seenHeader = true;
        // A series the weekly tables describe keeps their description; another is described as downloaded.
        const unit = /BCF$/i.test(label) ? 'Bcf' : /barrels/i.test(label) ? 'thousand barrels' : 'units';
        const own = {
          type: 'series' as const,
          series: seriesKey,
          report: unit === 'Bcf' ? ('wngsr' as const) : ('wpsr' as const),
          tab: 'storage',
          label,
          unit,
          position: 1,
        };
        const series = knownSeries(seriesKey) ?? own;
        report = series.report;
        yield { line, value: series };
      }
      continue;
    }
    if (!text.trim()) continue;
    const weekEnding = usDate(f[0] ?? '');
    const value = Number(f[1]);
    if (!weekEnding || f[1] === '' || !Number.isFinite(value)) {
      throw new SourceError(source.name, line, `expected "MM/DD/YYYY,value", got "${text.trim()}"`);
    }
    yield { line, value: { type: 'observation', series: seriesKey as string, weekEnding, value, report } };
  }
  if (!seenHeader) throw new SourceError(source.name, null, 'no data header ("Week of,…") found');
}

export async function* eiaTextRecords(source: SourceFile): Out {
  const lines = source.lines();
  const first = await lines.next();
  if (first.done) throw new SourceError(source.name, null, 'the file is empty');
  const text = first.value.text.replace(/^\uFEFF/, '');
  const header = csvFields(text).map((x) => x.trim());
  if (header[0] === 'STUB_1') return yield* table1(source, header, lines);
  if (!text.includes(',')) return yield* dataBrowser(source, text, lines);
  throw new SourceError(
    source.name,
    1,
    'not an EIA file this loader reads (WPSR table1.csv, data-browser CSV, psw01.xls, ngshistory.xls)',
  );
}
