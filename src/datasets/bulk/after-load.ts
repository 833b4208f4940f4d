// After loads: the bulk files of each dataset a load changed are made at once, so the first download of the
// new version is a file read like every other.
import type { ImportReport } from '../../ingest/import.js';
import type { Deps } from '../../kernel/deps.js';
import { DATASET_BY_ID } from '../registry.js';
import { bulkFiles } from './files.js';

/** Makes the current files of every dataset that one of `reports` changed; the datasets, in report order. */
export async function produceAfterLoads(
  deps: Deps,
  reports: readonly (ImportReport | undefined)[],
): Promise<string[]> {
  const changed = new Set(
    reports.filter((r): r is ImportReport => !!r && r.inserted + r.revised > 0).map((r) => r.dataset),
  );
  for (const id of changed) {
    const dataset = DATASET_BY_ID.get(id);
    if (dataset) await bulkFiles(deps, id, dataset.bulk, null);
  }
  return [...changed];
}
