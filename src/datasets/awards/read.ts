// awards reads: the filtered listing with keyset pages and summaries, and one award with its revisions.
import { type Kysely, type Selectable, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { cachedRead } from '../../ingest/read-cache.js';
import { decodeCursor, encodeCursor, listingOf } from '../../kernel/cursor.js';
import type { Deps } from '../../kernel/deps.js';
import { AppError } from '../../kernel/errors.js';
import { rowIdIn } from '../../store/row-ids.js';
import type { Database } from '../../store/schema.js';
import { type EnvelopeValue, storedMeta } from '../envelope.js';
import { asOfInstant, knownAt, newest, newestKnown, readInstant } from '../known.js';
import type { OperationInput } from '../operation.js';
import { type AwardColumns, buildColumns, earliestKnown } from './columns.js';
import { amountKey } from './derive.js';
import { awardsMatching } from './query.js';
import { annualRevenue, compareToRevenue } from './revenue.js';
import { TED, USASPENDING_SOURCE } from './source.js';
import { type SummaryFilters, summarizeAll, summarizeFiltered } from './summarize.js';
import type { AwardsTable } from './tables.js';

const DEFAULT_LIMIT = 50;
const REVISIONS_PAGE = 20;
export const AWARD_SOURCES = [USASPENDING_SOURCE, TED];

export type Row = Selectable<AwardsTable>;
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
    entity: row.entity ? jsonObject(row.entity) : null,
    revenueComparison: row.revenue_comparison ? jsonObject(row.revenue_comparison) : null,
  };
}

/** A JSON column's object, as the loader wrote it. */
function jsonObject(text: string): Record<string, unknown> {
  const value: Record<string, unknown> = JSON.parse(text);
  return value;
}

/**
 * Each award of a listed company held with its annual revenue, compared with it (revenue.ts); others keep
 * what their record carried.
 */
async function withRevenue(db: Kysely<Database>, awards: ReturnType<typeof toAward>[], at: string | null) {
  const tickerOf = (a: ReturnType<typeof toAward>) =>
    typeof a.entity?.ticker === 'string' ? a.entity.ticker : undefined;
  const revenue = await annualRevenue(
    db,
    awards.map(tickerOf).filter((t): t is string => !!t),
    at,
  );
  return awards.map((a) => {
    const ticker = tickerOf(a);
    const comparison = ticker ? compareToRevenue(revenue.get(ticker), a) : null;
    return comparison ? { ...a, revenueComparison: comparison } : a;
  });
}

/** The listing's filters: those the summary applies to its columns, and the words of `query`. */
type Filters = SummaryFilters & { query?: string };
/** awards.list's query, as its schema types it. */
type AwardsQuery = Omit<Filters, 'knownAt'> & { cursor?: string; limit?: number; asOf?: string };

/** The filters of a query; `asOf` becomes the instant the revisions are read at. */
function filtersOf(query: AwardsQuery, at: string | null): Filters {
  const f: AwardsQuery & Filters = { ...query };
  delete f.cursor;
  delete f.limit;
  delete f.asOf;
  if (at) f.knownAt = at;
  if (f.ticker) f.ticker = f.ticker.toUpperCase();
  if (f.jurisdiction) f.jurisdiction = f.jurisdiction.toUpperCase();
  if (f.currency) f.currency = f.currency.toUpperCase();
  if (f.query) f.query = f.query.trim();
  return f;
}

/** Current rows; a literal, so that the planners can use the partial indexes of them (migration 021). */
function current(db: Kysely<Database>): Query {
  return db.selectFrom('awards').where(sql<SqlBool>`awards.is_current = 1`) as Query;
}

/**
 * Notable rows of the whole filtered set (their row ids found by the summary): the largest de-obligations
 * (negative amounts), and rows the loader flagged (a notice's total adding other currencies, …).
 */
async function alertsOf(db: Kysely<Database>, deobligations: number[], flagged: number[]) {
  const fetch = (rowIds: number[]) =>
    rowIds.length === 0
      ? Promise.resolve([] as Row[])
      : db.selectFrom('awards').selectAll().where('row_id', 'in', rowIds).execute();
  const negative = (await fetch(deobligations))
    .sort((a, b) => amountOrder(a, b) || a.id.localeCompare(b.id))
    .slice(0, ALERTS);
  const marked = (await fetch(flagged)).sort((a, b) => Number(a.row_id) - Number(b.row_id));
  return [
    ...negative.map((a) => ({
      kind: 'deobligation',
      awardId: a.id,
      message: `${a.agency_name} took back ${String(a.obligated_amount).slice(1)} ${a.currency} from ${a.recipient_name} on ${a.award_date}.`,
    })),
    ...marked.map((a) => ({
      kind: 'source_flag',
      awardId: a.id,
      message: alertsText(a.details),
    })),
  ];
}

const ALERTS = 10;

/** The alerts a loader wrote into a row's details, as one text. */
function alertsText(details: string | null): string {
  const alerts = details ? jsonObject(details).alerts : undefined;
  return Array.isArray(alerts) ? alerts.join(' ') : '';
}

/** Amounts in numeric order (their keys sort so, negatives reversed). */
function amountOrder(a: Row, b: Row): number {
  const [x, y] = [amountKey(a.obligated_amount), amountKey(b.obligated_amount)];
  const negative = (k: string) => k.startsWith('-');
  if (negative(x) !== negative(y)) return negative(x) ? -1 : 1;
  const order = x < y ? -1 : x > y ? 1 : 0;
  return negative(x) ? -order : order;
}

/** Where a page cursor stands: after the award of this date and id. */
function pagePosition(decoded: Record<string, unknown>): { d: string; i: string } {
  const { d, i } = decoded;
  if (typeof d !== 'string' || typeof i !== 'string') {
    throw new AppError(
      'invalid_params',
      'parameter "cursor" is not a valid cursor (malformed); start from the first page',
    );
  }
  return { d, i };
}

/**
 * A page of the listing and the row after it, newest first: from the candidates the summary found (revisions
 * known at `at`), else from the current rows; after the cursor's position.
 */
function pageOf(
  db: Kysely<Database>,
  ask: {
    at: string | null;
    candidates: number[] | null;
    position: { d: string; i: string } | null;
    limit: number;
  },
) {
  const { at, candidates, position, limit } = ask;
  let page = candidates
    ? (at ? (db.selectFrom('awards') as Query) : current(db))
        .selectAll()
        .where(rowIdIn(db, 'awards.row_id', candidates))
    : current(db).selectAll();
  if (position) {
    // A row value, which both planners read as one range of the (award_date, id) indexes.
    page = page.where(sql<SqlBool>`(awards.award_date, awards.id) < (${position.d}, ${position.i})`);
  }
  return page
    .orderBy('award_date', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
}

export async function listAwards(
  deps: Deps,
  { query }: OperationInput<AwardsQuery, object>,
): Promise<EnvelopeValue<unknown>> {
  const db = deps.store.db;
  const at = asOfInstant(deps, query.asOf);
  const f = filtersOf(query, at);
  const limit = query.limit ?? DEFAULT_LIMIT;
  const listing = listingOf(f);
  const position =
    typeof query.cursor === 'string'
      ? pagePosition(decodeCursor(deps.cursorSecret, listing, query.cursor, 'cursor'))
      : null;

  const columns = await cachedRead(db, 'awards', 'columns', () => buildColumns(db));
  const unfiltered = Object.values(f).every((v) => v === undefined || v === '');
  const before = position ? Number(position.d.replaceAll('-', '')) : null;
  // Filtered, the summary's pass over the columns (and the words of `query`, found in memory beside them)
  // also finds the awards the page can hold, so the page is read by row id alone.
  const words = f.query;
  const summary = unfiltered
    ? summarizeAll(columns)
    : summarizeFiltered(columns, f, words ? () => awardsMatching(columns, words) : null, {
        before,
        rows: limit + 1,
      });

  const rows = await pageOf(db, { at, candidates: summary.pageRows, position, limit });
  const more = rows.length > limit;
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  const nextCursor =
    more && last ? encodeCursor(deps.cursorSecret, listing, { d: last.award_date, i: last.id }) : null;

  const awards = await withRevenue(db, shown.map(toAward), at);
  const published = newestKnown(shown);
  const groups = summaryShown(summary);
  const data = {
    generatedAt: deps.clock().toISOString(),
    asOf: published?.knownAt ?? null,
    status: 'available',
    access: 'full',
    rows: awards,
    nextCursor,
    agencies: groups.agencies,
    sectors: groups.sectors,
    leaders: groups.leaders,
    history: groups.history,
    alerts: await alertsOf(db, summary.deobligationRows, summary.flaggedRows),
    sources: groups.sources,
    coverage: groups.coverage,
    gaps: at ? beforeFirstKnown(columns, at) : [],
    locked: false,
  };
  return {
    data,
    meta: storedMeta('awards', AWARD_SOURCES, {
      readAsOf: readInstant(deps, at),
      asOf: data.asOf,
      knownFrom: published?.knownFrom ?? null,
      newestPeriod: newest(shown.map((r) => r.award_date)),
      historyStarts: summary.span?.first ?? null,
      coverage: summary.span
        ? {
            awards: summary.span.awards,
            firstAwardDate: summary.span.first,
            lastAwardDate: summary.span.last,
          }
        : null,
    }),
  };
}

/** The listing's summaries as answered: by agency, sector, recipient and year, by source, and coverage. */
function summaryShown(summary: ReturnType<typeof summarizeAll>) {
  const attribution = new Map<string, { attribution: string; licence: string }>(
    AWARD_SOURCES.map((s) => [s.id, s]),
  );
  return {
    agencies: summary.agencies.map(({ key, awards: n, amounts }) => ({ name: key, awards: n, amounts })),
    sectors: summary.sectors.map(({ key, awards: n, amounts }) => ({ name: key, awards: n, amounts })),
    leaders: summary.leaders.map(({ key, awards: n, amounts }) => ({
      recipient: key,
      awards: n,
      amounts,
    })),
    history: summary.history,
    sources: summary.sources.map(({ key, awards: n }) => ({
      id: key,
      attribution: attribution.get(key)?.attribution ?? key,
      licence: attribution.get(key)?.licence ?? 'see source',
      awards: n,
    })),
    coverage: summary.coverage.map((c) => ({
      source: c.source,
      jurisdiction: c.jurisdiction,
      awards: c.awards,
      firstAwardDate: c.first,
      lastAwardDate: c.last,
    })),
  };
}

/** A gap when `at` is before the first award held became known. */
function beforeFirstKnown(columns: AwardColumns, at: string): string[] {
  const first = earliestKnown(columns);
  if (!Number.isFinite(first) || Date.parse(at) >= first) return [];
  const day = new Date(first).toISOString().slice(0, 10);
  return [`nothing published by ${at.slice(0, 10)} is held: the first award held became known on ${day}`];
}

export async function awardDetail(
  deps: Deps,
  { params, query }: OperationInput<{ revisionsCursor?: string; asOf?: string }, { id: string }>,
): Promise<EnvelopeValue<unknown>> {
  const db = deps.store.db;
  const id = params.id;
  const at = asOfInstant(deps, query.asOf);
  const listing = listingOf({ award: id, asOf: at });
  const current = await db
    .selectFrom('awards')
    .selectAll()
    .where('id', '=', id)
    .where(knownAt(at))
    .executeTakeFirst();
  if (!current) {
    throw new AppError(
      'not_found',
      at ? `No award ${id} was published by ${query.asOf}.` : `No award ${id}.`,
    );
  }
  const position =
    typeof query.revisionsCursor === 'string'
      ? decodeCursor(deps.cursorSecret, listing, query.revisionsCursor, 'revisionsCursor')
      : null;

  // The revisions before the one shown (superseded by the time it became known), newest known first.
  let revisions = db
    .selectFrom('awards')
    .selectAll()
    .where('id', '=', id)
    .where('row_id', '!=', current.row_id)
    .where('superseded_at', '<=', current.known_at);
  if (position) {
    if (typeof position.k !== 'string' || typeof position.r !== 'number') {
      throw new AppError('invalid_params', 'parameter "revisionsCursor" is not a valid cursor (malformed)');
    }
    revisions = revisions.where(sql<SqlBool>`(known_at, row_id) < (${position.k}, ${position.r})`);
  }
  const rows = await revisions
    .orderBy('known_at', 'desc')
    .orderBy('row_id', 'desc')
    .limit(REVISIONS_PAGE + 1)
    .execute();
  const shown = rows.slice(0, REVISIONS_PAGE);
  const last = shown.at(-1);
  const next =
    rows.length > REVISIONS_PAGE && last
      ? encodeCursor(deps.cursorSecret, listing, { k: last.known_at, r: Number(last.row_id) })
      : null;
  const [award] = (await withRevenue(db, [toAward(current)], at)) as [ReturnType<typeof toAward>];
  return {
    data: {
      award,
      details: current.details ? jsonObject(current.details) : null,
      knownAt: current.known_at,
      knownFrom: current.known_from,
      revisions: shown.map((r) => ({
        ...toAward(r),
        revision: r.revision,
        loadedAt: r.loaded_at,
        knownAt: r.known_at,
        knownFrom: r.known_from,
        supersededAt: r.superseded_at,
      })),
      nextRevisionsCursor: next,
    },
    meta: storedMeta('awards', AWARD_SOURCES, {
      readAsOf: readInstant(deps, at),
      asOf: current.known_at,
      knownFrom: current.known_from,
      newestPeriod: award.awardDate,
      historyStarts: award.awardDate,
      coverage: { revisions: Number(current.revision) },
    }),
  };
}
