// Where the CFTC publishes the reports the cftc loader reads: each year's futures-only history, legacy and
// disaggregated, zipped as the CFTC ships it and updated with every weekly release (the archive), and the
// current week's files without a header that it replaces at each release. The previous year's files are asked
// for too, so the last weeks of a year are collected after New Year.

import type { Kysely } from 'kysely';
import type { Collection } from '../../../ingest/collect.js';
import type { Database } from '../../../store/schema.js';
import { freshnessSource } from '../../freshness.js';
import { knownAt } from '../../known.js';
import { CFTC_COT, CFTC_REPORTS } from '../calendar.js';

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

/** A report family: its newest report held (or known at an instant). */
const family = (name: 'legacy' | 'disaggregated') => ({
  name,
  periods: CFTC_REPORTS,
  lastPeriod: async (db: Kysely<Database>, at: string | null) =>
    (
      await db
        .selectFrom('cot_records')
        .select((eb) => eb.fn.max('report_date').as('last'))
        .where('report_family', '=', name)
        .where(knownAt(at))
        .executeTakeFirst()
    )?.last ?? null,
});

/**
 * What cot's freshness is judged from: its records, its collection, and each report family on the CFTC's
 * calendar (the legacy and disaggregated histories are loaded from different files and may end apart).
 */
export const cotFreshness = freshnessSource('cot', 'cot_records', cftcCollection, [
  family('legacy'),
  family('disaggregated'),
]);
