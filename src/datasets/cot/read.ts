// cot reads: the board of the latest report and one contract's history, with derived figures.
import { sql } from 'kysely';
import { cachedRead } from '../../ingest/read-cache.js';
import { addDays } from '../../kernel/dates.js';
import type { Deps } from '../../kernel/deps.js';
import { AppError } from '../../kernel/errors.js';
import { ownTurn } from '../../kernel/turns.js';
import { type EnvelopeValue, storedMeta } from '../envelope.js';
import { freshBoard } from '../freshness.js';
import { asOfInstant, knownAt, newestKnown, readInstant } from '../known.js';
import type { OperationInput } from '../operation.js';
import {
  type NetPoint,
  net,
  netPercentOfOpenInterest,
  percentile,
  percentOfOpenInterest,
  weeklyChange,
} from './derive.js';
import { classesOf } from './import.js';
import { cotFreshness } from './load/collection.js';
import { CFTC } from './source.js';
import type { CotRecordsTable } from './tables.js';

type Family = 'legacy' | 'disaggregated';

const RECORD_COLUMNS = [
  'contract_code',
  'report_date',
  'market_name',
  'exchange_code',
  'commodity_code',
  'open_interest',
  'positions',
  'loaded_at',
  'known_at',
  'known_from',
] as const;

const CLASS_LABELS: Record<string, string> = {
  noncommercial: 'Noncommercial',
  commercial: 'Commercial',
  nonreportable: 'Nonreportable',
  producer: 'Producer/Merchant/Processor/User',
  swap: 'Swap Dealers',
  'managed-money': 'Managed Money',
  'other-reportable': 'Other Reportables',
};

const DEFAULT_CLASS: Record<Family, string> = { legacy: 'noncommercial', disaggregated: 'managed-money' };
/** Report rows read between turns of the event loop while a board is computed. */
const BOARD_SLICE = 4_000;
/** History needed for the longest window (3 years of weekly reports). */
const LOOKBACK_DAYS = 156 * 7;

/** A stored report row as the board reads it. */
type Record_ = Omit<
  CotRecordsTable,
  | 'id'
  | 'report_family'
  | 'content_hash'
  | 'revision'
  | 'is_current'
  | 'source'
  | 'known_at'
  | 'known_from'
  | 'superseded_at'
>;

interface Selection {
  family: Family;
  traderClass: string;
}

/** A cot route's query, as its schema types it. */
type CotQuery = { report?: Family; traderClass?: string; asOf?: string };

function selection(query: CotQuery): Selection {
  const family = query.report ?? 'legacy';
  return { family, traderClass: query.traderClass ?? DEFAULT_CLASS[family] };
}

function longShort(record: Record_, traderClass: string) {
  const positions = JSON.parse(record.positions) as Record<
    string,
    { long: number; short: number; spreading: number | null }
  >;
  return positions[traderClass] ?? { long: 0, short: 0, spreading: null };
}

/** A board or history row: one report of one contract, for the selected class. */
function row(
  record: Record_,
  traderClass: string,
  history: NetPoint[],
  historyStart: string,
  reportDates: readonly string[],
) {
  const { long, short, spreading } = longShort(record, traderClass);
  const value = net(long, short);
  const previous = history.length >= 2 ? history[history.length - 2]! : null;
  return {
    contractCode: record.contract_code,
    marketName: record.market_name,
    exchangeCode: record.exchange_code,
    commodityCode: record.commodity_code,
    reportDate: record.report_date,
    openInterest: Number(record.open_interest),
    position: {
      id: traderClass,
      label: CLASS_LABELS[traderClass] ?? traderClass,
      long,
      short,
      spreading,
      net: value,
      netPercentOfOpenInterest: netPercentOfOpenInterest(value, Number(record.open_interest)) ?? 0,
      longPercentOfOpenInterest: percentOfOpenInterest(long, Number(record.open_interest)),
      shortPercentOfOpenInterest: percentOfOpenInterest(short, Number(record.open_interest)),
      weeklyChange: weeklyChange(value, record.report_date, previous),
      previousReportDate: previous?.date ?? null,
      percentile1Y: percentile(history, 1, historyStart, reportDates),
      percentile3Y: percentile(history, 3, historyStart, reportDates),
    },
    status: 'available',
  };
}

function frame(
  deps: Deps,
  sel: Selection,
  rows: unknown[],
  asOf: string | null,
  fetchedAt: string | null,
  /** The instant read as known (asOf), if any: an empty answer then says nothing was published by it. */
  at: string | null = null,
) {
  const none = at
    ? `nothing published by ${at.slice(0, 10)} is held for this report family`
    : 'no reports loaded for this report family';
  return {
    source: 'cftc',
    scope: 'futures-only',
    reportFamily: sel.family,
    generatedAt: deps.clock().toISOString(),
    asOf,
    fetchedAt,
    publishedAt: null,
    status: rows.length > 0 ? 'available' : 'partial',
    gaps: rows.length > 0 ? [] : [none],
    classes: classesOf(sel.family).map((id) => ({ id, label: CLASS_LABELS[id] ?? id })),
    traderClass: sel.traderClass,
    rows,
  };
}

/** meta of a cot answer: read as of `at` (else now), its newest report and when that became known. */
function meta(
  deps: Deps,
  at: string | null,
  newest: { report: string; knownAt: string; knownFrom: string | null } | null,
  historyStarts: string | null,
  coverage: Record<string, unknown> | null,
) {
  return storedMeta('cot', [CFTC], {
    readAsOf: readInstant(deps, at),
    asOf: newest?.knownAt ?? null,
    knownFrom: newest?.knownFrom ?? null,
    newestPeriod: newest?.report ?? null,
    historyStarts,
    coverage,
  });
}

/** Each contract's first report held (as known) in the selection's report family. */
async function firstReports(deps: Deps, sel: Selection, known: ReturnType<typeof knownAt>) {
  const starts = await deps.store.db
    .selectFrom('cot_records')
    .select(['contract_code', sql<string>`min(report_date)`.as('first')])
    .where('report_family', '=', sel.family)
    .where(known)
    .groupBy('contract_code')
    .execute();
  return new Map(starts.map((s) => [s.contract_code, s.first]));
}

async function computeBoard(deps: Deps, sel: Selection, at: string | null): Promise<EnvelopeValue<unknown>> {
  const db = deps.store.db;
  const known = knownAt(at);

  const latest = await db
    .selectFrom('cot_records')
    .select((eb) => [eb.fn.max('report_date').as('last'), eb.fn.min('report_date').as('first')])
    .where('report_family', '=', sel.family)
    .where(known)
    .executeTakeFirst();
  if (!latest?.last) {
    return { data: frame(deps, sel, [], null, null, at), meta: meta(deps, at, null, null, null) };
  }
  const history = await db
    .selectFrom('cot_records')
    .select(RECORD_COLUMNS)
    .where('report_family', '=', sel.family)
    .where(known)
    .where('report_date', '>=', addDays(latest.last, -LOOKBACK_DAYS))
    .orderBy('report_date')
    .execute();
  const firstOf = await firstReports(deps, sel, known);
  const dates = await reportDatesOf(db, sel.family, known);

  const nets = new Map<string, NetPoint[]>();
  let fetchedAt = '';
  let published = '';
  let publishedFrom: string | null = null;
  const rows = [];
  let read = 0;
  for (const record of history) {
    // Three years of weekly reports of every contract is tens of thousands of positions to parse: the event
    // loop gets a turn every few thousand of them.
    read += 1;
    if (read % BOARD_SLICE === 0) await ownTurn();
    const { long, short } = longShort(record, sel.traderClass);
    const points = nets.get(record.contract_code) ?? [];
    points.push({ date: record.report_date, net: net(long, short) });
    nets.set(record.contract_code, points);
    if (record.loaded_at > fetchedAt) fetchedAt = record.loaded_at;
    if (record.report_date === latest.last) {
      if (record.known_at > published) {
        published = record.known_at;
        publishedFrom = record.known_from;
      }
      rows.push(
        row(
          record,
          sel.traderClass,
          points.slice(),
          firstOf.get(record.contract_code) ?? record.report_date,
          dates,
        ),
      );
    }
  }
  rows.sort(
    (a, b) => a.marketName.localeCompare(b.marketName) || a.contractCode.localeCompare(b.contractCode),
  );
  return {
    data: frame(deps, sel, rows, latest.last, fetchedAt || null),
    meta: meta(
      deps,
      at,
      { report: latest.last, knownAt: published, knownFrom: publishedFrom },
      latest.first ?? null,
      {
        contracts: rows.length,
        firstReport: latest.first,
        lastReport: latest.last,
      },
    ),
  };
}

async function computeContract(
  deps: Deps,
  code: string,
  sel: Selection,
  at: string | null,
): Promise<EnvelopeValue<unknown>> {
  const known = knownAt(at);
  const records = await deps.store.db
    .selectFrom('cot_records')
    .select([...RECORD_COLUMNS, 'report_family'])
    .where('contract_code', '=', code)
    .where(known)
    .orderBy('report_date')
    .execute();
  if (records.length === 0 && at)
    return { data: frame(deps, sel, [], null, null, at), meta: meta(deps, at, null, null, null) };
  if (records.length === 0) throw new AppError('not_found', `No contract ${code} in the stored reports.`);
  const mine = records.filter((r) => r.report_family === sel.family);
  const dates = await reportDatesOf(deps.store.db, sel.family, known);
  const points: NetPoint[] = [];
  let fetchedAt = '';
  const rows = mine.map((record) => {
    const { long, short } = longShort(record, sel.traderClass);
    points.push({ date: record.report_date, net: net(long, short) });
    if (record.loaded_at > fetchedAt) fetchedAt = record.loaded_at;
    return row(record, sel.traderClass, points.slice(), mine[0]?.report_date ?? record.report_date, dates);
  });
  const first = mine[0]?.report_date ?? null;
  const last = mine.at(-1);
  const published = newestKnown(mine);
  return {
    data: frame(deps, sel, rows, last?.report_date ?? null, fetchedAt || null),
    meta: meta(
      deps,
      at,
      last && published ? { report: last.report_date, ...published } : null,
      first,
      mine.length ? { reports: mine.length, firstReport: first, lastReport: last } : null,
    ),
  };
}

/** The board of the latest report, or, with asOf, as known at the end of that day; fresh as of then. */
export async function readBoard(
  deps: Deps,
  input: OperationInput<CotQuery, object>,
): Promise<EnvelopeValue<unknown>> {
  const sel = selection(input.query);
  const at = asOfInstant(deps, input.query.asOf);
  const board = () =>
    cachedRead(deps.store.db, 'cot', `board:${sel.family}:${sel.traderClass}:${at ?? 'now'}`, () =>
      computeBoard(deps, sel, at),
    );
  return freshBoard(deps, cotFreshness, board, { at, groups: [sel.family] });
}

/**
 * One contract's reports, or, with asOf, as they were known at the end of that day; with its report family's
 * freshness, as the board has it.
 */
export function readContract(
  deps: Deps,
  input: OperationInput<CotQuery, { contractCode: string }>,
): Promise<EnvelopeValue<unknown>> {
  const sel = selection(input.query);
  const at = asOfInstant(deps, input.query.asOf);
  const code = input.params.contractCode.toUpperCase();
  const key = `contract:${code}:${sel.family}:${sel.traderClass}:${at ?? 'now'}`;
  const contract = () => cachedRead(deps.store.db, 'cot', key, () => computeContract(deps, code, sel, at));
  return freshBoard(deps, cotFreshness, contract, { at, groups: [sel.family] });
}

/** The report dates held for a family (as known), ascending: what makes a percentile window complete. */
async function reportDatesOf(
  db: Deps['store']['db'],
  family: string,
  known: ReturnType<typeof knownAt>,
): Promise<string[]> {
  const rows = await db
    .selectFrom('cot_records')
    .select('report_date')
    .distinct()
    .where('report_family', '=', family)
    .where(known)
    .orderBy('report_date')
    .execute();
  return rows.map((r) => r.report_date);
}
