// The second opinions that disagreed, kept in the store: what `quarry status` counts per upstream.
import type { Kysely } from 'kysely';
import type { Dispute } from '../../kernel/market-provider.js';
import type { Database } from '../../store/schema.js';
import type { DailyHistory } from './upstream.js';

/** Keeps the closes another upstream answered otherwise (one row a listing, day and pair; the latest kept). */
export function disputeRecorder(db: Kysely<Database>, now: () => Date) {
  return async (symbol: string, served: DailyHistory & { source: string }, disputes: Dispute[]) => {
    const closes = new Map(served.bars.map((b) => [b.date, b.close]));
    const rows = disputes.map((d) => ({
      symbol,
      date: d.date,
      source: served.source,
      other: d.source,
      close: closes.get(d.date) ?? Number.NaN,
      other_close: d.close,
      found_at: now().toISOString(),
    }));
    await db
      .insertInto('market_disputes')
      .values(rows)
      .onConflict((c) =>
        c.columns(['symbol', 'date', 'source', 'other']).doUpdateSet((eb) => ({
          close: eb.ref('excluded.close'),
          other_close: eb.ref('excluded.other_close'),
          found_at: eb.ref('excluded.found_at'),
        })),
      )
      .execute();
  };
}

/** How many disputes each pair of upstreams holds: the served upstream, the other, and the count. */
export async function disputeCounts(db: Kysely<Database>) {
  const rows = await db
    .selectFrom('market_disputes')
    .select(['source', 'other', (eb) => eb.fn.countAll<number>().as('disputes')])
    .groupBy(['source', 'other'])
    .orderBy('source')
    .orderBy('other')
    .execute();
  return rows.map((r) => ({ source: r.source, other: r.other, disputes: Number(r.disputes) }));
}
