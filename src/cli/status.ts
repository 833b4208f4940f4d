// quarry status: for each dataset, what the store holds, how fresh it is by its agency's calendar (the
// catalog's coverage, with its gaps) and how its collection stands, and the market's disputed closes per pair of
// upstreams (one JSON object).
import { DATASETS } from '../datasets/registry.js';
import { freshness } from '../ingest/freshness.js';
import { collectionStatus } from '../ingest/status.js';
import type { Deps } from '../kernel/deps.js';
import { disputeCounts } from '../market/providers/disputes.js';
import { parse } from './args.js';

export async function statusCommand(
  deps: Deps,
  argv: string[],
): Promise<{
  at: string;
  datasets: object[];
  market: { disputes: Awaited<ReturnType<typeof disputeCounts>> };
}> {
  parse(argv, {}, []);
  const now = deps.clock();
  const datasets = [];
  for (const dataset of DATASETS) {
    const { coverage, gaps } = await freshness(deps.store.db, dataset.freshness, now);
    const status = await collectionStatus(deps.store.db, dataset.id, dataset.freshness.schedules, now);
    datasets.push({ ...status, coverage, gaps });
  }
  // The market's second opinions that disagreed, per pair of upstreams (docs/adr/039).
  return { at: now.toISOString(), datasets, market: { disputes: await disputeCounts(deps.store.db) } };
}
