// What an operator does to an account from the console, as the CLI does it, each change recorded in the
// account's activity (and, for credits, in the ledger with the operator's reason).
import type { Deps } from '../kernel/deps.js';
import { AppError } from '../kernel/errors.js';
import { accountsTransaction } from '../store/sqlite-locks.js';
import { adjustBalanceIn, getAccount, setPlan } from './accounts.js';
import { type Actor, recordActivity } from './activity.js';
import type { PlanId } from './plans.js';

export async function operatorSetPlan(deps: Deps, actor: Actor, accountId: string, plan: PlanId) {
  const now = deps.clock();
  const account = await setPlan(deps, { accountId, plan });
  await recordActivity(deps.store.db, accountId, actor, 'plan set', plan, now);
  return account;
}

/** Adds (or, negative, removes) credits in the current period; the balance never goes below zero. */
export async function adjustBalance(
  deps: Deps,
  actor: Actor,
  accountId: string,
  delta: number,
  reason: string,
) {
  if (!Number.isSafeInteger(delta) || delta === 0) {
    throw new AppError('invalid_params', 'The adjustment must be a whole number of credits other than 0.');
  }
  const why = reason.trim();
  if (why === '') throw new AppError('invalid_params', 'Give a reason for the adjustment.');
  const before = await getAccount(deps.store.db, accountId);
  await deps.credits.balance(accountId, before.limits.creditsPerMonth, deps.clock());
  const now = deps.clock();
  await accountsTransaction(deps.store.db, async (tx) => {
    await adjustBalanceIn(tx, accountId, (balance) => balance + delta, 'console-adjust', why, now);
    const detail = `${delta > 0 ? '+' : ''}${delta}: ${why}`;
    await recordActivity(tx, accountId, actor, 'credits adjusted', detail, now);
  });
  return getAccount(deps.store.db, accountId);
}
