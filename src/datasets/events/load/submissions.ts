// EDGAR submissions JSON (data.sec.gov/submissions/CIK##########.json): the company, and one event per 8-K
// and 8-K/A row of its recent filings. Other forms fill `items` with other things and are left out.

import type { LoadContext } from '../../../ingest/run.js';
import { acceptedAt, shortName } from '../../../ingest/sec/filings.js';
import { SourceError, type SourceFile, wholeJson } from '../../../ingest/source.js';
import type { EventRecordValue } from '../import.js';

type Out = AsyncGenerator<{ line: number; value: EventRecordValue }>;

interface Recent {
  accessionNumber: string[];
  filingDate: string[];
  acceptanceDateTime: string[];
  form: string[];
  items: string[];
  primaryDocument: string[];
}

const ITEM = /^[0-9]\.[0-9]{2}$/;

/**
 * Before August 2004 an 8-K's items were numbered 1 to 12, with other titles: each is read as the item of
 * today's form that reports the same thing (1 changes in control → 5.01, 2 acquisition or disposition →
 * 2.01, 3 bankruptcy → 1.03, 4 change of accountant → 4.01, 5 other events → 8.01, 6 resignation of directors
 * → 5.02, 7 financial statements and exhibits → 9.01, 8 change in fiscal year → 5.03, 9 Regulation FD → 7.01,
 * 10 code of ethics → 5.05, 11 suspension of benefit-plan trading → 5.04, 12 results of operations → 2.02).
 */
export const LEGACY_ITEMS: Record<string, string> = {
  '1': '5.01',
  '2': '2.01',
  '3': '1.03',
  '4': '4.01',
  '5': '8.01',
  '6': '5.02',
  '7': '9.01',
  '8': '5.03',
  '9': '7.01',
  '10': '5.05',
  '11': '5.04',
  '12': '2.02',
};

/** Today's item code of a code in the submissions JSON, or null for one that names no item. */
export function currentItem(code: string): string | null {
  if (ITEM.test(code)) return code;
  return LEGACY_ITEMS[code.replace(/^0+/, '')] ?? null;
}
export async function* submissionEvents(source: SourceFile, context: LoadContext): Out {
  const body = (await wholeJson(source)) as {
    cik?: unknown;
    name?: unknown;
    tickers?: unknown;
    filings?: { recent?: Partial<Recent> };
  } | null;
  const recent = body?.filings?.recent;
  const columns = ['accessionNumber', 'filingDate', 'acceptanceDateTime', 'form', 'items', 'primaryDocument'];
  if (typeof body?.cik !== 'string' || typeof body.name !== 'string' || !recent) {
    throw new SourceError(
      source.name,
      null,
      'not an EDGAR submissions file (cik, name and filings.recent expected)',
    );
  }
  const missing = columns.filter((c) => !Array.isArray(recent[c as keyof Recent]));
  if (missing.length) throw new SourceError(source.name, null, `filings.recent lacks ${missing.join(', ')}`);
  const r = recent as Recent;
  const ticker = Array.isArray(body.tickers) && typeof body.tickers[0] === 'string' ? body.tickers[0] : null;
  if (!ticker)
    throw new SourceError(source.name, null, `${body.name} has no ticker: its events could not be served`);
  const cik = body.cik.padStart(10, '0');
  const company = {
    ticker: ticker.toUpperCase(),
    cik,
    companyName: body.name,
    companyShortName: shortName(body.name),
  };
  let withoutItems = 0;
  let legacy = 0;
  for (let i = 0; i < r.form.length; i += 1) {
    const form = r.form[i];
    if (form !== '8-K' && form !== '8-K/A') continue;
    const codes = (r.items[i] ?? '')
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
    const items = [...new Set(codes.map(currentItem).filter((x): x is string => x !== null))];
    if (codes.some((code) => LEGACY_ITEMS[code])) legacy += 1;
    if (items.length === 0) {
      withoutItems += 1;
      continue;
    }
    const accession = r.accessionNumber[i]!;
    yield {
      line: 1,
      value: {
        ...company,
        accessionNumber: accession,
        form,
        filedAt: acceptedAt(r.acceptanceDateTime[i]!),
        filingDate: r.filingDate[i]!,
        docUrl: `https://www.sec.gov/Archives/edgar/data/${Number(cik)}/${accession.replace(/-/g, '')}/${r.primaryDocument[i]}`,
        items,
        headline: null,
        summary: null,
        people: [],
      },
    };
  }
  if (legacy)
    context.notes.push(`${legacy} 8-K rows of before August 2004: their items mapped to today's codes`);
  if (withoutItems) context.notes.push(`${withoutItems} 8-K rows without item codes were left out`);
}
