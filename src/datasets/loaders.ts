// The agencies' own files each loader reads, by the name `quarry ingest` takes.

import { marketImporter } from '../market/load/import.js';
import { priceRecords } from '../market/load/prices.js';
import { secFactsRecords } from '../market/load/sec-facts.js';
import { yahooRecords } from '../market/load/yahoo.js';
import { cotImporter } from './cot/import.js';
import { cftcRecords } from './cot/load/cftc.js';
import { cpiImporter } from './cpi/import.js';
import { blsRecords, knownItems } from './cpi/load/bls.js';
import { energyImporter } from './energy/import.js';
import { eiaRecords } from './energy/load/records.js';
import type { Loader } from './load/run.js';

export const LOADERS: Record<string, Loader<never>> = {
  cftc: { importer: cotImporter, read: cftcRecords } as unknown as Loader<never>,
  prices: { importer: marketImporter, read: priceRecords } as unknown as Loader<never>,
  yahoo: { importer: marketImporter, read: yahooRecords } as unknown as Loader<never>,
  'sec-facts': { importer: marketImporter, read: secFactsRecords } as unknown as Loader<never>,
  eia: { importer: energyImporter, read: eiaRecords } as unknown as Loader<never>,
  bls: { importer: cpiImporter, read: blsRecords, prepare: knownItems } as unknown as Loader<never>,
};
