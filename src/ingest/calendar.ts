// When the agencies publish: US federal holidays and each report's weekly release rule, in Eastern time.
// Pure: dates in, instants out.
import { addDays, weekday } from '../kernel/dates.js';
import { eastern } from '../kernel/eastern.js';

const ymd = (year: number, month: number, day: number): string =>
  new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10);

/** The `n`th `day` (0 Sunday … 6 Saturday) of a month; n = -1: the last. */
function nthWeekday(year: number, month: number, day: number, n: number): string {
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
const mondayOf = (date: string) => addDays(date, -((weekday(date) + 6) % 7));
/** Weekdays of a week as dates: 1 Monday … 5 Friday. */
const day = (monday: string, n: number) => addDays(monday, n - 1);
const holidayBetween = (monday: string, from: number, to: number) =>
  [...Array(to - from + 1).keys()].some((i) => isHoliday(day(monday, from + i)));

/**
 * Reports the CFTC published late after a lapse in appropriations, by report date: the day each came out
 * (15:30 ET), from the catch-up schedules the CFTC announced (29 January 2019, from the report of 24 December
 * 2018, one a Tuesday and one a Friday until current on 8 March 2019; 18 November 2025, from the report of
 * 30 September 2025 until current on 23 January 2026). Regular Friday releases between the first missed one
 * and the catch-up's end did not happen. The October 2013 lapse is not held: its catch-up dates are not known
 * here, so reports of that October are timed by the regular rule.
 */
export const CFTC_CATCH_UPS: readonly { suspended: [string, string]; published: Record<string, string> }[] = [
  {
    suspended: ['2018-12-28', '2019-03-07'],
    published: {
      '2018-12-24': '2019-02-01',
      '2018-12-31': '2019-02-05',
      '2019-01-08': '2019-02-08',
      '2019-01-15': '2019-02-12',
      '2019-01-22': '2019-02-15',
      '2019-01-29': '2019-02-19',
      '2019-02-05': '2019-02-22',
      '2019-02-12': '2019-02-26',
      '2019-02-19': '2019-03-01',
      '2019-02-26': '2019-03-05',
    },
  },
  {
    suspended: ['2025-10-03', '2026-01-22'],
    published: {
      '2025-09-30': '2025-11-19',
      '2025-10-07': '2025-11-21',
      '2025-10-14': '2025-11-25',
      '2025-10-21': '2025-12-02',
      '2025-10-28': '2025-12-05',
      '2025-11-04': '2025-12-09',
      '2025-11-10': '2025-12-12',
      '2025-11-18': '2025-12-16',
      '2025-11-25': '2025-12-19',
      '2025-12-02': '2025-12-23',
      '2025-12-09': '2025-12-30',
      '2025-12-16': '2026-01-06',
      '2025-12-23': '2026-01-09',
      '2025-12-30': '2026-01-13',
      '2026-01-06': '2026-01-16',
      '2026-01-13': '2026-01-20',
    },
  },
];

/**
 * The day a late report came out (CFTC_CATCH_UPS), found by the week of its report date: a report is dated
 * the Tuesday of its week, or the Monday when the Tuesday is a holiday; undefined for a report on time.
 */
function caughtUp(reportDate: string): string | undefined {
  const monday = mondayOf(reportDate);
  for (const { published } of CFTC_CATCH_UPS)
    for (const [date, out] of Object.entries(published)) if (mondayOf(date) === monday) return out;
  return undefined;
}

/** The regular day of a week's COT release: Friday, or the next business day after a holiday Tuesday to Friday. */
function cotFriday(monday: string): string {
  const friday = day(monday, 5);
  return holidayBetween(monday, 2, 5) ? nextBusinessDay(friday) : friday;
}

/** The regular rule alone, for reports that came out on time. */
const CFTC_ON_TIME: ReleaseCalendar = {
  rule: 'Fridays 15:30 ET',
  periodDays: 7,
  releases: (monday) => [eastern(cotFriday(monday), 15, 30)],
};

/**
 * CFTC Commitments of Traders: Friday 15:30 ET. A federal holiday from Tuesday (the as-of day) to Friday
 * moves it to the next business day; a Monday holiday does not (the CFTC's published 2024 schedule). During a
 * lapse in appropriations nothing comes out, and the catch-up releases come on the days the CFTC announced.
 */
export const CFTC_COT: ReleaseCalendar = {
  rule:
    'Fridays 15:30 ET; a federal holiday Tuesday to Friday moves the release to the next business day; ' +
    'after the 2018-19 and 2025 lapses in appropriations, the catch-up days the CFTC announced',
  periodDays: 7,
  releases(monday) {
    const date = cotFriday(monday);
    const regular = CFTC_CATCH_UPS.some(({ suspended: [from, to] }) => date >= from && date <= to)
      ? []
      : [date];
    const late = CFTC_CATCH_UPS.flatMap(({ published }) =>
      Object.values(published).filter((d) => d >= monday && d < day(monday, 8)),
    );
    return [...late, ...regular].sort().map((d) => eastern(d, 15, 30));
  },
};

/** EIA Weekly Petroleum Status Report: Wednesday 10:30 ET, a day later after a holiday Monday to Wednesday. */
export const EIA_WPSR: ReleaseCalendar = {
  rule: 'Wednesdays 10:30 ET; a federal holiday Monday to Wednesday moves it to the next business day',
  periodDays: 7,
  releases(monday) {
    const wednesday = day(monday, 3);
    return [eastern(holidayBetween(monday, 1, 3) ? nextBusinessDay(wednesday) : wednesday, 10, 30)];
  },
};

/**
 * EIA Weekly Natural Gas Storage Report: Thursday 10:30 ET; Thanksgiving week the Wednesday at 12:00; a day
 * later after another holiday Monday to Thursday.
 */
export const EIA_WNGSR: ReleaseCalendar = {
  rule: 'Thursdays 10:30 ET; Thanksgiving week Wednesday 12:00 ET; a federal holiday Monday to Thursday moves it to the next business day',
  periodDays: 7,
  releases(monday) {
    const thursday = day(monday, 4);
    if (thursday === nthWeekday(Number(thursday.slice(0, 4)), 11, 4, 4))
      return [eastern(day(monday, 3), 12, 0)];
    return [eastern(holidayBetween(monday, 1, 4) ? nextBusinessDay(thursday) : thursday, 10, 30)];
  },
};

/**
 * BLS CPI: released at 08:30 ET on a day of the BLS's own schedule, which Quarry does not hold; every
 * business day at 08:35 ET is a possible release, and the conditional fetch makes a day without one cheap.
 */
export const BLS_CPI: ReleaseCalendar = {
  rule: 'business days 08:35 ET (the CPI comes out at 08:30 ET on a day of the BLS schedule)',
  periodDays: 1,
  releases(date) {
    return isBusinessDay(date) ? [eastern(date, 8, 35)] : [];
  },
};

/** SEC EDGAR: filings are accepted on business days until 22:00 ET; a watch list is read once EDGAR closes. */
export const SEC_EDGAR: ReleaseCalendar = {
  rule: 'business days 22:15 ET (after EDGAR stops accepting filings for the day)',
  periodDays: 1,
  releases(date) {
    return isBusinessDay(date) ? [eastern(date, 22, 15)] : [];
  },
};

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

/** Release instants by calendar and week: a load asks for the same few weeks once per record. */
const releaseTimes = new WeakMap<ReleaseCalendar, Map<string, number>>();
function releaseOf(calendar: ReleaseCalendar, monday: string): Date {
  let weeks = releaseTimes.get(calendar);
  if (!weeks) {
    weeks = new Map();
    releaseTimes.set(calendar, weeks);
  }
  let time = weeks.get(monday);
  if (time === undefined) {
    time = Date.parse(calendar.releases(monday)[0]!);
    weeks.set(monday, time);
  }
  return new Date(time);
}

/** Commitments of Traders: a report dated Tuesday comes out that week (CFTC_COT), or late (CFTC_CATCH_UPS). */
export const CFTC_REPORTS: PeriodCalendar = {
  publisher: 'the CFTC',
  period: 'report',
  noun: 'report',
  next: (date) => addDays(date, 7),
  published: (date) => {
    const late = caughtUp(date);
    return late ? new Date(eastern(late, 15, 30)) : releaseOf(CFTC_ON_TIME, mondayOf(date));
  },
  fixedDay: true,
};

/** EIA's weekly petroleum figures: a week ending Friday comes out the week after (EIA_WPSR). */
export const EIA_WEEKS: PeriodCalendar = {
  publisher: 'the EIA',
  period: 'week',
  noun: 'weekly report',
  next: (date) => addDays(date, 7),
  published: (date) => releaseOf(EIA_WPSR, addDays(mondayOf(date), 7)),
  fixedDay: true,
};

/** EIA's weekly gas storage figures: a week ending Friday comes out the Thursday after (EIA_WNGSR). */
export const EIA_GAS_WEEKS: PeriodCalendar = {
  ...EIA_WEEKS,
  published: (date) => releaseOf(EIA_WNGSR, addDays(mondayOf(date), 7)),
};

/**
 * BLS CPI: a month's index comes out in the month after, on a day of the BLS schedule (between the 10th and
 * the 15th in most years); the 20th is taken as the latest, so a count never claims a release not yet out.
 */
export const BLS_MONTHS: PeriodCalendar = {
  publisher: 'the BLS',
  period: 'month',
  noun: 'monthly release',
  next: (month) => {
    const [year, m] = month.split('-').map(Number) as [number, number];
    return m === 12 ? `${year + 1}-01` : `${year}-${String(m + 1).padStart(2, '0')}`;
  },
  published: (month) => new Date(eastern(`${BLS_MONTHS.next(month)}-20`, 8, 30)),
  fixedDay: false,
};
