// The cot dataset: Commitments of Traders.
import { loader } from '../../ingest/run.js';
import { describe } from '../descriptor.js';
import { cotBulk } from './bulk.js';
import { cotImporter } from './import.js';
import { cftcRecords } from './load/cftc.js';
import { cftcCollection, cotFreshness } from './load/collection.js';
import * as m002 from './migrations/002-cot.js';
import * as m026 from './migrations/026-cot-known-at.js';
import * as m037 from './migrations/037-cot-known-from.js';
import { cotOperations } from './operations.js';
import { cotSample } from './sample.js';
import { CotData } from './schema.js';
import { CFTC } from './source.js';

export const cotDataset = describe({
  id: 'cot',
  name: 'Commitments of Traders',
  operations: cotOperations,
  bulk: cotBulk,
  importer: cotImporter,
  loaders: { cftc: loader(cotImporter, cftcRecords) },
  collections: { cftc: cftcCollection },
  migrations: { '002-cot': m002, '026-cot-known-at': m026, '037-cot-known-from': m037 },
  // Five consecutive disaggregated years (three complete ones make 3-year percentiles complete), and the
  // legacy report for 2021 and 2025.
  demo: {
    files: [
      ...[2017, 2018, 2019, 2020, 2021].map((y) => ['cftc', `cftc/fut_disagg_txt_${y}.zip`] as const),
      ['cftc', 'cftc/deacot2021.zip'],
      ['cftc', 'cftc/deacot2025.zip'],
    ],
  },
  freshness: cotFreshness,
  sources: [CFTC],
  sample: { data: cotSample, schema: CotData },
});
