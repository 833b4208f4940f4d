// The agencies' own files each loader reads, by the name `quarry ingest` takes.

import { cotImporter } from './cot/import.js';
import { cftcRecords } from './cot/load/cftc.js';
import type { Loader } from './load/run.js';

export const LOADERS: Record<string, Loader<never>> = {
  cftc: { importer: cotImporter, read: cftcRecords } as unknown as Loader<never>,
};
