// Where the CFTC publishes the reports the cftc loader reads: each year's futures-only history, legacy and
// disaggregated, zipped as the CFTC ships it and updated with every weekly release (the archive), and the
// current week's files without a header that it replaces at each release. The previous year's files are asked
// for too, so the last weeks of a year are collected after New Year.
import { CFTC_COT, CFTC_REPORTS } from '../../../ingest/calendar.js';
import type { Collection } from '../../../ingest/collect.js';
import { freshnessSource } from '../../freshness.js';

export const cftcCollection: Collection = {
  agency: { id: 'cftc', variable: 'QUARRY_CFTC_URL', url: 'https://www.cftc.gov' },
  schedules: [{ job: 'cftc', calendar: CFTC_COT }],
  files(now) {
    const year = now.getUTCFullYear();
    return [
      ...[year - 1, year].flatMap((y) => [
        `/files/dea/history/deacot${y}.zip`,
        `/files/dea/history/fut_disagg_txt_${y}.zip`,
      ]),
      '/dea/newcot/deafut.txt',
      '/dea/newcot/f_disagg.txt',
    ];
  },
};

/** What cot's freshness is judged from: its records, its collection, and the calendar of its periods. */
export const cotFreshness = freshnessSource('cot', 'cot_records', cftcCollection, CFTC_REPORTS);
