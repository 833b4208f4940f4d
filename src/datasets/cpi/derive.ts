// Derived CPI figures: pure functions of monthly index levels (period "YYYY-MM" -> index value).
// Percent changes are rounded to one decimal as BLS publishes them; contributions to three decimals.

export type IndexSeries = ReadonlyMap<string, number>;

/** The period `months` before `period` (YYYY-MM). */
export function monthsBefore(period: string, months: number): string {
  const [y, m] = period.split('-').map(Number) as [number, number];
  const total = y * 12 + (m - 1) - months;
  return `${Math.floor(total / 12)}-${String((total % 12) + 1).padStart(2, '0')}`;
}

function ratio(series: IndexSeries, period: string, months: number): number | null {
  const now = series.get(period);
  const then = series.get(monthsBefore(period, months));
  return now === undefined || then === undefined || then === 0 ? null : now / then;
}

/** Percent change over `months` (1: month on month, 12: year on year); `digits` null: unrounded. */
export function percentChange(
  series: IndexSeries,
  period: string,
  months: number,
  digits: number | null = 1,
): number | null {
  const r = ratio(series, period, months);
  if (r === null) return null;
  return digits === null ? r * 100 - 100 : round(r * 100 - 100, digits);
}

/** Percent change over `months`, compounded to an annual rate. */
export function annualized(series: IndexSeries, period: string, months: number): number | null {
  const r = ratio(series, period, months);
  return r === null ? null : round((r ** (12 / months) - 1) * 100, 1);
}

/**
 * Relative importance carried from its December reference to a later month, as BLS updates it: the weight
 * grows with the item's price relative to all items. Without the indexes it stays as published.
 */
export function weightAt(
  weight: number,
  weightsPeriod: string,
  period: string,
  item: IndexSeries,
  allItems: IndexSeries,
): number {
  const i0 = item.get(weightsPeriod);
  const i1 = item.get(period);
  const a0 = allItems.get(weightsPeriod);
  const a1 = allItems.get(period);
  if (!i0 || !i1 || !a0 || !a1) return weight;
  return (weight * (i1 / i0)) / (a1 / a0);
}

/**
 * Contribution to the all-items change, in percentage points: the item's weight (percent of all items) at
 * the start of the span times its (unrounded) percent change over the span.
 */
export function contribution(weightAtStart: number | null, change: number | null): number | null {
  if (weightAtStart === null || change === null) return null;
  return round((weightAtStart * change) / 100, 3);
}

/** Whether the recent pace is above or below the longer one. */
export function readPace(annualized3m: number | null, annualized6m: number | null): string | null {
  if (annualized3m === null || annualized6m === null) return null;
  const gap = round(annualized3m - annualized6m, 1);
  if (Math.abs(gap) < 0.5) return 'steady: 3-month pace close to the 6-month pace';
  return gap > 0
    ? 'accelerating: 3-month pace above the 6-month pace'
    : 'cooling: 3-month pace below the 6-month pace';
}

export function round(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}
