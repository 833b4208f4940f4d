// The cot dataset: Commitments of Traders.
import { loader } from '../../ingest/run.js';
import { describe } from '../descriptor.js';
import { SOURCES } from '../sources.js';
import { cotImporter } from './import.js';
import { cftcRecords } from './load/cftc.js';
import { cftcCollection } from './load/collection.js';
import * as m002 from './migrations/002-cot.js';
import { cotOperations } from './operations.js';
import { cotSample } from './sample.js';
import { CotData } from './schema.js';

export const cotDataset = describe({
  id: 'cot',
  name: 'Commitments of Traders',
  operations: cotOperations,
  importer: cotImporter,
  loaders: { cftc: loader(cotImporter, cftcRecords) },
  collections: { cftc: cftcCollection },
  migrations: { '002-cot': m002 },
  sources: [SOURCES.cftc],
  sample: { data: cotSample, schema: CotData },
});
