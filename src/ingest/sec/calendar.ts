// When EDGAR's filings of a day are all in.
import { eastern } from '../../kernel/eastern.js';
import { isBusinessDay, type ReleaseCalendar } from '../calendar.js';

/** SEC EDGAR: filings are accepted on business days until 22:00 ET; a watch list is read once EDGAR closes. */
export const SEC_EDGAR: ReleaseCalendar = {
  rule: 'business days 22:15 ET (after EDGAR stops accepting filings for the day)',
  periodDays: 1,
  releases(date) {
    return isBusinessDay(date) ? [eastern(date, 22, 15)] : [];
  },
};
