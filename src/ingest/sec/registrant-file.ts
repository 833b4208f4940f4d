// EDGAR's registrants (www.sec.gov/files/company_tickers.json): every listed ticker with its CIK and name, a
// snapshot: a ticker held that a newer file no longer names ends at its load (--published), its earlier
// revision kept for reads as known before.
// Filings that carry only a CIK (a proxy, an 8-K cover) find their ticker in what it loads
// (ingest/sec/registrants.ts); the file's order ranks a CIK's tickers, the first its main listing (BRK-B
// before BRK-A).
import type { Kysely } from 'kysely';
import { type Static, Type } from 'typebox';
import type { Database } from '../../store/schema.js';
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
    /** False for a ticker held that this snapshot no longer names: it ends here. */
    listed: Type.Optional(Type.Boolean()),
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
    row: {
      ticker: record.ticker,
      cik: record.cik,
      name: record.name,
      rank: record.rank,
      listed: record.listed === false ? 0 : 1,
    },
  }),
};

/** The tickers listed as held now, with what the file said of each: those a newer snapshot may no longer name. */
export async function listedRegistrants(db: Kysely<Database>): Promise<RegistrantRecordValue[]> {
  const rows = await db
    .selectFrom('registrants')
    .select(['ticker', 'cik', 'name', 'rank'])
    .where('is_current', '=', 1)
    .where('listed', '=', 1)
    .execute();
  return rows.map((r) => ({ ticker: r.ticker, cik: r.cik, name: r.name, rank: Number(r.rank) }));
}

export const COMPANY_TICKERS: FileKind = {
  name: 'company_tickers.json (tickers and CIKs)',
  recognises: (head) => /^\s*\{\s*"0"\s*:\s*\{\s*"cik_str"\s*:/.test(head),
};

export async function* registrantRecords(
  source: SourceFile,
  context: LoadContext<RegistrantRecordValue[] | undefined>,
): AsyncGenerator<{ line: number; value: RegistrantRecordValue }> {
  const body = await wholeJson(source);
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new SourceError(source.name, null, 'not company_tickers.json (an object of numbered entries)');
  let rank = 0;
  const named = new Set<string>();
  for (const [position, entry] of Object.entries(body as Record<string, unknown>)) {
    const e = entry as { cik_str?: unknown; ticker?: unknown; title?: unknown } | null;
    if (typeof e?.cik_str !== 'number' && typeof e?.cik_str !== 'string')
      throw new SourceError(source.name, null, `entry ${position} has no cik_str`);
    const ticker = String(e.ticker ?? '')
      .trim()
      .toUpperCase();
    named.add(ticker);
    yield { line: 1, value: { ticker, cik: cik10(e.cik_str), name: String(e.title ?? ''), rank } };
    rank += 1;
  }
  // The file is every listed ticker at its date: one held that it no longer names ends here.
  for (const held of context.prepared ?? [])
    if (!named.has(held.ticker)) yield { line: 1, value: { ...held, listed: false } };
}

/** CIK (ten digits) → main ticker, from the registrants held. */
