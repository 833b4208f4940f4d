// Where the EIA publishes what the eia loader reads: the Weekly Petroleum Status Report's stocks workbook
// (with its release calendar) and Table 1, and the weekly natural gas storage history.
import type { Kysely } from 'kysely';
import type { PeriodCalendar } from '../../../ingest/calendar.js';
import type { Collection } from '../../../ingest/collect.js';
import type { Database } from '../../../store/schema.js';
import { freshnessSource } from '../../freshness.js';
import { knownAt } from '../../known.js';
import { EIA_GAS_WEEKS, EIA_WEEKS, EIA_WNGSR, EIA_WPSR } from '../calendar.js';

export const eiaCollection: Collection = {
  agency: { id: 'eia', variable: 'QUARRY_EIA_URL', url: 'https://ir.eia.gov' },
  schedules: [
    { job: 'eia-petroleum', calendar: EIA_WPSR, paths: /^\/wpsr\// },
    { job: 'eia-gas-storage', calendar: EIA_WNGSR, paths: /^\/ngs\// },
  ],
  files: () => ['/wpsr/psw01.xls', '/wpsr/table1.csv', '/ngs/ngshistory.xls'],
};

/** A report's series: the newest week held (or known at an instant). */
const report = (name: string, id: 'wpsr' | 'wngsr', periods: PeriodCalendar) => ({
  name,
  periods,
  lastPeriod: async (db: Kysely<Database>, at: string | null) =>
    (
      await db
        .selectFrom('energy_observations')
        .select((eb) => eb.fn.max('week_ending').as('last'))
        .where(knownAt(at))
        .where('series_id', 'in', db.selectFrom('energy_series').select('series_id').where('report', '=', id))
        .executeTakeFirst()
    )?.last ?? null,
});

/**
 * What energy-inventories's freshness is judged from: its records, its collection, and its two reports, each on
 * its own calendar (the petroleum status report on Wednesdays, gas storage on Thursdays).
 */
export const energyFreshness = freshnessSource('energy-inventories', 'energy_observations', eiaCollection, [
  report('petroleum', 'wpsr', EIA_WEEKS),
  report('natural gas', 'wngsr', EIA_GAS_WEEKS),
]);
