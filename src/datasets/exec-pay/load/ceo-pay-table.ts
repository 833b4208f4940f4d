// CEO-pay tables compiled from proxies (the AFL-CIO Executive Paywatch layout: ticker, company_name,
// median_worker_pay, pay_ratio like "721:1", ceo_name, salary — which is in fact the CEO's total pay): a
// secondary source. Each row is a proxy marked with that source; a proxy read from a filing for the same
// company and fiscal year is served instead of it. The table names no year: the operator gives it. Nor does it
// date its rows: a row is filed when the company's proxy of the next year was accepted, where EDGAR's list of
// the company's proxies is held (its submissions JSON, loaded first); else its filing time is not known.
import type { Kysely } from 'kysely';
import type { FileKind, LoadContext } from '../../../ingest/run.js';
import { shortName } from '../../../ingest/sec/filings.js';
import { tickersByCik } from '../../../ingest/sec/registrants.js';
import { csvFields, SourceError, type SourceFile } from '../../../ingest/source.js';
import type { Database } from '../../../store/schema.js';
import type { ProxyRecordValue } from '../import.js';
import { proxyTimesByCik } from './proxy-filings.js';

/** What a table's rows are matched with: each CIK's main ticker, and its proxies' acceptance times. */
export interface HeldFilings {
  tickers: Map<string, string>;
  proxies: Map<string, string[]>;
}

export async function heldFilings(db: Kysely<Database>): Promise<HeldFilings> {
  return { tickers: await tickersByCik(db), proxies: await proxyTimesByCik(db) };
}

/**
 * When a fiscal year's pay was filed: the company's first proxy accepted in the calendar year after it (a
 * proxy reports the fiscal year before its meeting); null where none is held.
 */
function proxyFiled(accepted: readonly string[] | undefined, fiscalYear: number): string | null {
  return accepted?.find((at) => at.startsWith(String(fiscalYear + 1))) ?? null;
}

const COLUMNS = ['ticker', 'company_name', 'median_worker_pay', 'pay_ratio', 'ceo_name', 'salary'] as const;

export const CEO_PAY_TABLE: FileKind = {
  name: 'CEO-pay table CSV (ticker, company_name, median_worker_pay, pay_ratio, ceo_name, salary)',
  recognises: (head) => {
    const header = csvFields((head.split(/\r?\n/)[0] ?? '').replace(/^\uFEFF/, ''));
    return COLUMNS.every((c) => header.includes(c));
  },
};

/** "$98,734,394" → 98734394; "1,447:1" → 1447 (the number before the colon). */
function amount(text: string): number | null {
  const digits = text.split(':')[0]?.replace(/[$,\s]/g, '') ?? '';
  return /^\d+(\.\d+)?$/.test(digits) ? Number(digits) : null;
}

type Out = AsyncGenerator<{ line: number; value: ProxyRecordValue }>;

export async function* ceoPayTableRecords(source: SourceFile, context: LoadContext<HeldFilings>): Out {
  const year = context.options['fiscal-year'];
  if (!year || !/^(19|20)\d\d$/.test(year))
    throw new SourceError(
      source.name,
      null,
      'a CEO-pay table names no year: give the fiscal year it reports with --fiscal-year',
    );
  const fiscalYear = Number(year);
  const { tickers, proxies } = context.prepared;
  const cikOf = new Map([...tickers].map(([cik, ticker]) => [ticker, cik]));
  let undated = 0;
  type Column = (typeof COLUMNS)[number];
  let index: Record<Column, number> | null = null;
  for await (const { line, text } of source.lines()) {
    if (text.trim() === '') continue;
    const fields = csvFields(text.replace(/^\uFEFF/, ''));
    if (!index) {
      index = Object.fromEntries(COLUMNS.map((c) => [c, fields.indexOf(c)])) as Record<Column, number>;
      continue;
    }
    const field = (c: Column) => (fields[index?.[c] ?? -1] ?? '').trim();
    const ticker = field('ticker').toUpperCase();
    const ceoTotal = amount(field('salary'));
    if (!ticker) throw new SourceError(source.name, line, 'no ticker');
    if (ceoTotal === null)
      throw new SourceError(source.name, line, `salary "${field('salary')}" is not an amount`);
    const name = field('company_name') || ticker;
    const cik = cikOf.get(ticker) ?? null;
    const filedAt = cik ? proxyFiled(proxies.get(cik), fiscalYear) : null;
    if (!filedAt) undated += 1;
    yield {
      line,
      value: {
        ticker,
        cik,
        companyName: name,
        companyShortName: shortName(name),
        id: `ceo-pay-table-${ticker}-FY${fiscalYear}`,
        sourceKind: 'ceo-pay-table',
        proxyYear: fiscalYear + 1,
        fiscalYear,
        fiscalYearLabel: `FY${fiscalYear}`,
        filedAt,
        meetingDate: null,
        ceoName: field('ceo_name') || 'unnamed',
        ceoTitle: 'Chief Executive Officer',
        ceoTotal,
        ceoPriorYearTotal: null,
        payRatio: amount(field('pay_ratio')),
        medianEmployeePay: amount(field('median_worker_pay')),
      },
    };
  }
  if (undated)
    context.notes.push(
      `${undated} rows without their company's ${fiscalYear + 1} proxy held: filedAt null, known from this load`,
    );
}
