// Calendar dates as the store and the agencies write them: YYYY-MM-DD, in UTC.

const DAY = 86_400_000;

/** The date `days` after `date` (before, when negative). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
}

/** The same day `years` earlier, as written (29 February may give a date that does not exist only as text). */
export function yearsBefore(date: string, years: number): string {
  return `${Number(date.slice(0, 4)) - years}${date.slice(4, 10)}`;
}

/** 0 Sunday … 6 Saturday. */
export function weekday(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}
