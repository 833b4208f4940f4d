// quarry import DATASET FILE

import { produceAfterLoads } from '../datasets/bulk/after-load.js';
import { IMPORTERS } from '../datasets/registry.js';
import { importFile } from '../ingest/import.js';
import type { Deps } from '../kernel/deps.js';
import { parse } from './args.js';
import { UsageError } from './output.js';

export async function importCommand(deps: Deps, argv: string[]): Promise<object> {
  const { args } = parse(argv, {}, ['DATASET', 'FILE']);
  const importer = IMPORTERS.get(args.DATASET);
  if (!importer) {
    throw new UsageError(
      `no importer for "${args.DATASET}"; datasets with an interchange format so far: ${[...IMPORTERS.keys()].join(', ')}`,
    );
  }
  const report = await importFile(deps, importer, args.FILE);
  await produceAfterLoads(deps, [report]);
  return report;
}
