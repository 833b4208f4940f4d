// quarry import DATASET FILE
import type { Deps } from '../app/deps.js';
import { importFile } from '../datasets/import.js';
import { IMPORTERS } from '../datasets/importers.js';
import { parse } from './args.js';
import { UsageError } from './output.js';

export async function importCommand(deps: Deps, argv: string[]): Promise<object> {
  const { args } = parse(argv, {}, ['DATASET', 'FILE']);
  const importer = IMPORTERS[args.DATASET as string];
  if (!importer) {
    throw new UsageError(
      `no importer for "${args.DATASET}"; datasets with an interchange format so far: ${Object.keys(IMPORTERS).join(', ')}`,
    );
  }
  return importFile(deps.store.db, importer, args.FILE as string);
}
