// The energy-inventories dataset: Energy inventories.
import { loader } from '../../ingest/run.js';
import { describe } from '../descriptor.js';
import { energyImporter } from './import.js';
import { eiaCollection, energyFreshness } from './load/collection.js';
import { eiaRecords } from './load/records.js';
import * as m003 from './migrations/003-energy.js';
import * as m027 from './migrations/027-energy-known-at.js';
import { energyOperations } from './operations.js';
import { energySample } from './sample.js';
import { EnergyData } from './schema.js';
import { EIA } from './source.js';

export const energyDataset = describe({
  id: 'energy-inventories',
  name: 'Energy inventories',
  operations: energyOperations,
  importer: energyImporter,
  loaders: { eia: loader(energyImporter, eiaRecords) },
  collections: { eia: eiaCollection },
  migrations: { '003-energy': m003, '027-energy-known-at': m027 },
  demo: {
    files: [
      ['eia', 'eia/psw01.xls'],
      ['eia', 'eia/wpsr_table1_week_ending_2026-06-05.csv'],
      ['eia', 'eia/ngshistory.xls'],
    ],
  },
  freshness: energyFreshness,
  sources: [EIA],
  sample: { data: energySample, schema: EnergyData },
});
