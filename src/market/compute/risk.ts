// Volatility and beta from closes: pure functions, tested on hand-worked numbers.

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

/** Raw beta: the slope of the last 104 weekly returns against the index's; null without 105 weeks of both. */
export function betaRaw(
  weeklyCloses: readonly number[],
  indexWeeklyCloses: readonly number[],
  weeks = 104,
): number | null {
  if (weeklyCloses.length < weeks + 1 || indexWeeklyCloses.length < weeks + 1) return null;
  const simple = (c: readonly number[]) =>
    c
      .slice(-(weeks + 1))
      .slice(1)
      .map((v, i) => v / c.slice(-(weeks + 1))[i]! - 1);
  return slope(simple(indexWeeklyCloses), simple(weeklyCloses));
}

/** Adjusted beta: 0.67 x raw + 0.33. */
export function betaAdjusted(raw: number | null): number | null {
  return raw === null ? null : 0.67 * raw + 0.33;
}
