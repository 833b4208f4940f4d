// When the CFTC publishes the Commitments of Traders, with the late releases after lapses in appropriations.
import {
  day,
  holidayBetween,
  mondayOf,
  nextBusinessDay,
  type PeriodCalendar,
  type ReleaseCalendar,
  releaseOf,
} from '../../ingest/calendar.js';
import { addDays } from '../../kernel/dates.js';
import { eastern } from '../../kernel/eastern.js';

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
  return CAUGHT_UP.get(mondayOf(reportDate));
}

/** The catch-up releases by the Monday of their report's week (the first named, where two share one). */
const CAUGHT_UP = new Map<string, string>();
for (const { published } of CFTC_CATCH_UPS)
  for (const [date, out] of Object.entries(published)) {
    const monday = mondayOf(date);
    if (!CAUGHT_UP.has(monday)) CAUGHT_UP.set(monday, out);
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
