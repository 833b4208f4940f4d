// Volatility and beta from closes: pure functions, tested on hand-worked numbers.
import { weekOf } from './periods.js';

/** Daily log returns of consecutive closes. */
export function logReturns(closes: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < closes.length; i += 1) out.push(Math.log(closes[i]! / closes[i - 1]!));
  return out;
}

function sampleStdDev(values: readonly number[]): number {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1));
}

/**
 * Volatility over the last `days` daily log returns: their (sample) standard deviation times the square root of
 * 260, in percent; null without `days` + 1 closes.
 */
export function volatility(closes: readonly number[], days: number): number | null {
  if (closes.length < days + 1) return null;
  return sampleStdDev(logReturns(closes.slice(-(days + 1)))) * Math.sqrt(260) * 100;
}

/** Least-squares slope of y on x. */
export function slope(x: readonly number[], y: readonly number[]): number | null {
  const n = Math.min(x.length, y.length);
  if (n < 2) return null;
  const mx = x.slice(0, n).reduce((a, b) => a + b, 0) / n;
  const my = y.slice(0, n).reduce((a, b) => a + b, 0) / n;
  let cov = 0;
  let varx = 0;
  for (let i = 0; i < n; i += 1) {
    cov += (x[i]! - mx) * (y[i]! - my);
    varx += (x[i]! - mx) ** 2;
  }
  return varx === 0 ? null : cov / varx;
}

/** A weekly close and the date of the trading day it closed on. */
export interface DatedClose {
  date: string;
  close: number;
}

/** A beta and the window it was measured over: the dates of its first and last weekly closes. */
export interface Beta {
  raw: number;
  from: string;
  to: string;
}

/**
 * Raw beta: the slope of the last `weeks` weekly returns of a series against the index's, measured on the weeks
 * both hold (paired by the week's Monday, so series that end or pause on different dates are never paired out
 * of step); null without `weeks` + 1 common weeks. The window runs from the first common week's close to the
 * last's; where the two closed on different days of a week, the earlier day is its date.
 */
export function betaRaw(
  series: readonly DatedClose[],
  index: readonly DatedClose[],
  weeks = 104,
): Beta | null {
  const indexByWeek = new Map(index.map((c) => [weekOf(c.date), c]));
  const pairs: [DatedClose, DatedClose][] = [];
  for (const c of series) {
    const other = indexByWeek.get(weekOf(c.date));
    if (other) pairs.push([c, other]);
  }
  if (pairs.length < weeks + 1) return null;
  const window = pairs.slice(-(weeks + 1));
  const returns = (side: 0 | 1) => window.slice(1).map((p, i) => p[side].close / window[i]![side].close - 1);
  const raw = slope(returns(1), returns(0));
  if (raw === null) return null;
  const dateOf = ([a, b]: [DatedClose, DatedClose]) => (a.date < b.date ? a.date : b.date);
  return { raw, from: dateOf(window[0]!), to: dateOf(window[window.length - 1]!) };
}

/** Adjusted beta: 0.67 x raw + 0.33. */
export function betaAdjusted(raw: number): number {
  return 0.67 * raw + 0.33;
}
