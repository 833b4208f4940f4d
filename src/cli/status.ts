// quarry status: for each dataset, what the store holds, how fresh it is by its agency's calendar (the
// catalog's coverage, with its gaps) and how its collection stands (one JSON object).
import { DATASETS } from '../datasets/registry.js';
import { freshness } from '../ingest/freshness.js';
import { collectionStatus } from '../ingest/status.js';
import type { Deps } from '../kernel/deps.js';
import { parse } from './args.js';

export async function statusCommand(deps: Deps, argv: string[]): Promise<object> {
  parse(argv, {}, []);
  const now = deps.clock();
  const datasets = [];
  for (const dataset of DATASETS) {
    const { coverage, gaps } = await freshness(deps.store.db, dataset.freshness, now);
    const status = await collectionStatus(deps.store.db, dataset.id, dataset.freshness.schedules, now);
    datasets.push({ ...status, coverage, gaps });
  }
  return { at: now.toISOString(), datasets };
}
