// Where the EIA publishes what the eia loader reads: the Weekly Petroleum Status Report's stocks workbook
// (with its release calendar) and Table 1, and the weekly natural gas storage history.
import { EIA_WEEKS, EIA_WNGSR, EIA_WPSR } from '../../../ingest/calendar.js';
import type { Collection } from '../../../ingest/collect.js';
import { freshnessSource } from '../../freshness.js';

export const eiaCollection: Collection = {
  agency: { id: 'eia', variable: 'QUARRY_EIA_URL', url: 'https://ir.eia.gov' },
  schedules: [
    { job: 'eia-petroleum', calendar: EIA_WPSR, paths: /^\/wpsr\// },
    { job: 'eia-gas-storage', calendar: EIA_WNGSR, paths: /^\/ngs\// },
  ],
  files: () => ['/wpsr/psw01.xls', '/wpsr/table1.csv', '/ngs/ngshistory.xls'],
};

/** What energy-inventories's freshness is judged from: its records, its collection, and the calendar of its periods. */
export const energyFreshness = freshnessSource(
  'energy-inventories',
  'energy_observations',
  eiaCollection,
  EIA_WEEKS,
);
