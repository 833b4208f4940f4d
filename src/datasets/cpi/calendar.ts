// When the BLS publishes the CPI: a day of its own schedule, which is not held here.
import { isBusinessDay, type PeriodCalendar, type ReleaseCalendar } from '../../ingest/calendar.js';
import { eastern } from '../../kernel/eastern.js';

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
