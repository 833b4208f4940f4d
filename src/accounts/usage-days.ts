// Usage by UTC day: credits from the ledger (each charge and refund is a row of it) and market-data units
// from the unit tally, the written rows plus this process's unwritten counts.
import type { Deps } from '../kernel/deps.js';

export interface CreditDay {
  day: string;
  calls: number;
  charged: number;
  refunded: number;
}

export interface UnitDay {
  day: string;
  keyId: string;
  door: string;
  calls: number;
  units: number;
}

/** Credits and units of `accountId` by day from `since` (YYYY-MM-DD) on, oldest first. */
export async function usageByDay(deps: Deps, accountId: string, since: string) {
  const db = deps.store.db;
  const ledger = await db
    .selectFrom('ledger')
    .select(['kind', 'amount', 'created_at'])
    .where('account_id', '=', accountId)
    .where('created_at', '>=', since)
    .where('kind', 'in', ['charge', 'refund'])
    .execute();
  const credits = new Map<string, CreditDay>();
  for (const row of ledger) {
    const day = row.created_at.slice(0, 10);
    const sum = credits.get(day) ?? { day, calls: 0, charged: 0, refunded: 0 };
    credits.set(day, sum);
    const amount = Number(row.amount);
    if (row.kind === 'charge') {
      sum.calls += 1;
      sum.charged -= amount;
    } else sum.refunded += amount;
  }

  const written = await db
    .selectFrom('unit_usage')
    .select(['key_id', 'day', 'door', 'calls', 'units'])
    .where('account_id', '=', accountId)
    .where('day', '>=', since)
    .execute();
  const units = new Map<string, UnitDay>();
  const unwritten = deps.usage.unflushedUnits(accountId).filter((r) => r.day >= since);
  for (const row of [...written, ...unwritten]) {
    const id = `${row.day} ${row.key_id} ${row.door}`;
    const sum = units.get(id) ?? { day: row.day, keyId: row.key_id, door: row.door, calls: 0, units: 0 };
    units.set(id, sum);
    sum.calls += Number(row.calls);
    sum.units += Number(row.units);
  }
  const byDay = <T extends { day: string }>(rows: Iterable<T>) =>
    [...rows].sort(
      (a, b) => a.day.localeCompare(b.day) || JSON.stringify(a).localeCompare(JSON.stringify(b)),
    );
  return { since, credits: byDay(credits.values()), units: byDay(units.values()) };
}
