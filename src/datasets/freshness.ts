// A board with the store's freshness (ingest/freshness.ts): the cot, energy-inventories and cpi boards read
// the same way, so each adds it in one call.

import type { Collection } from '../ingest/collect.js';
import {
  type Freshness,
  type FreshnessGroup,
  type FreshnessOptions,
  type FreshnessSource,
  freshness,
} from '../ingest/freshness.js';
import type { Deps } from '../kernel/deps.js';
import type { Database } from '../store/schema.js';
import type { EnvelopeValue } from './envelope.js';

/**
 * What a dataset's freshness is judged from: its records table (a revisioned table: current rows counted),
 * the collection that fetches it, and its groups of series, each with the calendar its agency publishes it on.
 */
export function freshnessSource(
  dataset: string,
  records: keyof Database & string,
  collection?: Collection,
  groups: readonly FreshnessGroup[] = [],
): FreshnessSource {
  return { dataset, records, schedules: collection?.schedules ?? [], groups };
}

/**
 * The board `read` gives, with what the store holds of the dataset and how fresh it is: now, or, with `at`, as
 * it stood at that instant (the periods published by then that the store did not know of).
 */
export async function freshBoard(
  deps: Deps,
  source: FreshnessSource,
  read: () => Promise<EnvelopeValue<unknown>>,
  options: FreshnessOptions = {},
): Promise<EnvelopeValue<unknown>> {
  const [board, fresh] = await Promise.all([read(), freshness(deps.store.db, source, deps.clock(), options)]);
  return withFreshness(board, fresh);
}

const merged = new WeakMap<object, { key: string; value: EnvelopeValue<unknown> }>();

/**
 * A board with the store's freshness: its coverage added to meta.coverage, its gaps to data.gaps (and the
 * status partial when there are any). The same board and freshness give the same object, so an answer's
 * bytes are still written once.
 */
function withFreshness(board: EnvelopeValue<unknown>, fresh: Freshness): EnvelopeValue<unknown> {
  const found = merged.get(board);
  if (found && found.key === fresh.key) return found.value;
  const data = board.data as { status?: string; gaps?: string[] };
  const gaps = [...(data.gaps ?? []), ...fresh.gaps];
  const value = {
    data: { ...data, gaps, status: gaps.length ? 'partial' : (data.status ?? 'available') },
    meta: { ...board.meta, coverage: { ...(board.meta.coverage ?? {}), ...fresh.coverage } },
  };
  merged.set(board, { key: fresh.key, value });
  return value;
}
