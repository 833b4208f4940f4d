// The proxies (DEF 14A) a company's EDGAR submissions JSON lists, with their acceptance times: read beside the
// events the same file gives (run.ts `alongside`), so that a CEO-pay table's row is known from the moment its
// proxy was accepted, not from a date taken for it.
import type { Kysely } from 'kysely';
import { type Static, Type } from 'typebox';
import type { Importer } from '../../../ingest/import.js';
import type { LoadContext } from '../../../ingest/run.js';
import { acceptedAt } from '../../../ingest/sec/filings.js';
import { cik10 } from '../../../ingest/sec/registrants.js';
import { SourceError, type SourceFile, wholeJson } from '../../../ingest/source.js';
import type { Database } from '../../../store/schema.js';

export const ProxyFilingRecord = Type.Object(
  {
    accession: Type.String({ pattern: '^[0-9]{10}-[0-9]{2}-[0-9]{6}$' }),
    cik: Type.String({ pattern: '^[0-9]{10}$' }),
    form: Type.String({ minLength: 1, maxLength: 20 }),
    acceptedAt: Type.String({ format: 'date-time' }),
    filingDate: Type.String({ format: 'date' }),
  },
  { additionalProperties: false },
);

export type ProxyFilingRecordValue = Static<typeof ProxyFilingRecord>;

export const proxyFilingsImporter: Importer<ProxyFilingRecordValue> = {
  dataset: 'proxy-filings',
  record: ProxyFilingRecord,
  // A filing is known from its acceptance.
  publishedAt: (record) => record.acceptedAt,
  publishedFrom: 'filing',
  revision: (record) => ({
    table: 'proxy_filings',
    rowId: 'row_id',
    key: { accession: record.accession },
    row: {
      accession: record.accession,
      cik: record.cik,
      form: record.form,
      accepted_at: record.acceptedAt,
      filing_date: record.filingDate,
    },
  }),
};

/** The definitive proxy statements: an annual meeting's, with the pay tables. */
const PROXY_FORMS = new Set(['DEF 14A']);

export async function* proxyFilingRecords(
  source: SourceFile,
  _context: LoadContext,
): AsyncGenerator<{ line: number; value: ProxyFilingRecordValue }> {
  const body = (await wholeJson(source)) as {
    cik?: unknown;
    filings?: { recent?: Record<string, unknown> };
  } | null;
  const recent = body?.filings?.recent as
    | { accessionNumber?: string[]; filingDate?: string[]; acceptanceDateTime?: string[]; form?: string[] }
    | undefined;
  if (typeof body?.cik !== 'string' || !recent?.form || !recent.accessionNumber)
    throw new SourceError(
      source.name,
      null,
      'not an EDGAR submissions file (cik and filings.recent expected)',
    );
  const cik = cik10(body.cik);
  for (let i = 0; i < recent.form.length; i += 1) {
    const form = recent.form[i]!;
    if (!PROXY_FORMS.has(form)) continue;
    yield {
      line: 1,
      value: {
        accession: recent.accessionNumber[i]!,
        cik,
        form,
        acceptedAt: acceptedAt(recent.acceptanceDateTime?.[i] ?? ''),
        filingDate: recent.filingDate?.[i] ?? '',
      },
    };
  }
}

/** The acceptance times of the proxies held, by CIK, oldest first. */
export async function proxyTimesByCik(db: Kysely<Database>): Promise<Map<string, string[]>> {
  const rows = await db
    .selectFrom('proxy_filings')
    .select(['cik', 'accepted_at'])
    .where('is_current', '=', 1)
    .orderBy('accepted_at')
    .execute();
  const out = new Map<string, string[]>();
  for (const { cik, accepted_at } of rows) out.set(cik, [...(out.get(cik) ?? []), accepted_at]);
  return out;
}
