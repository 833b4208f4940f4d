// US Eastern time, where the agencies publish: their release times are wall-clock times in New York.

/** Offset of US Eastern time from UTC on a date: -4 from the second Sunday of March to the first of November. */
export function easternOffsetHours(date: string): number {
  const year = Number(date.slice(0, 4));
  const nthSunday = (month: number, n: number) => {
    const first = new Date(Date.UTC(year, month, 1)).getUTCDay();
    return 1 + ((7 - first) % 7) + (n - 1) * 7;
  };
  const start = `${year}-03-${String(nthSunday(2, 2)).padStart(2, '0')}`;
  const end = `${year}-11-${String(nthSunday(10, 1)).padStart(2, '0')}`;
  return date >= start && date < end ? -4 : -5;
}

/** A wall-clock time in US Eastern time on `date`, as an ISO instant. */
export function eastern(date: string, hour: number, minute: number, second = 0): string {
  const utc = Date.UTC(
    Number(date.slice(0, 4)),
    Number(date.slice(5, 7)) - 1,
    Number(date.slice(8, 10)),
    hour,
    minute,
    second,
  );
  return new Date(utc - easternOffsetHours(date) * 3_600_000).toISOString();
}
