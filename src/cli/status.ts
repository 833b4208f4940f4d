// quarry status: for each dataset, what the store holds and how its collection stands (one JSON object).
import { DATASETS } from '../datasets/registry.js';
import { collectionStatus } from '../ingest/status.js';
import type { Deps } from '../kernel/deps.js';
import { parse } from './args.js';

export async function statusCommand(deps: Deps, argv: string[]): Promise<object> {
  parse(argv, {}, []);
  const now = deps.clock();
  const datasets = [];
  for (const dataset of DATASETS) {
    const schedules = Object.values(dataset.collections ?? {}).flatMap((c) => c.schedules);
    datasets.push(await collectionStatus(deps.store.db, dataset.id, schedules, now));
  }
  return { at: now.toISOString(), datasets };
}
