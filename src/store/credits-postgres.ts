// PostgreSQL credit statements. A charge is one statement: the conditional UPDATE and its ledger INSERT
// run together in a data-modifying CTE, so concurrent servers can never take the balance below zero.
import type pg from 'pg';
import { periodContaining } from '../kernel/periods.js';
import type { BalanceState, ChargeInput, ChargeOutcome, CreditStore, RefundInput } from './credits.js';
import { orMissing } from './credits.js';

const LEDGER_COLUMNS =
  'account_id, period_start, kind, amount, balance_after, request_id, key_id, operation, created_at';

const CHARGE = `
WITH acct AS (
  UPDATE accounts SET balance = balance - $2, period_charged = period_charged + $2
  WHERE id = $1 AND balance >= $2 AND period_end > $3
  RETURNING id, balance, period_start, period_end
), entry AS (
  INSERT INTO ledger (${LEDGER_COLUMNS})
  SELECT id, period_start, 'charge', -$2, balance, $4, $5, $6, $3 FROM acct
)
SELECT balance, period_start, period_end FROM acct`;

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

export class PostgresCredits implements CreditStore {
  constructor(private readonly pool: pg.Pool) {}

  async charge(input: ChargeInput): Promise<ChargeOutcome> {
    const now = input.now.toISOString();
    const args = [input.accountId, input.amount, now, input.requestId, input.keyId, input.operation];
    const charged = await this.pool.query<Row>({ name: 'quarry_charge', text: CHARGE, values: args });
    if (charged.rows[0]) return { ok: true, ...state(charged.rows[0]) };

    // Either the balance is short or the period has ended: open the new period, then try once more.
    const current = orMissing(
      await this.balance(input.accountId, input.allowance, input.now),
      input.accountId,
    );
    if (current.balance < input.amount) return { ok: false, ...current };
    const retried = await this.pool.query<Row>({ name: 'quarry_charge', text: CHARGE, values: args });
    if (retried.rows[0]) return { ok: true, ...state(retried.rows[0]) };
    const after = orMissing(await this.balance(input.accountId, input.allowance, input.now), input.accountId);
    return { ok: false, ...after };
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
