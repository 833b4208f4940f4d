// A board with the store's freshness (ingest/freshness.ts): the cot, energy-inventories and cpi boards read
// the same way, so each adds it in one call.

import type { PeriodCalendar } from '../ingest/calendar.js';
import type { Collection } from '../ingest/collect.js';
import { type Freshness, type FreshnessSource, freshness } from '../ingest/freshness.js';
import type { Deps } from '../kernel/deps.js';
import type { Database } from '../store/schema.js';
import type { EnvelopeValue } from './envelope.js';

/**
 * What a dataset's freshness is judged from: its records table (a revisioned table: current rows counted),
 * the collection that fetches it, and the calendar its agency publishes its periods on.
 */
export function freshnessSource(
  dataset: string,
  records: keyof Database & string,
  collection?: Collection,
  periods?: PeriodCalendar,
): FreshnessSource {
  return { dataset, records, schedules: collection?.schedules ?? [], ...(periods ? { periods } : {}) };
}

/** The board `read` gives, with what the store holds of the dataset and how fresh it is. */
export async function freshBoard(
  deps: Deps,
  source: FreshnessSource,
  read: () => Promise<EnvelopeValue<unknown>>,
): Promise<EnvelopeValue<unknown>> {
  const [board, fresh] = await Promise.all([read(), freshness(deps.store.db, source, deps.clock())]);
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
