// events read: a company's 8-K filings, newest first.

import { companyOrNotFound } from '../../ingest/sec/companies.js';
import { SEC_EDGAR } from '../../ingest/sec/source.js';
import type { Deps } from '../../kernel/deps.js';
import { type EnvelopeValue, storedMeta } from '../envelope.js';
import { asOfInstant, knownAt, newest, newestKnown, readInstant } from '../known.js';
import type { OperationInput } from '../operation.js';
import { describeItems, headlineFor } from './derive.js';

const DEFAULT_LIMIT = 50;

export async function listEvents(
  deps: Deps,
  { params, query }: OperationInput<{ limit?: number; asOf?: string }, { symbol: string }>,
): Promise<EnvelopeValue<unknown>> {
  const db = deps.store.db;
  const at = asOfInstant(deps, query.asOf);
  const known = knownAt(at);
  const company = await companyOrNotFound(db, params.symbol);
  const limit = query.limit ?? DEFAULT_LIMIT;
  const rows = await db
    .selectFrom('events')
    .selectAll()
    .where(known)
    .where('ticker', '=', company.ticker)
    .orderBy('filed_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  const span = await db
    .selectFrom('events')
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      eb.fn.min('filing_date').as('first'),
      eb.fn.max('filing_date').as('last'),
    ])
    .where(known)
    .where('ticker', '=', company.ticker)
    .executeTakeFirst();
  const events = rows.map((row) => {
    const items = JSON.parse(row.items) as string[];
    const described = describeItems(items);
    return {
      id: row.id,
      ticker: row.ticker,
      company: company.name,
      filedAt: row.filed_at,
      filingDate: row.filing_date,
      form: row.form,
      docUrl: row.doc_url,
      items,
      labels: described.labels,
      kinds: described.kinds,
      material: described.material,
      headline: row.headline ?? headlineFor(company.name, row.form, items),
      summary: row.summary,
      people: (JSON.parse(row.people) as Record<string, unknown>[]).map((p) => ({
        name: p.name,
        role: p.role,
        change: p.change,
        quote: p.quote ?? null,
        quoteOffset: p.quoteOffset ?? null,
      })),
      read: false,
    };
  });
  const newestFiling = newestKnown(rows);
  return {
    data: { company, events },
    meta: storedMeta('events', [SEC_EDGAR], {
      readAsOf: readInstant(deps, at),
      asOf: newestFiling?.knownAt ?? null,
      knownFrom: newestFiling?.knownFrom ?? null,
      newestPeriod: newest(rows.map((r) => r.filing_date)),
      historyStarts: (span?.first as string | null) ?? null,
      coverage: span?.first
        ? { events: Number(span.n), firstFiling: span.first, lastFiling: span.last }
        : null,
    }),
  };
}
