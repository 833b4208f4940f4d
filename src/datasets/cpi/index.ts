// The cpi dataset: Consumer price index components.
import { loader } from '../../ingest/run.js';
import { describe } from '../descriptor.js';
import { cpiBulk } from './bulk.js';
import { cpiImporter } from './import.js';
import { blsRecords, knownItems } from './load/bls.js';
import { blsCollection, cpiFreshness } from './load/collection.js';
import * as m004 from './migrations/004-cpi.js';
import * as m010 from './migrations/010-cpi-series.js';
import * as m028 from './migrations/028-cpi-known-at.js';
import * as m039 from './migrations/039-cpi-known-from.js';
import * as m044 from './migrations/044-cpi-weights-period.js';
import { cpiOperations } from './operations.js';
import { cpiSample } from './sample.js';
import { CpiData } from './schema.js';
import { BLS, BLS_DISCLAIMER } from './source.js';

export const cpiDataset = describe({
  id: 'cpi',
  name: 'Consumer price index components',
  operations: cpiOperations,
  bulk: cpiBulk,
  importer: cpiImporter,
  loaders: { bls: loader(cpiImporter, blsRecords, { prepare: knownItems }) },
  collections: { bls: blsCollection },
  migrations: {
    '004-cpi': m004,
    '010-cpi-series': m010,
    '028-cpi-known-at': m028,
    '039-cpi-known-from': m039,
    '044-cpi-weights-period': m044,
  },
  // The items first (the other files are matched to them), then the vintages, each with its publication (the
  // BLS's release of its newest month, 08:30 New York), so that asOf reads each as first published: FRED's of
  // the November 2023 CPI, the components of August 2025, all items of March 2026.
  demo: {
    files: [
      // The item list of the August 2025 release (with its names of then, which the relative importance
      // table uses), then the newer list, whose publication is not known: known from its load.
      ['bls', 'bls/cu_2025-08/cu.item', { published: '2025-09-11T12:30:00Z' }],
      ['bls', 'bls/cu.item'],
      ['bls', 'bls/cu.series', { published: '2023-12-12T13:30:00Z' }],
      ['bls', 'bls/relative_importance_dec2021_to_dec2024.csv', { published: '2025-01-15T13:30:00Z' }],
      ['bls', 'bls/fred/', { published: '2023-12-12T13:30:00Z' }],
      ['bls', 'bls/cu_2025-08/', { published: '2025-09-11T12:30:00Z' }],
      ['bls', 'bls/cu.data.1.AllItems', { published: '2026-04-10T12:30:00Z' }],
    ],
  },
  freshness: cpiFreshness,
  sources: [BLS],
  disclaimer: BLS_DISCLAIMER,
  sample: { data: cpiSample, schema: CpiData },
});
