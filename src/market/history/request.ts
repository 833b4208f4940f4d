// A history request: its limits, periods and default dates, checked before any data is read, and its units.

import { shiftMonths } from '../../kernel/dates.js';
import { AppError } from '../../kernel/errors.js';
import { ADJUSTMENTS, type Adjustment } from '../compute/adjust.js';
import { type FieldDef, lookupField } from '../fields/dictionary.js';
import { checkedAsOf, checkedDate, uniqueInputs } from '../verb/request.js';

export const MAX_HISTORY_TICKERS = 10;
export const MAX_HISTORY_FIELDS = 5;
export const PERIODS = ['daily', 'weekly', 'monthly', 'quarterly', 'annual'] as const;
export type HistoryPeriod = (typeof PERIODS)[number];

export interface HistoryRequest {
  tickers: string[];
  fields: string[];
  start?: string;
  end?: string;
  period?: HistoryPeriod;
  /** Statement fields as known at the end of this day (YYYY-MM-DD). */
  asOf?: string;
  /** How prices are adjusted: split (default), none (as traded) or total (dividends reinvested). */
  adjust?: string;
}

/** The same day `years` years away; 29 February becomes 28 February in a year without it. */
export function shiftYears(date: string, years: number): string {
  return shiftMonths(date, 12 * years);
}

export const isStatementPeriod = (p: HistoryPeriod) => p === 'quarterly' || p === 'annual';

/** Daily history reaches this many years back from its end; a longer range keeps the newest bars. */
export const DAILY_YEARS = 20;

/** A history request read: checked, each ticker and field once, its window with its defaults. */
export type ReadHistory = ReturnType<typeof readHistory>;

/** The request with its defaults, checked: the limits, the dates, the period. */
export function readHistory(request: HistoryRequest, today: string) {
  const tickers = uniqueInputs(request.tickers);
  const period = request.period ?? 'daily';
  if (!PERIODS.includes(period))
    throw new AppError('invalid_params', `period must be one of ${PERIODS.join(', ')}`);
  const fields = uniqueInputs(request.fields).map((input) => fieldFor(input, period));
  if (tickers.length === 0 || fields.length === 0)
    throw new AppError('invalid_params', 'give at least one ticker and one field');
  if (tickers.length > MAX_HISTORY_TICKERS) {
    throw new AppError(
      'invalid_params',
      `up to ${MAX_HISTORY_TICKERS} tickers a history request; ${tickers.length} given`,
    );
  }
  if (fields.length > MAX_HISTORY_FIELDS) {
    throw new AppError(
      'invalid_params',
      `up to ${MAX_HISTORY_FIELDS} fields a history request; ${fields.length} given`,
    );
  }
  checkedDate('start', request.start);
  checkedDate('end', request.end);
  const end = request.end ?? today;
  const start = request.start ?? shiftYears(end, isStatementPeriod(period) ? -5 : -1);
  if (start > end) throw new AppError('invalid_params', `start (${start}) is after end (${end})`);
  const adjust = (request.adjust ?? 'split') as Adjustment;
  if (!ADJUSTMENTS.includes(adjust))
    throw new AppError('invalid_params', `adjust must be one of ${ADJUSTMENTS.join(', ')}`);
  // Daily history reaches DAILY_YEARS back from its end: `from`, the first date served, is later than `start`
  // when the range is longer (`truncated`).
  const dailyFloor = shiftYears(end, -DAILY_YEARS);
  const truncated = !isStatementPeriod(period) && start < dailyFloor;
  const from = truncated ? dailyFloor : start;
  return {
    tickers,
    fields,
    period,
    start,
    end,
    from,
    truncated,
    asOf: checkedAsOf(request.asOf, today),
    adjust,
  };
}

/**
 * Units: one per ticker for each five calendar years of the range served; statement periods one per five
 * tickers. Years are counted on the calendar, not in days, so leap days never tip a range over: a range
 * starting on or after the same date five years before its end (29 February stepping back to the 28th, as
 * shiftYears does) is one span, and each further five years back one more. A daily range longer than
 * DAILY_YEARS is served, and charged, as exactly DAILY_YEARS.
 */
export function historyUnits(request: ReadHistory): number {
  if (isStatementPeriod(request.period)) return Math.ceil(request.tickers.length / 5);
  const most = DAILY_YEARS / 5;
  let spans = 1;
  while (spans < most && request.start < shiftYears(request.end, -5 * spans)) spans += 1;
  return request.tickers.length * spans;
}

/** A field as read against the dictionary and the period: its definition, or why it cannot be served. */
export type FieldAnswer = {
  input: string;
  def: FieldDef | null;
  alias: string | null;
  /** Asked for under an alias that returns millions. */
  millions?: boolean;
  error?: { code: string; message: string };
};

export function fieldFor(input: string, period: HistoryPeriod): FieldAnswer {
  const found = lookupField(input);
  if (found.kind === 'not_served')
    return {
      input,
      def: null,
      alias: found.name,
      error: { code: 'not_applicable', message: `${found.name}: ${found.reason}` },
    };
  if (found.kind === 'unknown')
    return { input, def: null, alias: null, error: { code: 'not_found', message: `no field "${input}"` } };
  const def = found.field;
  if (!def.history)
    return {
      input,
      def,
      alias: found.alias,
      error: { code: 'not_applicable', message: `${def.id} is not served in history` },
    };
  if (def.group === 'statement' && !isStatementPeriod(period)) {
    return {
      input,
      def,
      alias: found.alias,
      error: { code: 'not_applicable', message: `${def.id} comes quarterly or annually` },
    };
  }
  if (def.group !== 'statement' && isStatementPeriod(period)) {
    return {
      input,
      def,
      alias: found.alias,
      error: { code: 'not_applicable', message: `${def.id} comes daily, weekly or monthly` },
    };
  }
  return { input, def, alias: found.alias, millions: found.millions };
}
