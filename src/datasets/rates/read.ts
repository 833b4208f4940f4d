// treasury-rates reads: the par curve of a day with its changes and spreads, and one tenor's history.

import { addDays, daysBetween, shiftMonths } from '../../kernel/dates.js';
import type { Deps } from '../../kernel/deps.js';
import { AppError } from '../../kernel/errors.js';
import type { EnvelopeValue } from '../envelope.js';
import { storedMeta } from '../envelope.js';
import { freshBoard } from '../freshness.js';
import { asOfInstant, knownAt, newestKnown, readInstant } from '../known.js';
import type { OperationInput } from '../operation.js';
import { BILLS_GROUP, PAR_GROUP, ratesFreshness } from './load/collection.js';
import { PAR_TENORS, type RateSeries } from './params.js';
import { TREASURY } from './source.js';

/** a − b in basis points, from yields in percent (to a hundredth of a point: no binary noise). */
export const basisPoints = (a: number, b: number): number => Math.round((a - b) * 10_000) / 100;

type Row = { date: string; tenor: string; value: number; known_at: string; known_from: string | null };

/** The par curve of `date` (or of the last day before it with one), with changes and spreads, as known at asOf. */
export async function readCurve(
  deps: Deps,
  { query }: OperationInput<{ date?: string; asOf?: string }, object>,
): Promise<EnvelopeValue<unknown>> {
  const at = asOfInstant(deps, query.asOf);
  return freshBoard(deps, ratesFreshness, () => curve(deps, at, query.date), { at, groups: [PAR_GROUP] });
}

async function curve(
  deps: Deps,
  at: string | null,
  asked: string | undefined,
): Promise<EnvelopeValue<unknown>> {
  const { found, rows } = await curveRows(deps, at, asked);
  const byDate = new Map<string, Map<string, number>>();
  for (const r of rows) {
    const tenors = byDate.get(r.date) ?? new Map<string, number>();
    tenors.set(r.tenor, Number(r.value));
    byDate.set(r.date, tenors);
  }
  const { previous, gaps } = comparedWith([...byDate.keys()], found);
  const today = byDate.get(found) ?? new Map<string, number>();
  const spread = (long: string, short: string) => {
    const a = today.get(long);
    const b = today.get(short);
    if (a === undefined || b === undefined) return null;
    const bp = basisPoints(a, b);
    return { long, short, bp, inverted: bp < 0 };
  };
  const known = newestKnown(rows.filter((r) => r.date === found));
  return {
    data: {
      source: 'treasury',
      status: gaps.length === 0 ? 'available' : 'partial',
      gaps,
      date: found,
      previous,
      spreads: { '2s10s': spread('10Y', '2Y'), '3m10y': spread('10Y', '3M') },
      tenors: tenorsOf(byDate, found, previous),
    },
    meta: storedMeta('treasury-rates', [TREASURY], {
      readAsOf: readInstant(deps, at),
      asOf: known?.knownAt ?? null,
      knownFrom: known?.knownFrom ?? null,
      newestPeriod: found,
    }),
  };
}

/**
 * Treasury publishes a curve every business day: the held curve a change compares with is at most this many
 * days before the day it stands for (a long weekend: Friday before a Tuesday's day before).
 */
const MOST_DAYS_APART = 4;

type Change = 'day' | 'week' | 'month' | 'year';

/**
 * The day each change compares with: the curve before `found`, and the last on or before a week, a month and a
 * year earlier. Where none is held within MOST_DAYS_APART days of the day it stands for, the change would compare
 * across days not held (between two loads, say, or before the first): it is left out, and named in the gaps.
 */
function comparedWith(dates: string[], found: string) {
  const stands: Record<Change, string> = {
    day: addDays(found, -1),
    week: addDays(found, -7),
    month: shiftMonths(found, -1),
    year: shiftMonths(found, -12),
  };
  const previous: Record<Change, string | null> = { day: null, week: null, month: null, year: null };
  const gaps: string[] = [];
  for (const change of ['day', 'week', 'month', 'year'] as const) {
    const held = dates.filter((d) => d <= stands[change]).at(-1);
    if (held !== undefined && daysBetween(held, stands[change]) <= MOST_DAYS_APART) previous[change] = held;
    else
      gaps.push(
        `${change} change left out: no curve is held for ${stands[change]} or the ${MOST_DAYS_APART} days before it`,
      );
  }
  return { previous, gaps };
}

/** The newest par curve held on or before `asked` (as known at `at`), and the rows of the year and two weeks to it. */
async function curveRows(deps: Deps, at: string | null, asked: string | undefined) {
  const db = deps.store.db;
  let day = db
    .selectFrom('treasury_rates')
    .select((eb) => eb.fn.max('date').as('day'))
    .where('series', '=', 'par')
    .where(knownAt(at));
  if (asked) day = day.where('date', '<=', asked);
  const found = (await day.executeTakeFirst())?.day ?? null;
  if (!found)
    throw new AppError(
      'not_found',
      asked
        ? `No Treasury par yield curve on or before ${asked} is held.`
        : 'No Treasury par yield curve is held.',
    );
  const rows: Row[] = await db
    .selectFrom('treasury_rates')
    .select(['date', 'tenor', 'value', 'known_at', 'known_from'])
    .where('series', '=', 'par')
    .where(knownAt(at))
    .where('date', '>=', addDays(shiftMonths(found, -12), -14))
    .where('date', '<=', found)
    .orderBy('date')
    .execute();
  return { found, rows };
}

/** Each tenor of the day's curve, with its change in basis points from each earlier curve. */
function tenorsOf(
  byDate: Map<string, Map<string, number>>,
  found: string,
  previous: Record<'day' | 'week' | 'month' | 'year', string | null>,
) {
  const today = byDate.get(found) ?? new Map<string, number>();
  const change = (tenor: string, value: number, date: string | null) => {
    const before = date ? byDate.get(date)?.get(tenor) : undefined;
    return before === undefined ? null : basisPoints(value, before);
  };
  return PAR_TENORS.flatMap(([tenor, years]) => {
    const value = today.get(tenor);
    if (value === undefined) return [];
    return [
      {
        tenor,
        years: Math.round(years * 10_000) / 10_000,
        yield: value,
        changeBp: {
          day: change(tenor, value, previous.day),
          week: change(tenor, value, previous.week),
          month: change(tenor, value, previous.month),
          year: change(tenor, value, previous.year),
        },
      },
    ];
  });
}

/** One tenor of one series between two days (default: the year to the newest day held), as known at asOf. */
export async function readHistory(
  deps: Deps,
  {
    params,
    query,
  }: OperationInput<{ series?: RateSeries; from?: string; to?: string; asOf?: string }, { tenor: string }>,
): Promise<EnvelopeValue<unknown>> {
  const at = asOfInstant(deps, query.asOf);
  const series = query.series ?? 'par';
  const db = deps.store.db;
  let q = db
    .selectFrom('treasury_rates')
    .select(['date', 'value', 'known_at', 'known_from'])
    .where('series', '=', series)
    .where('tenor', '=', params.tenor)
    .where(knownAt(at));
  if (query.from) q = q.where('date', '>=', query.from);
  if (query.to) q = q.where('date', '<=', query.to);
  const rows = await q.orderBy('date').execute();
  const known = newestKnown(rows);
  return freshBoard(
    deps,
    ratesFreshness,
    async () => ({
      data: {
        source: 'treasury',
        status: 'available',
        gaps: rows.length ? [] : [`no ${series} ${params.tenor} rate is held in the window asked`],
        series,
        tenor: params.tenor,
        unit: series === 'bill-discount' ? 'percent (bank discount)' : 'percent',
        rows: rows.map((r) => ({ date: r.date, value: Number(r.value) })),
      },
      meta: storedMeta('treasury-rates', [TREASURY], {
        readAsOf: readInstant(deps, at),
        asOf: known?.knownAt ?? null,
        knownFrom: known?.knownFrom ?? null,
        newestPeriod: rows.at(-1)?.date ?? null,
        historyStarts: rows[0]?.date ?? null,
      }),
    }),
    { at, groups: [series === 'par' ? PAR_GROUP : BILLS_GROUP] },
  );
}
