// The energy-inventories dataset: Energy inventories.
import { loader } from '../../ingest/run.js';
import { describe } from '../descriptor.js';
import { energyBulk } from './bulk.js';
import { energyImporter } from './import.js';
import { eiaCollection, energyFreshness } from './load/collection.js';
import { eiaRecords } from './load/records.js';
import * as m003 from './migrations/003-energy.js';
import * as m027 from './migrations/027-energy-known-at.js';
import * as m038 from './migrations/038-energy-known-from.js';
import { energyOperations } from './operations.js';
import { energySample } from './sample.js';
import { EnergyData } from './schema.js';
import { EIA } from './source.js';

export const energyDataset = describe({
  id: 'energy-inventories',
  name: 'Energy inventories',
  operations: energyOperations,
  bulk: energyBulk,
  importer: energyImporter,
  loaders: { eia: loader(energyImporter, eiaRecords) },
  collections: { eia: eiaCollection },
  migrations: { '003-energy': m003, '027-energy-known-at': m027, '038-energy-known-from': m038 },
  demo: {
    files: [
      // Each with its release (10:30 New York): the weeks ending 6 February, 5 June and (gas) 23 January 2026.
      ['eia', 'eia/psw01.xls', { published: '2026-02-11T15:30:00Z' }],
      ['eia', 'eia/wpsr_table1_week_ending_2026-06-05.csv', { published: '2026-06-10T14:30:00Z' }],
      ['eia', 'eia/ngshistory.xls', { published: '2026-01-29T15:30:00Z' }],
    ],
  },
  freshness: energyFreshness,
  sources: [EIA],
  sample: { data: energySample, schema: EnergyData },
});
