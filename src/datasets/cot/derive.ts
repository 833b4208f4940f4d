// Derived cot figures: pure functions of report values, tested on hand-worked numbers.
import { addDays } from '../../kernel/dates.js';

export interface NetPoint {
  /** Report date, YYYY-MM-DD. */
  date: string;
  net: number;
}

export interface Percentile {
  value: number | null;
  rank: number | null;
  sampleCount: number | null;
  windowStart: string | null;
  windowEnd: string | null;
  historyStart: string | null;
  historyEnd: string | null;
  completeWindow: boolean;
  min: number | null;
  max: number | null;
  mean: number | null;
}

export function net(long: number, short: number): number {
  return long - short;
}

/** A position (long, short or net) as a percent of open interest, to two decimals; null without open interest. */
export function percentOfOpenInterest(position: number, openInterest: number): number | null {
  if (!(openInterest > 0)) return null;
  return round2((position / openInterest) * 100);
}

export const netPercentOfOpenInterest = percentOfOpenInterest;

/**
 * Change of the net position since the report of the week before; null when there is none. A report after
 * a gap (a contract not reported for weeks) has no weekly change: the CFTC prints "." there.
 */
export function weeklyChange(
  current: number,
  reportDate: string,
  previous: { net: number; date: string } | null,
): number | null {
  if (previous === null || previous.date !== addDays(reportDate, -7)) return null;
  return current - previous.net;
}

/**
 * Where the latest net stands among the nets of a window of `years` x 52 weekly reports ending at its date.
 * `history` is one contract's nets, oldest first, ending with the current report. The window holds the
 * report slots from windowStart = end - (52 x years - 1) weeks to end; it is complete when the stored
 * history (which may start before the nets given) reaches back to windowStart and, given the report dates
 * the store holds for the family, none of the window's weeks is missing from the store. value is the mid-rank percentile (0 lowest, 100 highest, ties share the
 * middle); rank counts from 1 = lowest; value is null with fewer than two samples.
 */
export function percentile(
  history: readonly NetPoint[],
  years: number,
  historyStart: string | undefined = history[0]?.date,
  reportDates?: readonly string[],
): Percentile {
  const current = history[history.length - 1];
  const first = history[0];
  if (!current || !first) {
    return {
      value: null,
      rank: null,
      sampleCount: null,
      windowStart: null,
      windowEnd: null,
      historyStart: null,
      historyEnd: null,
      completeWindow: false,
      min: null,
      max: null,
      mean: null,
    };
  }
  const windowEnd = current.date;
  const windowStart = addDays(windowEnd, -(52 * years - 1) * 7);
  const samples = history.filter((p) => p.date >= windowStart && p.date <= windowEnd).map((p) => p.net);
  const below = samples.filter((v) => v < current.net).length;
  const equal = samples.filter((v) => v === current.net).length;
  const n = samples.length;
  return {
    value: n < 2 ? null : round2((100 * (below + (equal - 1) / 2)) / (n - 1)),
    rank: below + 1,
    sampleCount: n,
    windowStart,
    windowEnd,
    historyStart: historyStart ?? first.date,
    historyEnd: current.date,
    completeWindow:
      (historyStart ?? first.date) <= windowStart &&
      (reportDates === undefined || everyWeekHeld(reportDates, windowStart, windowEnd)),
    min: Math.min(...samples),
    max: Math.max(...samples),
    mean: round2(samples.reduce((a, b) => a + b, 0) / n),
  };
}

/**
 * Whether the store holds a report for every week from `start` to `end`: some report date within three days
 * of each weekly slot (a holiday moves an as-of date to the Monday). `dates` ascending.
 */
export function everyWeekHeld(dates: readonly string[], start: string, end: string): boolean {
  let i = 0;
  for (let slot = start; slot <= end; slot = addDays(slot, 7)) {
    const from = addDays(slot, -3);
    const to = addDays(slot, 3);
    while (i < dates.length && dates[i]! < from) i += 1;
    if (i >= dates.length || dates[i]! > to) return false;
  }
  return true;
}

export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
