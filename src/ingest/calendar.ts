// How release calendars are made: US federal holidays and business days, a calendar of release instants and
// one of periods, in Eastern time. Each agency's own calendar lives with the datasets or source that follow
// it. Pure: dates in, instants out.
import { addDays, weekday } from '../kernel/dates.js';
import { keptPerOwner } from '../kernel/kept.js';

const ymd = (year: number, month: number, day: number): string =>
  new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10);

/** The `n`th `day` (0 Sunday … 6 Saturday) of a month; n = -1: the last. */
export function nthWeekday(year: number, month: number, day: number, n: number): string {
  if (n > 0) {
    const first = weekday(ymd(year, month, 1));
    return ymd(year, month, 1 + ((day - first + 7) % 7) + (n - 1) * 7);
  }
  const last = ymd(year, month + 1, 0);
  return addDays(last, -((weekday(last) - day + 7) % 7));
}

/** A fixed-date holiday on a Saturday is observed the Friday before, on a Sunday the Monday after. */
function observed(date: string): string {
  const d = weekday(date);
  return d === 6 ? addDays(date, -1) : d === 0 ? addDays(date, 1) : date;
}

const cache = new Map<number, Set<string>>();

/** US federal holidays as observed in `year` (5 U.S.C. 6103), Juneteenth from 2021. */
export function federalHolidays(year: number): Set<string> {
  let days = cache.get(year);
  if (days) return days;
  const fixed = [ymd(year, 1, 1), ymd(year, 7, 4), ymd(year, 11, 11), ymd(year, 12, 25)];
  if (year >= 2021) fixed.push(ymd(year, 6, 19));
  days = new Set(
    [
      ...fixed.map(observed),
      // New Year's Day of the next year, on a Saturday, is observed on 31 December of this one.
      observed(ymd(year + 1, 1, 1)),
      nthWeekday(year, 1, 1, 3), // Birthday of Martin Luther King, Jr.
      nthWeekday(year, 2, 1, 3), // Washington's Birthday
      nthWeekday(year, 5, 1, -1), // Memorial Day
      nthWeekday(year, 9, 1, 1), // Labor Day
      nthWeekday(year, 10, 1, 2), // Columbus Day
      nthWeekday(year, 11, 4, 4), // Thanksgiving Day
    ].filter((d) => d.startsWith(String(year))),
  );
  cache.set(year, days);
  return days;
}

export const isHoliday = (date: string): boolean => federalHolidays(Number(date.slice(0, 4))).has(date);
export const isBusinessDay = (date: string): boolean => weekday(date) % 6 !== 0 && !isHoliday(date);

/** The first business day after `date`. */
export function nextBusinessDay(date: string): string {
  let d = addDays(date, 1);
  while (!isBusinessDay(d)) d = addDays(d, 1);
  return d;
}

/** When a report comes out: the release of the week that starts on `monday`, or of the day `date`. */
export interface ReleaseCalendar {
  /** What the calendar follows, in words (for operators and the docs). */
  rule: string;
  /** Releases of one period (a week from its Monday, or one day): ISO instants, oldest first. */
  releases(periodStart: string): string[];
  /** Days from one period's start to the next: 7 for a weekly report, 1 for a daily poll. */
  periodDays: number;
}

/** The first release after `after`. */
export function nextRelease(calendar: ReleaseCalendar, after: Date): Date {
  let start = periodStartOf(calendar, after.toISOString().slice(0, 10), true);
  for (let i = 0; i < 400; i += 1, start = addDays(start, calendar.periodDays)) {
    const found = calendar.releases(start).find((at) => Date.parse(at) > after.getTime());
    if (found) return new Date(found);
  }
  throw new Error(`no release within 400 periods after ${after.toISOString()}`);
}

/** The last release at or before `at`. */
export function lastRelease(calendar: ReleaseCalendar, at: Date): Date {
  let start = periodStartOf(calendar, at.toISOString().slice(0, 10), false);
  for (let i = 0; i < 400; i += 1, start = addDays(start, -calendar.periodDays)) {
    const found = calendar
      .releases(start)
      .filter((r) => Date.parse(r) <= at.getTime())
      .at(-1);
    if (found) return new Date(found);
  }
  throw new Error(`no release within 400 periods before ${at.toISOString()}`);
}

/**
 * The period to start a search from. A weekly release can fall in the week after its own (a Monday after a
 * holiday): searching forward starts a week early; searching back starts at the date's own week.
 */
function periodStartOf(calendar: ReleaseCalendar, date: string, forward: boolean): string {
  if (calendar.periodDays !== 7) return forward ? addDays(date, -1) : date;
  const monday = addDays(date, -((weekday(date) + 6) % 7));
  return forward ? addDays(monday, -7) : monday;
}

/** The Monday of a date's week. */
export const mondayOf = (date: string) => addDays(date, -((weekday(date) + 6) % 7));
/** Weekdays of a week as dates: 1 Monday … 5 Friday. */
export const day = (monday: string, n: number) => addDays(monday, n - 1);
export const holidayBetween = (monday: string, from: number, to: number) =>
  [...Array(to - from + 1).keys()].some((i) => isHoliday(day(monday, from + i)));

/**
 * How an agency publishes a dataset one period at a time (a report date, a week, a month): when each
 * period's figures come out, so that freshness is judged from the calendar whether or not a collector runs.
 */
export interface PeriodCalendar {
  /** Who publishes, what one period is called, and what one publication is: "the CFTC", "report", "report". */
  publisher: string;
  period: 'report' | 'week' | 'month';
  noun: string;
  /** The period after `period` (YYYY-MM-DD, or YYYY-MM for a month). */
  next(period: string): string;
  /** When the period's figures are out: the release instant, or the latest it comes where the day is not fixed. */
  published(period: string): Date;
  /** Whether published() is the release instant itself (false: only the latest it comes, the BLS's CPI). */
  fixedDay: boolean;
}

/**
 * The periods after `last` whose figures were out by `now` (how many), and when the first one not yet out
 * comes (or by when, where the calendar fixes no day): one walk of the calendar.
 */
export function periodsAfter(
  calendar: PeriodCalendar,
  last: string,
  now: Date,
): { since: number; next: Date } {
  let since = 0;
  let period = calendar.next(last);
  let published = calendar.published(period);
  while (published <= now) {
    since += 1;
    period = calendar.next(period);
    published = calendar.published(period);
  }
  return { since, next: published };
}

/** Periods after `last` whose figures were out by `now`. */
export function releasesSince(calendar: PeriodCalendar, last: string, now: Date): number {
  return periodsAfter(calendar, last, now).since;
}

/** A week's release instant, by calendar and week: a load asks for the same few weeks once per record. */
const releaseTimes = keptPerOwner<ReleaseCalendar, number>();
export function releaseOf(calendar: ReleaseCalendar, monday: string): Date {
  return new Date(releaseTimes(calendar, monday, () => Date.parse(calendar.releases(monday)[0]!)));
}
