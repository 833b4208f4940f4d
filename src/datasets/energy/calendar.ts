// When the EIA publishes its weekly petroleum and natural gas storage reports.
import {
  day,
  holidayBetween,
  mondayOf,
  nextBusinessDay,
  nthWeekday,
  type PeriodCalendar,
  type ReleaseCalendar,
  releaseOf,
} from '../../ingest/calendar.js';
import { addDays } from '../../kernel/dates.js';
import { eastern } from '../../kernel/eastern.js';

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
