// The cpi dataset: Consumer price index components.
import { loader } from '../../ingest/run.js';
import { describe } from '../descriptor.js';
import { BLS_DISCLAIMER, SOURCES } from '../sources.js';
import { cpiImporter } from './import.js';
import { blsRecords, knownItems } from './load/bls.js';
import { blsCollection } from './load/collection.js';
import * as m004 from './migrations/004-cpi.js';
import * as m010 from './migrations/010-cpi-series.js';
import { cpiOperations } from './operations.js';
import { cpiSample } from './sample.js';
import { CpiData } from './schema.js';

export const cpiDataset = describe({
  id: 'cpi',
  name: 'Consumer price index components',
  operations: cpiOperations,
  importer: cpiImporter,
  loaders: { bls: loader(cpiImporter, blsRecords, { prepare: knownItems }) },
  collections: { bls: blsCollection },
  migrations: { '004-cpi': m004, '010-cpi-series': m010 },
  sources: [SOURCES.bls],
  disclaimer: BLS_DISCLAIMER,
  sample: { data: cpiSample, schema: CpiData },
});
