// PostgreSQL credit statements. Charges are committed in groups: those that arrive while the previous group
// commits (or within one turn of the event loop) share one transaction, which locks their accounts' rows in
// id order, decides each charge in arrival order against the locked balance, writes each account once and the
// ledger rows in one INSERT, and commits before any of them resolves; a group of one account whose total fits
// is first tried as one guarded update. Refunds, a lone period opening and an operator's change take the same
// row locks, so they interleave with the groups without ever taking a balance below zero.
import type pg from 'pg';
import { isoTime } from '../kernel/iso-time.js';
import { periodContaining } from '../kernel/periods.js';
import type { BalanceState, ChargeInput, ChargeOutcome, CreditStore, RefundInput } from './credits.js';

const LEDGER_COLUMNS =
  'account_id, period_start, kind, amount, balance_after, request_id, key_id, operation, created_at';

/**
 * The accounts of a group of charges, locked in id order (so concurrent servers queue on a hot account instead of
 * deadlocking), each in its current period; an account whose period has ended is left out (the caller opens its
 * period and charges again). A statement of its own: in READ COMMITTED it waits for an operator's change to the
 * row and then reads what that change committed, and the debit that follows reads the row as locked. Reading
 * and debiting in one statement did not: the debit could see a balance the decision had not (an operator's
 * set-balance or set-plan committed in between), and failed the balance's check (docs/adr/036).
 */
const LOCK_ACCOUNTS = `
SELECT id, balance, period_start, period_end FROM accounts
WHERE id = ANY($1::text[]) AND period_end > $2 ORDER BY id FOR UPDATE`;

/** Debits the decided totals of locked accounts and writes the charges' ledger rows, in one statement. */
const DEBIT_LOCKED = `
WITH debited AS (
  UPDATE accounts a SET balance = a.balance - d.total, period_charged = a.period_charged + d.total
  FROM unnest($1::text[], $2::bigint[]) AS d(id, total) WHERE a.id = d.id
  RETURNING a.id
), entries AS (
  INSERT INTO ledger (${LEDGER_COLUMNS})
  SELECT account_id, period_start, 'charge', -amount, balance_after, request_id, key_id, operation, $10
  FROM unnest($3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::text[], $8::text[], $9::text[])
    WITH ORDINALITY AS e(account_id, period_start, amount, balance_after, request_id, key_id, operation, n)
  ORDER BY n
)
SELECT count(*) AS accounts FROM debited`;

/**
 * A group whose charges all belong to one account, taken whole when their total fits its balance in the current
 * period: one guarded UPDATE, and the ledger rows from its result, each with the balance after it. No row
 * comes back when the total does not fit or the period has ended; the group is then decided under LOCK_ACCOUNTS.
 * About a fifth cheaper for PostgreSQL than the locked path (docs/adr/027).
 */
const ONE_ACCOUNT_CHARGE = `
WITH debited AS (
  UPDATE accounts SET balance = balance - $2, period_charged = period_charged + $2
  WHERE id = $1 AND period_end > $3 AND balance >= $2
  RETURNING balance, period_start, period_end
), entries AS (
  INSERT INTO ledger (${LEDGER_COLUMNS})
  SELECT $1, d.period_start, 'charge', -c.amount, d.balance + $2 - c.running, c.request_id, c.key_id, c.operation, $3
  FROM debited d, unnest($4::bigint[], $5::bigint[], $6::text[], $7::text[], $8::text[])
    AS c(amount, running, request_id, key_id, operation)
)
SELECT balance, period_start, period_end FROM debited`;

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
          const later: Promise<void>[] = [];
          group.forEach((q, i) => {
            const outcome = outcomes[i];
            if (outcome) q.resolve(outcome);
            else later.push(this.undecided(q).catch((error) => q.reject(error)));
          });
          await Promise.all(later);
        } catch (error) {
          for (const q of group) q.reject(error);
        }
      }
    } finally {
      this.committing = false;
    }
  }

  /**
   * One group: each charge's outcome, or null where it was not decided. A group of one account whose total fits
   * is one statement (ONE_ACCOUNT_CHARGE); any other, or one that does not fit, is decided under its accounts' locks (chargeLocked).
   */
  private async commitGroup(inputs: ChargeInput[]): Promise<(ChargeOutcome | null)[]> {
    // One time for the whole group: the latest of its charges' clocks.
    const now = isoTime(inputs.reduce((t, i) => (i.now > t ? i.now : t), inputs[0]?.now ?? new Date(0)));
    const accountId = inputs[0]?.accountId;
    if (accountId !== undefined && inputs.every((input) => input.accountId === accountId)) {
      const taken = await this.chargeOneAccount(accountId, inputs, now);
      if (taken) return inputs.map(() => taken);
    }
    return this.chargeLocked(inputs, now);
  }

  /**
   * Decides each charge in arrival order against its account's locked balance (a charge that does not fit is
   * refused, a smaller one after it may still fit, as on SQLite), then debits and writes the ledger, in one
   * transaction. Null for a charge whose account was not locked: its period has ended, or it is gone.
   */
  private async chargeLocked(inputs: ChargeInput[], now: string): Promise<(ChargeOutcome | null)[]> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const ids = [...new Set(inputs.map((i) => i.accountId))].sort();
      const locked = await client.query<Row & { id: string }>({
        name: 'quarry_lock_accounts',
        text: LOCK_ACCOUNTS,
        values: [ids, now],
      });
      const accounts = new Map(locked.rows.map((row) => [row.id, { ...row, total: 0 }]));
      const taken: { input: ChargeInput; periodStart: string; after: number }[] = [];
      const outcomes = inputs.map((input): ChargeOutcome | null => {
        const account = accounts.get(input.accountId);
        if (!account) return null;
        const ok = account.balance >= input.amount;
        if (ok) {
          account.balance -= input.amount;
          account.total += input.amount;
          taken.push({ input, periodStart: account.period_start, after: account.balance });
        }
        return { ok, ...state(account) };
      });
      const debited = [...accounts.values()].filter((account) => account.total > 0);
      if (debited.length > 0) {
        await client.query({
          name: 'quarry_debit_locked',
          text: DEBIT_LOCKED,
          values: [
            debited.map((a) => a.id),
            debited.map((a) => a.total),
            taken.map((t) => t.input.accountId),
            taken.map((t) => t.periodStart),
            taken.map((t) => t.input.amount),
            taken.map((t) => t.after),
            taken.map((t) => t.input.requestId),
            taken.map((t) => t.input.keyId),
            taken.map((t) => t.input.operation),
            now,
          ],
        });
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

  /** The outcome of every charge of a one-account group when their total fits, else null (nothing written). */
  private async chargeOneAccount(
    accountId: string,
    inputs: ChargeInput[],
    now: string,
  ): Promise<ChargeOutcome | null> {
    let total = 0;
    const running = inputs.map((input) => (total += input.amount));
    const debited = await this.pool.query<Row>({
      name: 'quarry_one_account_charge',
      text: ONE_ACCOUNT_CHARGE,
      values: [
        accountId,
        total,
        now,
        inputs.map((i) => i.amount),
        running,
        inputs.map((i) => i.requestId),
        inputs.map((i) => i.keyId),
        inputs.map((i) => i.operation),
      ],
    });
    const row = debited.rows[0];
    return row ? { ok: true, ...state(row) } : null;
  }

  /** A charge the group did not decide: its account's period has ended (open it, charge again) or it is gone. */
  private async undecided(queued: Queued): Promise<void> {
    const { input } = queued;
    const opened = await this.balance(input.accountId, input.allowance, input.now);
    if (opened) this.queue.push(queued);
    else queued.reject(new Error(`account ${input.accountId} vanished during a charge`));
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
