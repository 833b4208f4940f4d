// Usage counted in memory on the request path and flushed as increments every two seconds and at shutdown:
// credits per account, period, dataset and call type; market-data units per account, key, day and door.
// The balance and the per-minute counters, not usage, are authoritative.
import { type Kysely, sql } from 'kysely';
import type { Database, UnitUsageTable, UsageTable } from './schema.js';

const FLUSH_MS = 2000;

export interface UsageEntry {
  accountId: string;
  periodStart: string;
  dataset: string;
  callType: string;
  calls: number;
  credits: number;
}

export interface UnitEntry {
  accountId: string;
  keyId: string;
  /** UTC day, YYYY-MM-DD: the window of the daily unit limit. */
  day: string;
  door: string;
  units: number;
  /** 1 for a call, -1 for the refund of one (its units negative): a refunded call counts for nothing. */
  calls?: 1 | -1;
}

type Row = Record<string, string | number>;

/** Rows of one table summed by their key columns until they are written. */
class Tally<R extends Row> {
  private held = new Map<string, R>();

  constructor(
    readonly table: keyof Database,
    readonly keys: readonly (keyof R & string)[],
    readonly sums: readonly (keyof R & string)[],
  ) {}

  add(row: R): void {
    const id = this.keys.map((k) => row[k]).join('\u0000');
    const found = this.held.get(id);
    if (!found) {
      this.held.set(id, { ...row });
      return;
    }
    const sums = found as Record<string, number>;
    for (const s of this.sums) sums[s] = sums[s]! + (row[s] as number);
  }

  rows(): R[] {
    return [...this.held.values()];
  }

  take(): R[] {
    const rows = this.rows();
    this.held = new Map();
    return rows;
  }

  /** One statement: insert the rows, or add them to the ones already written. */
  async write(db: Kysely<Database>, rows: R[]): Promise<void> {
    if (rows.length === 0) return;
    const { table, keys, sums } = this;
    const loose = db as unknown as Kysely<Record<string, Row>>;
    await loose
      .insertInto(table)
      .values(rows)
      .onConflict((oc) =>
        oc
          .columns(keys as string[])
          .doUpdateSet(
            Object.fromEntries(
              sums.map((s) => [s, sql`${sql.ref(`${table}.${s}`)} + ${sql.ref(`excluded.${s}`)}`]),
            ),
          ),
      )
      .execute();
  }
}

export class UsageBuffer {
  private readonly credits = new Tally<UsageTable & Row>(
    'usage',
    ['account_id', 'period_start', 'dataset', 'call_type'],
    ['calls', 'credits'],
  );
  private readonly units = new Tally<UnitUsageTable & Row>(
    'unit_usage',
    ['account_id', 'key_id', 'day', 'door'],
    ['calls', 'units'],
  );
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly db: Kysely<Database>) {
    this.timer = setInterval(() => void this.flush().catch(() => {}), FLUSH_MS);
    this.timer.unref();
  }

  record(e: UsageEntry): void {
    this.credits.add({
      account_id: e.accountId,
      period_start: e.periodStart,
      dataset: e.dataset,
      call_type: e.callType,
      calls: e.calls,
      credits: e.credits,
    });
  }

  recordUnits(e: UnitEntry): void {
    this.units.add({
      account_id: e.accountId,
      key_id: e.keyId,
      day: e.day,
      door: e.door,
      calls: e.calls ?? 1,
      units: e.units,
    });
  }

  /** Credit usage not yet written, for an account's period. */
  unflushed(accountId: string, periodStart: string): UsageEntry[] {
    return this.credits
      .rows()
      .filter((r) => r.account_id === accountId && r.period_start === periodStart)
      .map((r) => ({
        accountId,
        periodStart,
        dataset: r.dataset,
        callType: r.call_type,
        calls: r.calls,
        credits: r.credits,
      }));
  }

  /** Unit usage not yet written, for an account. */
  unflushedUnits(accountId: string): UnitUsageTable[] {
    return this.units.rows().filter((r) => r.account_id === accountId);
  }

  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  private async write(): Promise<void> {
    for (const tally of [this.credits, this.units] as unknown as Tally<Row>[]) {
      const rows = tally.take();
      try {
        await tally.write(this.db, rows);
      } catch (error) {
        // Keep the counts for the next try.
        for (const row of rows) tally.add(row);
        throw error;
      }
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
