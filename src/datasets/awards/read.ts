// awards reads: the filtered listing with keyset pages and summaries, and one award with its revisions.
import type { Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import { decodeCursor, encodeCursor, listingOf } from '../../kernel/cursor.js';
import type { Deps } from '../../kernel/deps.js';
import { AppError } from '../../kernel/errors.js';
import { matches } from '../../store/awards-search.js';
import type { AwardsTable, Database } from '../../store/schema.js';
import { type EnvelopeValue, storedMeta } from '../envelope.js';
import type { OperationInput } from '../operation.js';
import { SOURCES } from '../sources.js';
import { amountKey, formatMicros } from './derive.js';
import { annualRevenue, compareToRevenue } from './revenue.js';

const DEFAULT_LIMIT = 50;
const REVISIONS_PAGE = 20;
const TOP = 10;
const AWARD_SOURCES = [SOURCES.usaspending, SOURCES.ted];

type Row = Selectable<AwardsTable>;
type Query = SelectQueryBuilder<Database, 'awards', object>;

/** The wire shape of a stored award revision. */
export function toAward(row: Row) {
  return {
    id: row.id,
    revisionId: row.revision_id,
    source: row.source,
    sourceAwardId: row.source_award_id,
    jurisdiction: row.jurisdiction,
    awardType: row.award_type,
    title: row.title,
    awardDate: row.award_date,
    currency: row.currency,
    obligatedAmount: row.obligated_amount,
    recipient: { name: row.recipient_name },
    agency: { name: row.agency_name },
    sourceUrl: row.source_url,
    observedAt: row.observed_at,
    entity: row.entity ? (JSON.parse(row.entity) as object) : null,
    revenueComparison: row.revenue_comparison ? (JSON.parse(row.revenue_comparison) as object) : null,
  };
}

/**
 * Each award of a listed company held with its annual revenue, compared with it (revenue.ts); others keep
 * what their record carried.
 */
async function withRevenue(db: Kysely<Database>, awards: ReturnType<typeof toAward>[]) {
  const tickerOf = (a: ReturnType<typeof toAward>) => (a.entity as { ticker?: string } | null)?.ticker;
  const revenue = await annualRevenue(
    db,
    awards.map(tickerOf).filter((t): t is string => !!t),
  );
  return awards.map((a) => {
    const ticker = tickerOf(a);
    const comparison = ticker ? compareToRevenue(revenue.get(ticker), a) : null;
    return comparison ? { ...a, revenueComparison: comparison } : a;
  });
}

interface Filters {
  ticker?: string;
  jurisdiction?: string;
  currency?: string;
  agency?: string;
  sector?: string;
  source?: string;
  parentId?: string;
  awardType?: string;
  from?: string;
  to?: string;
  fiscalYear?: number;
  query?: string;
  minAmount?: string;
}

function filtersOf(query: Record<string, unknown>): Filters {
  const f = { ...query } as Filters & { cursor?: string; limit?: number };
  delete f.cursor;
  delete f.limit;
  if (f.ticker) f.ticker = f.ticker.toUpperCase();
  if (f.jurisdiction) f.jurisdiction = f.jurisdiction.toUpperCase();
  if (f.currency) f.currency = f.currency.toUpperCase();
  if (f.query) f.query = f.query.trim();
  return f;
}

function filtered(db: Kysely<Database>, f: Filters): Query {
  let q = db.selectFrom('awards').where('is_current', '=', 1) as Query;
  if (f.ticker) q = q.where('ticker', '=', f.ticker);
  if (f.jurisdiction) q = q.where('jurisdiction', '=', f.jurisdiction);
  if (f.currency) q = q.where('currency', '=', f.currency);
  if (f.agency) q = q.where('agency_name', '=', f.agency);
  if (f.sector) q = q.where('sector', '=', f.sector);
  if (f.source) q = q.where('source', '=', f.source);
  if (f.parentId) q = q.where('parent_id', '=', f.parentId);
  if (f.awardType) q = q.where('award_type', '=', f.awardType);
  if (f.from) q = q.where('award_date', '>=', f.from);
  if (f.to) q = q.where('award_date', '<=', f.to);
  if (f.fiscalYear !== undefined) q = q.where('fiscal_year', '=', f.fiscalYear);
  if (f.minAmount) q = q.where('amount_key', '>=', amountKey(f.minAmount));
  if (f.query) q = q.where(matches(db, f.query));
  return q;
}

const ALERTS = 10;

/**
 * Notable rows of the whole filtered set: the largest de-obligations (negative amounts), and rows the loader
 * flagged (a notice's total adding other currencies, …), each list the first ten.
 */
async function alertsOf(base: Query) {
  const negative = await base
    .select(['id', 'agency_name', 'recipient_name', 'obligated_amount', 'currency', 'award_date'])
    .where('amount_micros', '<', 0)
    .orderBy('amount_micros')
    .orderBy('id')
    .limit(ALERTS)
    .execute();
  const flagged = await base
    .select(['id', 'details'])
    .where('details', 'like', '%"alerts":%')
    .orderBy('id')
    .limit(ALERTS)
    .execute();
  return [
    ...negative.map((a) => ({
      kind: 'deobligation',
      awardId: a.id,
      message: `${a.agency_name} took back ${String(a.obligated_amount).slice(1)} ${a.currency} from ${a.recipient_name} on ${a.award_date}.`,
    })),
    ...flagged.map((a) => ({
      kind: 'source_flag',
      awardId: a.id,
      message: (JSON.parse(a.details ?? '{}') as { alerts?: string[] }).alerts?.join(' ') ?? '',
    })),
  ];
}

interface Group {
  key: string;
  currency: string;
  awards: number;
  micros: number | null;
}

/** Groups of the filtered set by `column`, with counts and sums per currency, the largest first. */
async function groups(
  base: Query,
  column: 'agency_name' | 'sector' | 'recipient_name' | 'fiscal_year' | 'source',
) {
  const rows = (await base
    .select((eb) => [
      eb.ref(column).as('key'),
      'currency',
      eb.fn.countAll<number>().as('awards'),
      eb.fn.sum<number | null>('amount_micros').as('micros'),
    ])
    .groupBy([column, 'currency'])
    .execute()) as unknown as Group[];
  const byKey = new Map<
    string,
    { awards: number; amounts: { currency: string; obligatedAmount: string | null }[] }
  >();
  for (const r of rows) {
    if (r.key === null) continue;
    const key = String(r.key);
    const entry = byKey.get(key) ?? { awards: 0, amounts: [] };
    entry.awards += Number(r.awards);
    entry.amounts.push({
      currency: r.currency,
      obligatedAmount: r.micros === null ? null : formatMicros(BigInt(Math.round(Number(r.micros)))),
    });
    byKey.set(key, entry);
  }
  return [...byKey.entries()].map(([key, v]) => ({ key, ...v }));
}

function top<T extends { awards: number; key: string }>(list: T[]): T[] {
  return [...list].sort((a, b) => b.awards - a.awards || a.key.localeCompare(b.key)).slice(0, TOP);
}

export async function listAwards(deps: Deps, { query }: OperationInput): Promise<EnvelopeValue<unknown>> {
  const db = deps.store.db;
  const f = filtersOf(query);
  const limit = (query.limit as number | undefined) ?? DEFAULT_LIMIT;
  const listing = listingOf(f as Record<string, unknown>);
  const position =
    typeof query.cursor === 'string'
      ? decodeCursor(deps.cursorSecret, listing, query.cursor, 'cursor')
      : null;
  if (position && (typeof position.d !== 'string' || typeof position.i !== 'string')) {
    throw new AppError(
      'invalid_params',
      'parameter "cursor" is not a valid cursor (malformed); start from the first page',
    );
  }

  let page = filtered(db, f).selectAll();
  if (position) {
    const d = position.d as string;
    const i = position.i as string;
    page = page.where((eb) =>
      eb.or([eb('award_date', '<', d), eb.and([eb('award_date', '=', d), eb('id', '<', i)])]),
    );
  }
  const rows = await page
    .orderBy('award_date', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  const more = rows.length > limit;
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  const nextCursor =
    more && last ? encodeCursor(deps.cursorSecret, listing, { d: last.award_date, i: last.id }) : null;

  const base = filtered(db, f);
  const [agencies, sectors, leaders, years, sources] = await Promise.all([
    groups(base, 'agency_name'),
    groups(base, 'sector'),
    groups(base, 'recipient_name'),
    groups(base, 'fiscal_year'),
    groups(base, 'source'),
  ]);
  const span = await base
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      eb.fn.min('award_date').as('first'),
      eb.fn.max('award_date').as('last'),
    ])
    .executeTakeFirst();
  const coverageRows = (await base
    .select((eb) => [
      'source',
      'jurisdiction',
      eb.fn.countAll<number>().as('n'),
      eb.fn.min('award_date').as('first'),
      eb.fn.max('award_date').as('last'),
    ])
    .groupBy(['source', 'jurisdiction'])
    .orderBy('source')
    .orderBy('jurisdiction')
    .execute()) as { source: string; jurisdiction: string; n: number; first: string; last: string }[];

  const awards = await withRevenue(db, shown.map(toAward));
  const observed = awards.map((a) => a.observedAt).sort();
  const attribution = new Map<string, { attribution: string; licence: string }>(
    AWARD_SOURCES.map((s) => [s.id, s]),
  );
  const data = {
    generatedAt: new Date().toISOString(),
    asOf: observed.at(-1) ?? null,
    status: 'available',
    access: 'full',
    rows: awards,
    nextCursor,
    agencies: top(agencies).map(({ key, awards: n, amounts }) => ({ name: key, awards: n, amounts })),
    sectors: top(sectors).map(({ key, awards: n, amounts }) => ({ name: key, awards: n, amounts })),
    leaders: top(leaders).map(({ key, awards: n, amounts }) => ({ recipient: key, awards: n, amounts })),
    history: years
      .sort((a, b) => Number(a.key) - Number(b.key))
      .map(({ key, awards: n, amounts }) => ({ fiscalYear: Number(key), awards: n, amounts })),
    alerts: await alertsOf(base),
    sources: sources.map(({ key, awards: n }) => ({
      id: key,
      attribution: attribution.get(key)?.attribution ?? key,
      licence: attribution.get(key)?.licence ?? 'see source',
      awards: n,
    })),
    coverage: coverageRows.map((c) => ({
      source: c.source,
      jurisdiction: c.jurisdiction,
      awards: Number(c.n),
      firstAwardDate: c.first,
      lastAwardDate: c.last,
    })),
    gaps: [],
    locked: false,
  };
  return {
    data,
    meta: storedMeta('awards', AWARD_SOURCES, {
      asOf: data.asOf,
      historyStarts: (span?.first as string | null) ?? null,
      coverage: span?.first
        ? { awards: Number(span.n), firstAwardDate: span.first, lastAwardDate: span.last }
        : null,
    }),
  };
}

export async function awardDetail(
  deps: Deps,
  { params, query }: OperationInput,
): Promise<EnvelopeValue<unknown>> {
  const db = deps.store.db;
  const id = String(params.id);
  const listing = listingOf({ award: id });
  const current = await db
    .selectFrom('awards')
    .selectAll()
    .where('id', '=', id)
    .where('is_current', '=', 1)
    .executeTakeFirst();
  if (!current) throw new AppError('not_found', `No award ${id}.`);
  const position =
    typeof query.revisionsCursor === 'string'
      ? decodeCursor(deps.cursorSecret, listing, query.revisionsCursor, 'revisionsCursor')
      : null;

  let revisions = db.selectFrom('awards').selectAll().where('id', '=', id).where('is_current', '=', 0);
  if (position) {
    if (typeof position.r !== 'number') {
      throw new AppError('invalid_params', 'parameter "revisionsCursor" is not a valid cursor (malformed)');
    }
    revisions = revisions.where('revision', '<', position.r);
  }
  const rows = await revisions
    .orderBy('revision', 'desc')
    .limit(REVISIONS_PAGE + 1)
    .execute();
  const shown = rows.slice(0, REVISIONS_PAGE);
  const last = shown.at(-1);
  const next =
    rows.length > REVISIONS_PAGE && last
      ? encodeCursor(deps.cursorSecret, listing, { r: last.revision })
      : null;
  const [award] = (await withRevenue(db, [toAward(current)])) as [ReturnType<typeof toAward>];
  return {
    data: {
      award,
      details: current.details ? (JSON.parse(current.details) as Record<string, unknown>) : null,
      revisions: shown.map((r) => ({ ...toAward(r), revision: r.revision, loadedAt: r.loaded_at })),
      nextRevisionsCursor: next,
    },
    meta: storedMeta('awards', AWARD_SOURCES, {
      asOf: award.observedAt,
      historyStarts: award.awardDate,
      coverage: { revisions: Number(current.revision) },
    }),
  };
}
