// SQLite credit statements: synchronous, each change inside a transaction that first takes the accounts file's
// write lock, so no other process (a CLI command, another server on the same files) can interleave between
// the check and the update, and a load, which locks the data file only, never holds a charge up (docs/adr/036).
// Charges arriving in the same turn of the event loop share one transaction (group commit). A transaction open
// on the same connection is waited for, never joined (test/store/charge-beside-load); another process's lock
// on the accounts file is waited for off the event loop, never in SQLite's busy handler, which would hold every
// request of this process meanwhile.
import type SQLite from 'better-sqlite3';
import { isoTime } from '../kernel/iso-time.js';
import { periodContaining } from '../kernel/periods.js';
import type { BalanceState, ChargeInput, ChargeOutcome, CreditStore, RefundInput } from './credits.js';
import { isBusy, LOCK_ACCOUNTS_SQL, LOCKED_FOR_MS, StoreLocked, whenUnlocked } from './sqlite-locks.js';

const LEDGER_COLUMNS =
  'account_id, period_start, kind, amount, balance_after, request_id, key_id, operation, created_at';
const COLUMN_COUNT = 9;
/** 9 columns x 100 rows stays well under SQLite's limit of bound parameters. */
const MAX_ROWS_PER_INSERT = 100;
const TRY_EVERY_MS = 2;

/** Another connection holds the accounts file's write lock: the change was not made, and may be tried again. */
const LOCKED = Symbol('locked');

type LedgerValues = [
  string,
  string,
  string,
  number,
  number,
  string | null,
  string | null,
  string | null,
  string,
];

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
  private readonly write: SQLite.Statement<LedgerValues>;
  private readonly inserts = new Map<number, SQLite.Statement<unknown[]>>();
  private readonly chargeBatch: (inputs: ChargeInput[]) => (ChargeOutcome | null)[];
  private queue: { input: ChargeInput; resolve(o: ChargeOutcome): void; reject(e: unknown): void }[] = [];
  private readonly refundTx: (input: RefundInput) => number | null;
  private readonly balanceTx: (accountId: string, allowance: number, now: Date) => BalanceState | null;

  /** Takes the accounts file's write lock: the first statement of every credit transaction. */
  private readonly lock: SQLite.Statement<[]>;

  constructor(
    private readonly db: SQLite.Database,
    /** How long a change waits for another process's lock on the accounts file before it gives up. */
    private readonly lockedForMs = LOCKED_FOR_MS,
  ) {
    this.lock = db.prepare(LOCK_ACCOUNTS_SQL);
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
    this.write = db.prepare(`INSERT INTO ledger (${LEDGER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);

    this.chargeBatch = db.transaction((inputs: ChargeInput[]) => this.chargeAll(inputs)).deferred;

    this.refundTx = db.transaction((input: RefundInput) => {
      this.lock.run();
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
        isoTime(input.now),
      );
      return row.balance;
    }).deferred;

    this.balanceTx = db.transaction((accountId: string, allowance: number, now: Date) => {
      this.lock.run();
      const row = this.current(accountId, allowance, now);
      return row ? state(row) : null;
    }).deferred;
  }

  /**
   * A batch of charges in one transaction: each account read once and debited once for what it was charged,
   * each charge refused that its balance cannot cover, the ledger rows written in as few statements as fit.
   */
  private chargeAll(inputs: ChargeInput[]): (ChargeOutcome | null)[] {
    this.lock.run();
    const accounts = new Map<string, AccountRow & { charged: number }>();
    // The ledger rows' values one row after another, in LEDGER_COLUMNS order.
    const values: LedgerValues[number][] = [];
    const outcomes = inputs.map((input): ChargeOutcome | null => {
      let row = accounts.get(input.accountId);
      if (!row) {
        const current = this.current(input.accountId, input.allowance, input.now);
        if (!current) return null;
        row = { ...current, charged: 0 };
        accounts.set(input.accountId, row);
      }
      const ok = row.balance >= input.amount;
      if (ok) {
        row.balance -= input.amount;
        row.charged += input.amount;
        values.push(
          input.accountId,
          row.period_start,
          'charge',
          -input.amount,
          row.balance,
          input.requestId,
          input.keyId,
          input.operation,
          isoTime(input.now),
        );
      }
      return { ok, balance: row.balance, periodStart: row.period_start, periodEnd: row.period_end };
    });
    for (const [id, row] of accounts) if (row.charged > 0) this.debit.run(row.charged, row.charged, id);
    const perInsert = MAX_ROWS_PER_INSERT * COLUMN_COUNT;
    for (let i = 0; i < values.length; i += perInsert) {
      const chunk = values.length <= perInsert ? values : values.slice(i, i + perInsert);
      this.insertMany(this.db, chunk.length / COLUMN_COUNT).run(chunk);
    }
    return outcomes;
  }

  /** A prepared INSERT of `count` ledger rows, one statement for a whole batch. */
  private insertMany(db: SQLite.Database, count: number): SQLite.Statement<unknown[]> {
    let statement = this.inserts.get(count);
    if (!statement) {
      const values = Array.from({ length: count }, () => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
      statement = db.prepare(`INSERT INTO ledger (${LEDGER_COLUMNS}) VALUES ${values}`);
      this.inserts.set(count, statement);
    }
    return statement;
  }

  /** The account's row, after opening a new period if the last one has ended. Call inside a transaction. */
  private current(accountId: string, allowance: number, now: Date): AccountRow | null {
    const row = this.select.get(accountId);
    if (!row) return null;
    if (isoTime(now) < row.period_end) return row;
    const period = periodContaining(now);
    this.open.run(period.start, period.end, allowance, allowance, accountId);
    this.write.run(accountId, period.start, 'grant', allowance, allowance, null, null, null, isoTime(now));
    return { balance: allowance, period_start: period.start, period_end: period.end };
  }

  /**
   * Charges wait for the end of the current turn of the event loop and are committed together, in one
   * IMMEDIATE transaction, in arrival order; each resolves only after that commit.
   */
  charge(input: ChargeInput): Promise<ChargeOutcome> {
    return new Promise((resolve, reject) => {
      if (this.queue.length === 0) setImmediate(() => this.commitQueued());
      this.queue.push({ input, resolve, reject });
    });
  }

  private commitQueued(since = performance.now()): void {
    if (this.busy()) {
      // This process's own load: its end is waited for, however long; the lock's wait starts after it.
      setTimeout(() => this.commitQueued(), 1);
      return;
    }
    const batch = this.queue;
    try {
      const outcomes = this.unlessLocked(() => this.chargeBatch(batch.map((item) => item.input)));
      if (outcomes === LOCKED) {
        if (performance.now() - since > this.lockedForMs) throw new StoreLocked('the charge');
        // Charges arriving meanwhile join the batch being retried.
        setTimeout(() => this.commitQueued(since), TRY_EVERY_MS);
        return;
      }
      this.queue = [];
      batch.forEach((item, i) => {
        const outcome = outcomes[i];
        if (outcome) item.resolve(outcome);
        else item.reject(new Error(`account ${item.input.accountId} vanished during a charge`));
      });
    } catch (error) {
      this.queue = [];
      for (const item of batch) item.reject(error);
    }
  }

  async refund(input: RefundInput): Promise<number | null> {
    return this.whenWritable(() => this.refundTx(input));
  }

  async balance(accountId: string, allowance: number, now: Date): Promise<BalanceState | null> {
    const row = this.select.get(accountId);
    if (row && isoTime(now) < row.period_end) return state(row);
    return this.whenWritable(() => this.balanceTx(accountId, allowance, now));
  }

  /** Runs a write once no transaction is open on this connection and no other process holds the lock. */
  private whenWritable<T>(write: () => T): Promise<T> {
    return whenUnlocked(write, 'the credit change', {
      lockedForMs: this.lockedForMs,
      ready: () => !this.busy(),
    });
  }

  /** The write, or LOCKED at once when another connection holds the accounts file's write lock. */
  private unlessLocked<T>(write: () => T): T | typeof LOCKED {
    try {
      return write();
    } catch (error) {
      if (isBusy(error)) return LOCKED;
      throw error;
    }
  }

  /**
   * Whether a transaction is open on the connection: another's (a load's, between its batches, on the same
   * connection). A charge run now would join it and be undone with it, so credits wait for it to end.
   */
  private busy(): boolean {
    return this.db.inTransaction;
  }
}

function state(row: AccountRow): BalanceState {
  return { balance: row.balance, periodStart: row.period_start, periodEnd: row.period_end };
}
