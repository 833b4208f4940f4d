// Account verbs: create, confirm, plans and contracts, balance adjustments. Used by the CLI and tests;
// each change that touches a balance writes its ledger row in the same transaction.
import { type Kysely, sql } from 'kysely';
import type { Deps } from '../kernel/deps.js';
import { AppError } from '../kernel/errors.js';
import { periodFrom } from '../kernel/periods.js';
import { engineOf } from '../store/engine.js';
import type { AccountsTable, Database } from '../store/schema.js';
import { accountsTransaction } from '../store/sqlite-locks.js';
import { newId } from './key-text.js';
import { type Contract, type MarketPlan, type PlanId, type PlanLimits, planLimits } from './plans.js';

export interface Account {
  id: string;
  email: string;
  emailConfirmed: boolean;
  plan: PlanId;
  planEndsAt: string | null;
  marketPlan: MarketPlan;
  contract: Contract;
  limits: PlanLimits;
  periodStart: string;
  periodEnd: string;
  allowance: number;
  balance: number;
  charged: number;
  refunded: number;
  adjusted: number;
  createdAt: string;
  /** An operator: sees the console's operator view. */
  admin: boolean;
  /** Whether a console password is set (the hash never leaves this module's callers). */
  hasPassword: boolean;
}

/** What the account and key verbs run on: the store, and the clock every change is stamped with. */
export type AccountDeps = Pick<Deps, 'store' | 'clock'>;

export function toAccount(row: AccountsTable): Account {
  const contract: Contract = {
    creditsPerMonth: row.contract_credits_per_month,
    creditsPerMinute: row.contract_credits_per_minute,
    maxKeys: row.contract_max_keys,
  };
  const plan = row.plan as PlanId;
  return {
    id: row.id,
    email: row.email,
    emailConfirmed: row.email_confirmed === 1,
    plan,
    planEndsAt: row.plan_ends_at,
    marketPlan: row.market_plan as MarketPlan,
    contract,
    limits: planLimits(plan, contract),
    periodStart: row.period_start,
    periodEnd: row.period_end,
    allowance: row.allowance,
    balance: row.balance,
    charged: row.period_charged,
    refunded: row.period_refunded,
    adjusted: row.period_adjusted,
    createdAt: row.created_at,
    admin: row.admin === 1,
    hasPassword: row.password_hash !== null,
  };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface CreateAccountInput {
  email: string;
  plan?: PlanId;
  marketPlan?: MarketPlan;
  emailConfirmed?: boolean;
  /** A console password's hash (accounts/passwords.ts), for accounts that sign up in the console. */
  passwordHash?: string;
}

export async function createAccount(deps: AccountDeps, input: CreateAccountInput) {
  const db = deps.store.db;
  const now = deps.clock();
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw new AppError('invalid_params', `"${input.email}" is not an email address`);
  const existing = await db.selectFrom('accounts').select('id').where('email', '=', email).executeTakeFirst();
  if (existing) throw new AppError('invalid_params', `an account with email ${email} exists: ${existing.id}`);
  const plan = input.plan ?? 'none';
  const allowance = planLimits(plan, {
    creditsPerMonth: null,
    creditsPerMinute: null,
    maxKeys: null,
  }).creditsPerMonth;
  const period = periodFrom(now);
  const id = newId('acct');
  const stamp = now.toISOString();
  await accountsTransaction(db, async (tx) => {
    await tx
      .insertInto('accounts')
      .values({
        id,
        email,
        email_confirmed: input.emailConfirmed ? 1 : 0,
        plan,
        plan_ends_at: null,
        market_plan: input.marketPlan ?? 'free',
        contract_credits_per_month: null,
        contract_credits_per_minute: null,
        contract_max_keys: null,
        period_start: period.start,
        period_end: period.end,
        allowance,
        balance: allowance,
        period_charged: 0,
        period_refunded: 0,
        period_adjusted: 0,
        created_at: stamp,
        updated_at: stamp,
        password_hash: input.passwordHash ?? null,
        admin: 0,
        stripe_customer: null,
      })
      .execute();
    await grant(tx, id, period.start, allowance, stamp);
  });
  return getAccount(db, id);
}

export async function findAccount(db: Kysely<Database>, id: string): Promise<Account | null> {
  const row = await db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toAccount(row) : null;
}

export async function getAccount(db: Kysely<Database>, id: string): Promise<Account> {
  const account = await findAccount(db, id);
  if (!account) throw new AppError('not_found', `no account ${id}`);
  return account;
}

/** Accounts oldest first; with `email`, those whose address contains it, in any letter case. */
export async function listAccounts(
  db: Kysely<Database>,
  filter: { email?: string } = {},
): Promise<Account[]> {
  let query = db.selectFrom('accounts').selectAll().orderBy('created_at').orderBy('id');
  if (filter.email) {
    const escaped = filter.email.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
    query = query.where(sql<boolean>`lower(email) like ${`%${escaped}%`} escape '\\'`);
  }
  return (await query.execute()).map(toAccount);
}

export async function confirmEmail(deps: AccountDeps, { accountId: id }: { accountId: string }) {
  await update(deps.store.db, id, { email_confirmed: 1, updated_at: deps.clock().toISOString() });
  return getAccount(deps.store.db, id);
}

/** Ends the plan at `at`: from then on its keys get plan_required, and no key can be made. */
export async function endPlan(deps: AccountDeps, { accountId: id, at }: { accountId: string; at: Date }) {
  await update(deps.store.db, id, { plan_ends_at: at.toISOString(), updated_at: deps.clock().toISOString() });
  return getAccount(deps.store.db, id);
}

/** Marks an account as an operator's (or not): operators see the console's operator view. */
export async function setAdmin(
  deps: AccountDeps,
  { accountId: id, admin }: { accountId: string; admin: boolean },
) {
  await update(deps.store.db, id, { admin: admin ? 1 : 0, updated_at: deps.clock().toISOString() });
  return getAccount(deps.store.db, id);
}

export async function setMarketPlan(
  deps: AccountDeps,
  { accountId: id, plan }: { accountId: string; plan: MarketPlan },
) {
  await update(deps.store.db, id, { market_plan: plan, updated_at: deps.clock().toISOString() });
  return getAccount(deps.store.db, id);
}

/** A plan change opens a new period at once, with the new plan's monthly credits. */
export async function setPlan(
  deps: AccountDeps,
  { accountId: id, plan, endsAt = null }: { accountId: string; plan: PlanId; endsAt?: string | null },
) {
  const db = deps.store.db;
  const now = deps.clock();
  await accountsTransaction(db, async (tx) => {
    const account = await lockAccount(tx, id);
    const allowance = planLimits(plan, account.contract).creditsPerMonth;
    await update(tx, id, { plan, plan_ends_at: endsAt, updated_at: now.toISOString() });
    await openPeriod(tx, id, allowance, account.periodStart, now);
  });
  return getAccount(db, id);
}

/** Contract values for an enterprise account; a change of monthly credits opens a new period. */
export async function setContract(
  deps: AccountDeps,
  { accountId: id, change }: { accountId: string; change: Partial<Contract> },
) {
  const db = deps.store.db;
  const now = deps.clock();
  await accountsTransaction(db, async (tx) => {
    const account = await lockAccount(tx, id);
    const contract = { ...account.contract, ...change };
    const allowance = planLimits(account.plan, contract).creditsPerMonth;
    await update(tx, id, {
      contract_credits_per_month: contract.creditsPerMonth,
      contract_credits_per_minute: contract.creditsPerMinute,
      contract_max_keys: contract.maxKeys,
      updated_at: now.toISOString(),
    });
    if (allowance !== account.allowance) await openPeriod(tx, id, allowance, account.periodStart, now);
  });
  return getAccount(db, id);
}

/**
 * The account's row, locked until `tx` ends: charges, refunds and other operators' changes to it wait, so a
 * change computed from it is relative to what the ledger holds at that instant. On SQLite the transaction
 * holds the accounts file's write lock from its start, which excludes every other writer of accounts already.
 */
async function lockAccount(tx: Kysely<Database>, id: string): Promise<Account> {
  const query = tx.selectFrom('accounts').selectAll().where('id', '=', id);
  const row = await (engineOf(tx) === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
  if (!row) throw new AppError('not_found', `no account ${id}`);
  return toAccount(row);
}

/** Sets the balance of the current period, recording the difference as an adjustment. */
export async function setBalance(
  deps: AccountDeps,
  { accountId: id, balance }: { accountId: string; balance: number },
) {
  const db = deps.store.db;
  const now = deps.clock();
  if (!Number.isSafeInteger(balance) || balance < 0) {
    throw new AppError('invalid_params', 'the balance must be a whole number of credits, 0 or more');
  }
  await accountsTransaction(db, (tx) => adjustBalanceIn(tx, id, () => balance, 'set-balance', null, now));
  return getAccount(db, id);
}

/**
 * Moves the current period's balance to `target(balance)` inside `tx`, writing the difference to the ledger
 * as an adjustment (with the operator's reason, if any). Refuses a balance below zero. Answers the change.
 */
export async function adjustBalanceIn(
  tx: Kysely<Database>,
  id: string,
  target: (balance: number) => number,
  operation: string,
  reason: string | null,
  now: Date,
): Promise<{ delta: number; balance: number }> {
  const account = await lockAccount(tx, id);
  const balance = target(account.balance);
  if (balance < 0) {
    throw new AppError('invalid_params', `The balance is ${account.balance}; it cannot go below zero.`);
  }
  const delta = balance - account.balance;
  // Relative to the row as written, which the lock keeps as read.
  await tx
    .updateTable('accounts')
    .set((eb) => ({
      balance: eb('balance', '+', delta),
      period_adjusted: eb('period_adjusted', '+', delta),
      updated_at: now.toISOString(),
    }))
    .where('id', '=', id)
    .execute();
  await tx
    .insertInto('ledger')
    .values({
      account_id: id,
      period_start: account.periodStart,
      kind: 'adjustment',
      amount: delta,
      balance_after: balance,
      request_id: null,
      key_id: null,
      operation,
      created_at: now.toISOString(),
      reason,
    })
    .execute();
  return { delta, balance };
}

async function update(db: Kysely<Database>, id: string, values: Partial<AccountsTable>) {
  const result = await db.updateTable('accounts').set(values).where('id', '=', id).executeTakeFirst();
  if (result.numUpdatedRows === 0n) throw new AppError('not_found', `no account ${id}`);
}

/** Opens a period at `now`, or just after the current one's start, so that no two periods share a start. */
async function openPeriod(
  tx: Kysely<Database>,
  id: string,
  allowance: number,
  currentStart: string,
  now: Date,
) {
  const floor = Date.parse(currentStart) + 1;
  const period = periodFrom(now.getTime() < floor ? new Date(floor) : now);
  await update(tx, id, {
    period_start: period.start,
    period_end: period.end,
    allowance,
    balance: allowance,
    period_charged: 0,
    period_refunded: 0,
    period_adjusted: 0,
  });
  await grant(tx, id, period.start, allowance, now.toISOString());
}

async function grant(tx: Kysely<Database>, id: string, periodStart: string, allowance: number, at: string) {
  await tx
    .insertInto('ledger')
    .values({
      account_id: id,
      period_start: periodStart,
      kind: 'grant',
      amount: allowance,
      balance_after: allowance,
      request_id: null,
      key_id: null,
      operation: null,
      created_at: at,
    })
    .execute();
}
