// The treasury-rates dataset: US Treasury interest rates.
import { loader } from '../../ingest/run.js';
import { describe } from '../descriptor.js';
import { ratesBulk } from './bulk.js';
import { ratesImporter } from './import.js';
import { ratesFreshness, treasuryCollection } from './load/collection.js';
import { RATES_CSV, RATES_XML, rateCsvRecords, rateXmlRecords } from './load/files.js';
import * as rates from './migrations/rates.js';
import { ratesOperations } from './operations.js';
import { ratesSample } from './sample.js';
import { CurveData } from './schema.js';
import { TREASURY } from './source.js';

export const ratesDataset = describe({
  id: 'treasury-rates',
  name: 'US Treasury rates',
  operations: ratesOperations,
  bulk: ratesBulk,
  importer: ratesImporter,
  loaders: {
    treasury: [
      loader(ratesImporter, rateCsvRecords, { kind: RATES_CSV }),
      loader(ratesImporter, rateXmlRecords, { kind: RATES_XML }),
    ],
  },
  collections: { treasury: treasuryCollection },
  migrations: { 'treasury-rates/rates': rates },
  demo: {
    files: [
      // Par yields 1990 to March 2022 (the all-years file), then each year held since, and 2025's bill rates.
      ['treasury', 'treasury/par-all-years_asof-2022-03-11.csv'],
      ['treasury', 'treasury/par-2022_full-year.csv'],
      ['treasury', 'treasury/par-2023_full-year.csv'],
      ['treasury', 'treasury/par-2024_asof-2024-06-25.csv'],
      ['treasury', 'treasury/par-2025_asof-2025-09-25.csv'],
      ['treasury', 'treasury/bill-2025_asof-2025-11-14.csv'],
    ],
  },
  freshness: ratesFreshness,
  sources: [TREASURY],
  sample: { data: ratesSample, schema: CurveData },
});
