// EDGAR's registrants (www.sec.gov/files/company_tickers.json): every listed ticker with its CIK and name.
// Filings that carry only a CIK (a proxy, an 8-K cover) find their ticker in what it loads
// (ingest/sec/registrants.ts); the file's order ranks a CIK's tickers, the first its main listing (BRK-B
// before BRK-A).
import { type Static, Type } from 'typebox';
import type { Importer } from '../import.js';
import type { FileKind, LoadContext } from '../run.js';
import { SourceError, type SourceFile, wholeJson } from '../source.js';
import { cik10 } from './registrants.js';

export const RegistrantRecord = Type.Object(
  {
    ticker: Type.String({ pattern: '^[A-Z0-9.-]{1,20}$' }),
    cik: Type.String({ pattern: '^[0-9]{10}$' }),
    name: Type.String({ minLength: 1, maxLength: 300 }),
    rank: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);

export type RegistrantRecordValue = Static<typeof RegistrantRecord>;

export const registrantsImporter: Importer<RegistrantRecordValue> = {
  dataset: 'registrants',
  record: RegistrantRecord,
  revision: (record) => ({
    table: 'registrants',
    rowId: 'row_id',
    key: { ticker: record.ticker },
    row: { ...record },
  }),
};

export const COMPANY_TICKERS: FileKind = {
  name: 'company_tickers.json (tickers and CIKs)',
  recognises: (head) => /^\s*\{\s*"0"\s*:\s*\{\s*"cik_str"\s*:/.test(head),
};

export async function* registrantRecords(
  source: SourceFile,
  _context: LoadContext,
): AsyncGenerator<{ line: number; value: RegistrantRecordValue }> {
  const body = await wholeJson(source);
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new SourceError(source.name, null, 'not company_tickers.json (an object of numbered entries)');
  let rank = 0;
  for (const [position, entry] of Object.entries(body as Record<string, unknown>)) {
    const e = entry as { cik_str?: unknown; ticker?: unknown; title?: unknown } | null;
    if (typeof e?.cik_str !== 'number' && typeof e?.cik_str !== 'string')
      throw new SourceError(source.name, null, `entry ${position} has no cik_str`);
    yield {
      line: 1,
      value: {
        ticker: String(e.ticker ?? '').toUpperCase(),
        cik: cik10(e.cik_str),
        name: String(e.title ?? ''),
        rank,
      },
    };
    rank += 1;
  }
}

/** CIK (ten digits) → main ticker, from the registrants held. */
