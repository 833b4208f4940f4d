// Derived energy-inventory figures: pure functions of weekly observations.
// "The same week" of an earlier year is the observation whose week ends within three days of the same
// calendar date that many years before (weeks end on Fridays, so exactly one observation can match).

export interface Observation {
  weekEnding: string;
  value: number;
}

const DAY = 86_400_000;
const SAME_WEEK_DAYS = 3;

function time(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

/** The observation of the same week `years` before `date`, or null. `history` is sorted by date. */
export function sameWeek(history: readonly Observation[], date: string, years: number): Observation | null {
  const target = new Date(time(date));
  target.setUTCFullYear(target.getUTCFullYear() - years);
  const t = target.getTime();
  for (const o of history) {
    const d = time(o.weekEnding);
    if (Math.abs(d - t) <= SAME_WEEK_DAYS * DAY) return o;
    if (d > t + SAME_WEEK_DAYS * DAY) break;
  }
  return null;
}

export function weekChange(current: number, previous: number | null): number | null {
  return previous === null ? null : round3(current - previous);
}

export function yearAgo(history: readonly Observation[], date: string): number | null {
  return sameWeek(history, date, 1)?.value ?? null;
}

/** The average of the same week over the five prior years; null unless all five are stored. */
export function fiveYearAverage(history: readonly Observation[], date: string): number | null {
  const values: number[] = [];
  for (let years = 1; years <= 5; years += 1) {
    const o = sameWeek(history, date, years);
    if (!o) return null;
    values.push(o.value);
  }
  return round3(values.reduce((a, b) => a + b, 0) / values.length);
}

/** The average week change of the same week over the five prior years (the seasonal norm). */
export function seasonalChange(history: readonly Observation[], date: string): number | null {
  const changes: number[] = [];
  for (let years = 1; years <= 5; years += 1) {
    const o = sameWeek(history, date, years);
    if (!o) return null;
    const index = history.indexOf(o);
    const before = index > 0 ? history[index - 1] : undefined;
    if (!before || time(o.weekEnding) - time(before.weekEnding) > 8 * DAY) return null;
    changes.push(o.value - before.value);
  }
  return round3(changes.reduce((a, b) => a + b, 0) / changes.length);
}

/** Where the level stands against its five-year average, in words a reader can scan. */
export function readLevel(value: number, fiveYear: number | null): string | null {
  if (fiveYear === null || fiveYear === 0) return null;
  const percent = Math.round(((value - fiveYear) / Math.abs(fiveYear)) * 1000) / 10;
  if (percent === 0) return 'at the five-year average';
  return `${Math.abs(percent)}% ${percent > 0 ? 'above' : 'below'} the five-year average`;
}

/** Whether this week is, over the last five years, one of seasonal builds or draws. */
export function readSeason(norm: number | null): string | null {
  if (norm === null) return null;
  if (norm > 0) return 'seasonal build';
  if (norm < 0) return 'seasonal draw';
  return 'seasonally flat';
}

export function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
