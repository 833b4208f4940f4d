// Calendar dates as the store and the agencies write them: YYYY-MM-DD, in UTC.

const DAY = 86_400_000;

/** The date `days` after `date` (before, when negative). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY);
}

/** The same day `years` earlier, as written (29 February may give a date that does not exist only as text). */
export function yearsBefore(date: string, years: number): string {
  return `${Number(date.slice(0, 4)) - years}${date.slice(4, 10)}`;
}

/** The same day `months` later (earlier, when negative); the last day of a shorter month where it has no such day. */
export function shiftMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last));
  return first.toISOString().slice(0, 10);
}

/** 0 Sunday … 6 Saturday. */
export function weekday(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

const dayNames = new Map<number, string>();

/** The UTC date of a Unix time in seconds (day names are kept: a series names the same days again and again). */
export function dayOfEpoch(seconds: number): string {
  const day = Math.floor(seconds / 86_400);
  let name = dayNames.get(day);
  if (name === undefined) {
    name = new Date(day * DAY).toISOString().slice(0, 10);
    dayNames.set(day, name);
  }
  return name;
}
