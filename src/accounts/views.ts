// What the account and usage routes answer: the caller's plan, credit period, balance, limits and usage.
import { Type } from 'typebox';
import type { Deps } from '../kernel/deps.js';
import { AppError } from '../kernel/errors.js';
import { Nullable } from '../kernel/schema.js';
import { type Account, getAccount } from './accounts.js';
import { countActiveKeys, type Principal } from './keys.js';
import { readUsage } from './usage-read.js';

const Period = Type.Object({
  start: Type.String({ description: 'Start of the current credit period (ISO 8601).' }),
  end: Type.String({
    description: 'End of the current credit period, exclusive: the next first of month, 00:00 UTC.',
  }),
});

export const AccountView = Type.Object({
  id: Type.String(),
  email: Type.String(),
  emailConfirmed: Type.Boolean(),
  plan: Type.String({ description: 'basic, desk or enterprise.' }),
  status: Type.String({ description: 'active while the plan runs.' }),
  planEndsAt: Nullable(Type.String({ description: 'When the plan ends, if it has an end.' })),
  period: Period,
  credits: Type.Object(
    {
      allowance: Type.Integer({ description: 'Credits granted for the period.' }),
      charged: Type.Integer({ description: 'Credits charged in the period.' }),
      refunded: Type.Integer({ description: 'Credits given back for calls that failed on our side.' }),
      adjusted: Type.Integer({ description: 'Credits added (or removed) by an operator.' }),
      balance: Type.Integer({ description: 'allowance - charged + refunded + adjusted. Authoritative.' }),
    },
    { description: 'The period’s credits.' },
  ),
  limits: Type.Object({
    creditsPerMonth: Type.Integer(),
    creditsPerMinute: Type.Integer(),
    maxKeys: Type.Integer(),
  }),
  keys: Type.Object(
    { used: Type.Integer(), allowed: Type.Integer() },
    { description: 'Active gds_ keys of the account and how many the plan allows.' },
  ),
  key: Type.Object(
    { id: Type.String(), prefix: Type.String() },
    { description: 'The key that made this call.' },
  ),
});

const CallTypeUsage = Type.Object({
  callType: Type.String(),
  calls: Type.Integer(),
  credits: Type.Integer(),
});

export const UsageView = Type.Object({
  plan: Type.String(),
  period: Period,
  totals: Type.Object({ calls: Type.Integer(), credits: Type.Integer() }),
  datasets: Type.Array(
    Type.Object({
      dataset: Type.String(),
      calls: Type.Integer(),
      credits: Type.Integer(),
      callTypes: Type.Array(CallTypeUsage),
    }),
  ),
  note: Type.String(),
});

/** account.get: the caller's account; opens the new period first if the last one has ended. */
export async function accountView(deps: Deps, { account: cached, key }: Principal) {
  await deps.credits.balance(cached.id, cached.limits.creditsPerMonth, deps.clock());
  const account = await getAccount(deps.store.db, cached.id);
  return {
    id: account.id,
    email: account.email,
    emailConfirmed: account.emailConfirmed,
    plan: account.plan,
    status: 'active',
    planEndsAt: account.planEndsAt,
    period: { start: account.periodStart, end: account.periodEnd },
    credits: creditFigures(account),
    limits: account.limits,
    keys: {
      used: await countActiveKeys(deps.store.db, account.id, 'datasets'),
      allowed: account.limits.maxKeys,
    },
    key: { id: key.id, prefix: key.prefix },
  };
}

/** usage.get: the current period's usage by dataset and call type, with the balance. */
export async function usageView(deps: Deps, { account }: Principal) {
  const state = await deps.credits.balance(account.id, account.limits.creditsPerMonth, deps.clock());
  if (!state) throw new AppError('not_found', 'The account no longer exists.');
  const usage = await readUsage(deps, account.id, state.periodStart);
  return {
    balance: state.balance,
    view: { plan: account.plan, period: { start: state.periodStart, end: state.periodEnd }, ...usage },
  };
}

/** The period's credit movements: balance = allowance - charged + refunded + adjusted. */
export function creditFigures(account: Account) {
  const { allowance, charged, refunded, adjusted, balance } = account;
  return { allowance, charged, refunded, adjusted, balance };
}
