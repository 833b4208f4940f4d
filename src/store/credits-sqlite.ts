// SQLite credit statements: synchronous, each change one IMMEDIATE transaction, so no other process
// (a CLI command, another server on the same file) can interleave between the check and the update.
import type SQLite from 'better-sqlite3';
import { periodContaining } from '../accounts/periods.js';
import type { BalanceState, ChargeInput, ChargeOutcome, CreditStore, RefundInput } from './credits.js';

interface AccountRow {
  balance: number;
  period_start: string;
  period_end: string;
}

export class SqliteCredits implements CreditStore {
  private readonly select: SQLite.Statement<[string], AccountRow>;
  private readonly debit: SQLite.Statement<[number, number, string]>;
  private readonly credit: SQLite.Statement<[number, number, string, string]>;
  private readonly open: SQLite.Statement<[string, string, number, number, string]>;
  private readonly write: SQLite.Statement<
    [string, string, string, number, number, string | null, string | null, string | null, string]
  >;
  private readonly chargeTx: (input: ChargeInput) => ChargeOutcome | null;
  private readonly refundTx: (input: RefundInput) => number | null;
  private readonly balanceTx: (accountId: string, allowance: number, now: Date) => BalanceState | null;

  constructor(db: SQLite.Database) {
    this.select = db.prepare('SELECT balance, period_start, period_end FROM accounts WHERE id = ?');
    this.debit = db.prepare(
      'UPDATE accounts SET balance = balance - ?, period_charged = period_charged + ? WHERE id = ?',
    );
    this.credit = db.prepare(
      'UPDATE accounts SET balance = balance + ?, period_refunded = period_refunded + ? WHERE id = ? AND period_start = ?',
    );
    this.open = db.prepare(
      `UPDATE accounts SET period_start = ?, period_end = ?, allowance = ?, balance = ?,
         period_charged = 0, period_refunded = 0, period_adjusted = 0 WHERE id = ?`,
    );
    this.write = db.prepare(
      `INSERT INTO ledger (account_id, period_start, kind, amount, balance_after, request_id, key_id, operation, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );

    this.chargeTx = db.transaction((input: ChargeInput) => {
      const row = this.current(input.accountId, input.allowance, input.now);
      if (!row) return null;
      if (row.balance < input.amount) return { ok: false, ...state(row) };
      const balance = row.balance - input.amount;
      this.debit.run(input.amount, input.amount, input.accountId);
      this.write.run(
        input.accountId,
        row.period_start,
        'charge',
        -input.amount,
        balance,
        input.requestId,
        input.keyId,
        input.operation,
        input.now.toISOString(),
      );
      return { ok: true, balance, periodStart: row.period_start, periodEnd: row.period_end };
    }).immediate;

    this.refundTx = db.transaction((input: RefundInput) => {
      const changed = this.credit.run(input.amount, input.amount, input.accountId, input.periodStart);
      if (changed.changes === 0) return null;
      const row = this.select.get(input.accountId) as AccountRow;
      this.write.run(
        input.accountId,
        input.periodStart,
        'refund',
        input.amount,
        row.balance,
        input.requestId,
        input.keyId,
        input.operation,
        input.now.toISOString(),
      );
      return row.balance;
    }).immediate;

    this.balanceTx = db.transaction((accountId: string, allowance: number, now: Date) => {
      const row = this.current(accountId, allowance, now);
      return row ? state(row) : null;
    }).immediate;
  }

  /** The account's row, after opening a new period if the last one has ended. Call inside a transaction. */
  private current(accountId: string, allowance: number, now: Date): AccountRow | null {
    const row = this.select.get(accountId);
    if (!row) return null;
    if (now.toISOString() < row.period_end) return row;
    const period = periodContaining(now);
    this.open.run(period.start, period.end, allowance, allowance, accountId);
    this.write.run(
      accountId,
      period.start,
      'grant',
      allowance,
      allowance,
      null,
      null,
      null,
      now.toISOString(),
    );
    return { balance: allowance, period_start: period.start, period_end: period.end };
  }

  async charge(input: ChargeInput): Promise<ChargeOutcome> {
    return orMissing(this.chargeTx(input), input.accountId);
  }

  async refund(input: RefundInput): Promise<number | null> {
    return this.refundTx(input);
  }

  async balance(accountId: string, allowance: number, now: Date): Promise<BalanceState | null> {
    const row = this.select.get(accountId);
    if (row && now.toISOString() < row.period_end) return state(row);
    return this.balanceTx(accountId, allowance, now);
  }
}

function state(row: AccountRow): BalanceState {
  return { balance: row.balance, periodStart: row.period_start, periodEnd: row.period_end };
}

export function orMissing<T>(value: T | null, accountId: string): T {
  if (value === null) throw new Error(`account ${accountId} vanished during a charge`);
  return value;
}
