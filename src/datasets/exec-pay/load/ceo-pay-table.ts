// CEO-pay tables compiled from proxies (the AFL-CIO Executive Paywatch layout: ticker, company_name,
// median_worker_pay, pay_ratio like "721:1", ceo_name, salary — which is in fact the CEO's total pay): a
// secondary source. Each row is a proxy marked with that source; a proxy read from a filing for the same
// company and fiscal year is served instead of it. The table names no year: the operator gives it.
import type { FileKind, LoadContext } from '../../../ingest/run.js';
import { csvFields, SourceError, type SourceFile } from '../../../ingest/source.js';
import { shortName } from '../../events/load/submissions.js';
import type { ProxyRecordValue } from '../import.js';

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

export async function* ceoPayTableRecords(
  source: SourceFile,
  context: LoadContext<Map<string, string>>,
): Out {
  const year = context.options['fiscal-year'];
  if (!year || !/^(19|20)\d\d$/.test(year))
    throw new SourceError(
      source.name,
      null,
      'a CEO-pay table names no year: give the fiscal year it reports with --fiscal-year',
    );
  const fiscalYear = Number(year);
  const tickers = context.prepared;
  const cikOf = new Map([...tickers].map(([cik, ticker]) => [ticker, cik]));
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
    yield {
      line,
      value: {
        ticker,
        cik: cikOf.get(ticker) ?? null,
        companyName: name,
        companyShortName: shortName(name),
        id: `ceo-pay-table-${ticker}-FY${fiscalYear}`,
        sourceKind: 'ceo-pay-table',
        proxyYear: fiscalYear + 1,
        fiscalYear,
        fiscalYearLabel: `FY${fiscalYear}`,
        // The table gives no dates: the proxy season's first day stands for the filing date.
        filedAt: `${fiscalYear + 1}-01-01T00:00:00.000Z`,
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
}
