// EDGAR submissions JSON (data.sec.gov/submissions/CIK##########.json): the company, and one event per 8-K
// and 8-K/A row of its recent filings. Other forms fill `items` with other things and are left out.

import type { FileKind, LoadContext } from '../../../ingest/run.js';
import { SourceError, type SourceFile } from '../../../ingest/source.js';
import { eastern } from '../../../kernel/eastern.js';
import { wholeJson } from '../../registrants.js';
import type { EventRecordValue } from '../import.js';

export const SUBMISSIONS: FileKind = {
  name: 'submissions JSON (a company and its filings)',
  recognises: (head) => /^\s*\{\s*"cik"\s*:/.test(head) && head.includes('"filings"'),
};

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
const LEGAL_SUFFIX =
  /[,.]?\s+(inc|incorporated|corp|corporation|co|company|ltd|limited|plc|n\.?v|s\.?a|ag|se)\.?$/i;

/**
 * EDGAR writes the acceptance time as Eastern wall-clock time with a "Z": 2024-04-29T09:00:18.000Z is
 * 13:00:18Z (the filing's SEC header says 20240429090018).
 */
export function acceptedAt(text: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})/.exec(text);
  if (!m) throw new Error(`acceptance time "${text}" is not YYYY-MM-DDTHH:MM:SS`);
  return eastern(m[1] as string, Number(m[2]), Number(m[3]), Number(m[4]));
}

/** The name people use: Apple Inc. → Apple, NVIDIA CORP → NVIDIA. */
export function shortName(name: string): string {
  return name.replace(LEGAL_SUFFIX, '').trim() || name;
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
  for (let i = 0; i < r.form.length; i += 1) {
    const form = r.form[i];
    if (form !== '8-K' && form !== '8-K/A') continue;
    // Filings before August 2004 used single-digit items (1 to 12), whose titles differ: left out, counted.
    const items = (r.items[i] ?? '')
      .split(',')
      .map((x) => x.trim())
      .filter((x) => ITEM.test(x));
    if (items.length === 0) {
      withoutItems += 1;
      continue;
    }
    const accession = r.accessionNumber[i] as string;
    yield {
      line: 1,
      value: {
        ...company,
        accessionNumber: accession,
        form,
        filedAt: acceptedAt(r.acceptanceDateTime[i] as string),
        filingDate: r.filingDate[i] as string,
        docUrl: `https://www.sec.gov/Archives/edgar/data/${Number(cik)}/${accession.replace(/-/g, '')}/${r.primaryDocument[i]}`,
        items,
        headline: null,
        summary: null,
        people: [],
      },
    };
  }
  if (withoutItems) context.notes.push(`${withoutItems} 8-K rows without current item codes were left out`);
}
