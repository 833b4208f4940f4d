// Treasury's rate files: the yearly and all-years CSVs of par yields and of bill rates (newest day first,
// MM/DD/YYYY, a column per tenor named "1 Mo", "1.5 Month", "10 Yr" or "13 WEEKS COUPON EQUIVALENT"), and the
// old OData XML feed (BC_1MONTH … BC_30YEAR). A tenor blank on a day is absent, never zero.
import type { FileKind } from '../../../ingest/run.js';
import { CutShort, csvFields, headerWidth, SourceError, type SourceFile } from '../../../ingest/source.js';
import { readXml, type XmlNode } from '../../../ingest/xml.js';
import type { RateRecordValue } from '../import.js';
import { RATE_SERIES, type RateSeries } from '../params.js';

type Out = AsyncGenerator<{ line: number; value: RateRecordValue }>;

export const RATES_CSV: FileKind = {
  name: 'Treasury daily par yield curve or bill rates CSV (Date,"1 Mo",… or Date,"4 WEEKS BANK DISCOUNT",…)',
  recognises: (head) => /^\uFEFF?"?Date"?\s*,\s*"?(\d+(\.\d+)? (Mo|Month|Yr|WEEKS))/i.test(head),
};

export const RATES_XML: FileKind = {
  name: 'Treasury daily par yield curve OData XML feed (DailyTreasuryYieldCurveRateData)',
  recognises: (head) => head.includes('DailyTreasuryYieldCurveRateData'),
};

/** A CSV column's series and tenor: "2 Mo" is par 2M, "1.5 Month" par 1.5M, "13 WEEKS BANK DISCOUNT" a bill. */
export function columnOf(header: string): { series: RateSeries; tenor: string } | null {
  const name = header.trim().replace(/\s+/g, ' ');
  const par = /^(\d+(?:\.\d+)?) (Mo|Month|Months|Yr|Year|Years)$/i.exec(name);
  if (par) return { series: 'par', tenor: `${par[1]}${/^m/i.test(par[2]!) ? 'M' : 'Y'}` };
  const bill = /^(\d+) WEEKS (BANK DISCOUNT|COUPON EQUIVALENT)$/i.exec(name);
  if (bill)
    return {
      series: /^bank/i.test(bill[2]!) ? 'bill-discount' : 'bill-coupon',
      tenor: `${bill[1]}W`,
    };
  return null;
}

/** MM/DD/YYYY as YYYY-MM-DD. */
function isoDay(file: string, line: number, text: string): string {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text.trim());
  const date = m ? `${m[3]}-${m[1]}-${m[2]}` : '';
  if (
    !m ||
    Number.isNaN(Date.parse(`${date}T00:00:00Z`)) ||
    new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) !== date
  )
    throw new SourceError(file, line, `date "${text}" is not a MM/DD/YYYY date`);
  return date;
}

/** A rate as written ("4.24"); blank is no rate; anything else is refused by line. */
function rateOf(file: string, line: number, column: string, text: string): number | null {
  const t = text.trim();
  if (t === '' || t.toUpperCase() === 'N/A') return null;
  const n = Number(t);
  if (!/^-?\d+(\.\d+)?$/.test(t) || !Number.isFinite(n))
    throw new SourceError(file, line, `${column} "${text}" is not a rate`);
  return n;
}

export async function* rateCsvRecords(source: SourceFile): Out {
  let columns: ({ series: RateSeries; tenor: string; name: string } | null)[] | null = null;
  let cut: CutShort | null = null;
  let days = 0;
  for await (const row of source.lines()) {
    const { line, text } = row;
    if (text.trim() === '') continue;
    const fields = csvFields(text.replace(/^\uFEFF/, ''));
    if (!columns) {
      cut = new CutShort(source.name, headerWidth(fields));
      if (fields[0]?.trim().toLowerCase() !== 'date')
        throw new SourceError(source.name, line, 'the first column is not Date');
      columns = fields.map((f, i) => {
        if (i === 0) return null;
        const found = columnOf(f);
        if (!found)
          throw new SourceError(source.name, line, `column "${f}" is not a tenor Treasury publishes`);
        return { ...found, name: f.trim() };
      });
      continue;
    }
    cut?.check(row, fields);
    days += 1;
    const date = isoDay(source.name, line, fields[0] ?? '');
    for (let i = 1; i < columns.length; i += 1) {
      const column = columns[i]!;
      const value = rateOf(source.name, line, column.name, fields[i] ?? '');
      if (value !== null)
        yield { line, value: { type: 'rate', series: column.series, tenor: column.tenor, date, value } };
    }
  }
  if (!columns) throw new SourceError(source.name, null, 'the file is empty');
  if (days === 0) throw new SourceError(source.name, null, 'the file holds a header and no days');
}

/** BC_1MONTH → 1M, BC_1_5MONTH → 1.5M, BC_10YEAR → 10Y; BC_30YEARDISPLAY is a display copy, left out. */
function feedTenor(property: string): string | null {
  const m = /^BC_(\d+)(?:_(\d+))?(MONTH|YEAR)$/.exec(property);
  return m ? `${m[1]}${m[2] ? `.${m[2]}` : ''}${m[3] === 'MONTH' ? 'M' : 'Y'}` : null;
}

const text = (node: unknown): string => {
  if (node === null || node === undefined) return '';
  if (typeof node === 'object') return String((node as XmlNode)['#text'] ?? '');
  return String(node);
};

export async function* rateXmlRecords(source: SourceFile): Out {
  const feed = (await readXml(source, new Set(['entry']))).feed as XmlNode | undefined;
  const entries = (feed?.entry as XmlNode[] | undefined) ?? [];
  if (!feed) throw new SourceError(source.name, null, 'not an Atom feed');
  let index = 0;
  for (const entry of entries) {
    index += 1;
    const properties = ((entry.content as XmlNode | undefined)?.properties ?? {}) as XmlNode;
    const day = text(properties.NEW_DATE).slice(0, 10);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day))
      throw new SourceError(source.name, index, `entry ${index} has no NEW_DATE`);
    for (const [name, node] of Object.entries(properties)) {
      const tenor = feedTenor(name);
      if (!tenor) continue;
      const value = rateOf(source.name, index, name, text(node));
      if (value !== null)
        yield { line: index, value: { type: 'rate', series: RATE_SERIES[0], tenor, date: day, value } };
    }
  }
}
