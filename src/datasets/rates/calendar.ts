// When Treasury's daily rates come out: a day of the US government bond market, the rates taken from quotes at
// about 3:30 PM New York time and posted later that afternoon. The market's closures are the federal holidays
// but for three, and Good Friday but in the years it traded (every closure here is one Treasury's own files
// show as a day without rates, 1990 to 2025).
import { federalHolidays, type PeriodCalendar, type ReleaseCalendar } from '../../ingest/calendar.js';
import { addDays, weekday } from '../../kernel/dates.js';
import { eastern } from '../../kernel/eastern.js';

/** Days the bond market closed for an event: funerals of state, 11 September 2001, hurricane Sandy. */
const CLOSED = new Set(['1994-04-27', '2001-09-11', '2001-09-12', '2004-06-11', '2012-10-30', '2018-12-05']);

/** Good Fridays the market traded (an early close on the day of the monthly employment report). */
const GOOD_FRIDAYS_OPEN = new Set([1996, 1999, 2007, 2010, 2012, 2015, 2021, 2023]);

/** Easter Sunday of a Gregorian year (the anonymous algorithm). */
function easter(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * Whether the bond market traded on `date`: a weekday that is not a federal holiday as observed — except the
 * Friday before a New Year's Day or a Veterans Day on a Saturday, and Juneteenth 2021, which traded — nor Good
 * Friday (but in the years it traded), nor a day it closed for an event.
 */
export function isBondMarketDay(date: string): boolean {
  if (weekday(date) % 6 === 0 || CLOSED.has(date)) return false;
  const year = Number(date.slice(0, 4));
  if (date === addDays(easter(year), -2)) return GOOD_FRIDAYS_OPEN.has(year);
  if (!federalHolidays(year).has(date)) return true;
  return date.endsWith('-12-31') || date === `${year}-11-10` || date === '2021-06-18';
}

/** Treasury posts a day's rates by 18:00 New York time: the latest taken, as the hour is not fixed. */
const POSTED_BY = [18, 0] as const;

/** A bond market day's rates, posted that evening. */
export const TREASURY_DAILY: ReleaseCalendar = {
  rule: 'bond market days, by 18:00 ET (rates from quotes at about 15:30 ET, posted that afternoon)',
  periodDays: 1,
  releases: (date) => (isBondMarketDay(date) ? [eastern(date, ...POSTED_BY)] : []),
};

/** The next bond market day after `date`. */
function nextMarketDay(date: string): string {
  let d = addDays(date, 1);
  while (!isBondMarketDay(d)) d = addDays(d, 1);
  return d;
}

/** The daily curve: a bond market day's rates are out by that evening. */
export const TREASURY_DAYS: PeriodCalendar = {
  publisher: 'Treasury',
  period: 'report',
  noun: 'daily curve',
  next: nextMarketDay,
  published: (date) => new Date(eastern(date, ...POSTED_BY)),
  fixedDay: false,
};
