// PostgreSQL credit statements. Charges are committed in groups: those that arrive while the previous group
// commits (or within one turn of the event loop) share one transaction, which locks their accounts' rows in
// id order (so concurrent servers queue on a hot account instead of deadlocking), decides each charge in
// arrival order against the locked balance, writes each account once and the ledger rows in one INSERT, and
// commits before any of them resolves. Refunds and a lone period opening are single statements that take the
// same row locks, so they interleave with the groups without ever taking a balance below zero.
import type pg from 'pg';
import { isoTime } from '../kernel/iso-time.js';
import { periodContaining } from '../kernel/periods.js';
import type { BalanceState, ChargeInput, ChargeOutcome, CreditStore, RefundInput } from './credits.js';

const LEDGER_COLUMNS =
  'account_id, period_start, kind, amount, balance_after, request_id, key_id, operation, created_at';

const LOCK = `SELECT id, balance, period_start, period_end FROM accounts
  WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE`;

/** Each account of a group once: its new balance, the credits charged and, when a period opened, the new one. */
const WRITE_ACCOUNTS = `
UPDATE accounts a SET
  balance = v.balance,
  period_charged = CASE WHEN v.opened THEN v.charged ELSE a.period_charged + v.charged END,
  period_refunded = CASE WHEN v.opened THEN 0 ELSE a.period_refunded END,
  period_adjusted = CASE WHEN v.opened THEN 0 ELSE a.period_adjusted END,
  allowance = CASE WHEN v.opened THEN v.allowance ELSE a.allowance END,
  period_start = v.period_start,
  period_end = v.period_end
FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::boolean[], $5::bigint[], $6::text[], $7::text[])
  AS v(id, balance, charged, opened, allowance, period_start, period_end)
WHERE a.id = v.id`;

const WRITE_LEDGER = `
INSERT INTO ledger (${LEDGER_COLUMNS})
SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::text[], $7::text[],
  $8::text[], $9::text[])`;

const REFUND = `
WITH acct AS (
  UPDATE accounts SET balance = balance + $2, period_refunded = period_refunded + $2
  WHERE id = $1 AND period_start = $3
  RETURNING id, balance, period_start
), entry AS (
  INSERT INTO ledger (${LEDGER_COLUMNS})
  SELECT id, period_start, 'refund', $2, balance, $4, $5, $6, $7 FROM acct
)
SELECT balance FROM acct`;

const OPEN_PERIOD = `
WITH acct AS (
  UPDATE accounts SET period_start = $2, period_end = $3, allowance = $4, balance = $4,
    period_charged = 0, period_refunded = 0, period_adjusted = 0
  WHERE id = $1 AND period_end <= $5
  RETURNING id, balance, period_start
), entry AS (
  INSERT INTO ledger (${LEDGER_COLUMNS})
  SELECT id, period_start, 'grant', balance, balance, NULL, NULL, NULL, $5 FROM acct
)
SELECT balance FROM acct`;

const SELECT = 'SELECT balance, period_start, period_end FROM accounts WHERE id = $1';

interface Row {
  balance: number;
  period_start: string;
  period_end: string;
}

interface Locked extends Row {
  id: string;
}

/** An account of a group as its charges are decided: the row as locked, then moved by each charge. */
interface Held {
  balance: number;
  charged: number;
  opened: boolean;
  allowance: number;
  periodStart: string;
  periodEnd: string;
}

type Queued = { input: ChargeInput; resolve(o: ChargeOutcome): void; reject(e: unknown): void };

export class PostgresCredits implements CreditStore {
  private queue: Queued[] = [];
  private committing = false;

  constructor(private readonly pool: pg.Pool) {}

  /** Resolves once the group holding this charge has committed. */
  charge(input: ChargeInput): Promise<ChargeOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      if (this.queue.length === 1 && !this.committing) setImmediate(() => void this.commitQueued());
    });
  }

  /** Commits the queued charges as one group, then the charges that queued meanwhile, until none is left. */
  private async commitQueued(): Promise<void> {
    this.committing = true;
    try {
      while (this.queue.length > 0) {
        const group = this.queue;
        this.queue = [];
        try {
          const outcomes = await this.commitGroup(group.map((q) => q.input));
          group.forEach((q, i) => {
            const outcome = outcomes[i];
            if (outcome) q.resolve(outcome);
            else q.reject(new Error(`account ${q.input.accountId} vanished during a charge`));
          });
        } catch (error) {
          for (const q of group) q.reject(error);
        }
      }
    } finally {
      this.committing = false;
    }
  }

  private async commitGroup(inputs: ChargeInput[]): Promise<(ChargeOutcome | null)[]> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const ids = [...new Set(inputs.map((i) => i.accountId))].sort();
      const locked = await client.query<Locked>({ name: 'quarry_lock', text: LOCK, values: [ids] });
      const held = new Map<string, Held>(
        locked.rows.map((r) => [
          r.id,
          {
            balance: r.balance,
            charged: 0,
            opened: false,
            allowance: 0,
            periodStart: r.period_start,
            periodEnd: r.period_end,
          },
        ]),
      );
      const ledger: (string | number | null)[][] = Array.from({ length: 9 }, () => []);
      const row = (...values: (string | number | null)[]) => values.forEach((v, i) => ledger[i]?.push(v));
      const outcomes = inputs.map((input): ChargeOutcome | null => {
        const account = held.get(input.accountId);
        if (!account) return null;
        const now = isoTime(input.now);
        if (now >= account.periodEnd) {
          // The period has ended: the new one opens with the plan's credits, as balance() would open it.
          const period = periodContaining(input.now);
          Object.assign(account, {
            balance: input.allowance,
            charged: 0,
            opened: true,
            allowance: input.allowance,
            periodStart: period.start,
            periodEnd: period.end,
          });
          row(
            input.accountId,
            period.start,
            'grant',
            input.allowance,
            input.allowance,
            null,
            null,
            null,
            now,
          );
        }
        const ok = account.balance >= input.amount;
        if (ok) {
          account.balance -= input.amount;
          account.charged += input.amount;
          const { requestId, keyId, operation, amount } = input;
          row(
            input.accountId,
            account.periodStart,
            'charge',
            -amount,
            account.balance,
            requestId,
            keyId,
            operation,
            now,
          );
        }
        return {
          ok,
          balance: account.balance,
          periodStart: account.periodStart,
          periodEnd: account.periodEnd,
        };
      });
      const changed = [...held].filter(([, a]) => a.charged > 0 || a.opened);
      if (changed.length > 0) {
        const column = <K extends keyof Held>(key: K) => changed.map(([, a]) => a[key]);
        await client.query({
          name: 'quarry_write_accounts',
          text: WRITE_ACCOUNTS,
          values: [
            changed.map(([id]) => id),
            column('balance'),
            column('charged'),
            column('opened'),
            column('allowance'),
            column('periodStart'),
            column('periodEnd'),
          ],
        });
      }
      if ((ledger[0]?.length ?? 0) > 0) {
        await client.query({ name: 'quarry_write_ledger', text: WRITE_LEDGER, values: ledger });
      }
      await client.query('COMMIT');
      return outcomes;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async refund(input: RefundInput): Promise<number | null> {
    const result = await this.pool.query<{ balance: number }>({
      name: 'quarry_refund',
      text: REFUND,
      values: [
        input.accountId,
        input.amount,
        input.periodStart,
        input.requestId,
        input.keyId,
        input.operation,
        input.now.toISOString(),
      ],
    });
    return result.rows[0]?.balance ?? null;
  }

  async balance(accountId: string, allowance: number, now: Date): Promise<BalanceState | null> {
    const found = await this.pool.query<Row>({ name: 'quarry_balance', text: SELECT, values: [accountId] });
    const row = found.rows[0];
    if (!row) return null;
    if (now.toISOString() < row.period_end) return state(row);
    const period = periodContaining(now);
    await this.pool.query(OPEN_PERIOD, [accountId, period.start, period.end, allowance, now.toISOString()]);
    const reread = await this.pool.query<Row>({ name: 'quarry_balance', text: SELECT, values: [accountId] });
    return reread.rows[0] ? state(reread.rows[0]) : null;
  }
}

function state(row: Row): BalanceState {
  return { balance: row.balance, periodStart: row.period_start, periodEnd: row.period_end };
}
