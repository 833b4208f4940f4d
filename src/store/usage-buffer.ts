// Usage per account, period, dataset and call type. Counted in memory on the request path and flushed as
// increments every two seconds and at shutdown; the balance, not usage, is authoritative.
import type { Kysely } from 'kysely';
import type { Database, UsageTable } from './schema.js';

const FLUSH_MS = 2000;

export interface UsageEntry {
  accountId: string;
  periodStart: string;
  dataset: string;
  callType: string;
  calls: number;
  credits: number;
}

export class UsageBuffer {
  /** Entries by account: an account uses a handful of datasets and call types between two flushes. */
  private pending = new Map<string, UsageEntry[]>();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly db: Kysely<Database>) {
    this.timer = setInterval(() => void this.flush().catch(() => {}), FLUSH_MS);
    this.timer.unref();
  }

  record(entry: UsageEntry): void {
    const entries = this.pending.get(entry.accountId);
    const found = entries?.find(
      (e) =>
        e.periodStart === entry.periodStart && e.dataset === entry.dataset && e.callType === entry.callType,
    );
    if (found) {
      found.calls += entry.calls;
      found.credits += entry.credits;
    } else if (entries) {
      entries.push({ ...entry });
    } else {
      this.pending.set(entry.accountId, [{ ...entry }]);
    }
  }

  /** Entries not yet written, for an account's period. */
  unflushed(accountId: string, periodStart: string): UsageEntry[] {
    return (this.pending.get(accountId) ?? []).filter((e) => e.periodStart === periodStart);
  }

  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    const rows: UsageTable[] = [...batch.values()].flat().map((e) => ({
      account_id: e.accountId,
      period_start: e.periodStart,
      dataset: e.dataset,
      call_type: e.callType,
      calls: e.calls,
      credits: e.credits,
    }));
    try {
      await this.db
        .insertInto('usage')
        .values(rows)
        .onConflict((oc) =>
          oc.columns(['account_id', 'period_start', 'dataset', 'call_type']).doUpdateSet((eb) => ({
            calls: eb('usage.calls', '+', eb.ref('excluded.calls')),
            credits: eb('usage.credits', '+', eb.ref('excluded.credits')),
          })),
        )
        .execute();
    } catch (error) {
      // Keep the counts for the next try.
      for (const entry of [...batch.values()].flat()) this.record(entry);
      throw error;
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
