// Account and usage routes of the stored-datasets API: keyed, 0 credits, credit headers.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../app/deps.js';
import { AppError } from '../app/errors.js';
import { KEYED_STATUSES, responses } from '../app/responses.js';
import { Nullable } from '../datasets/envelope.js';
import { getAccount } from './accounts.js';
import { countActiveKeys } from './keys.js';
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

const noQuery = Type.Object({}, { additionalProperties: false });

export function registerAccountRoutes(app: FastifyInstance, deps: Deps): void {
  const base = {
    doc: 'datasets' as const,
    keyed: true,
    datasetsApi: true,
    strictQuery: true,
    tags: ['account'],
  };

  app.get('/v1/datasets/account', {
    schema: { querystring: noQuery, response: responses(AccountView, ...KEYED_STATUSES) },
    config: {
      meta: {
        ...base,
        operationId: 'account.get',
        summary: 'Plan, current credit period, balance and limits',
        description: 'Costs 0 credits. The balance is authoritative.',
      },
    },
    handler: async (request) => {
      const { account: cached, key } = principalOf(request);
      // Opens the new period first if the last one has ended, so the figures below are current.
      await deps.credits.balance(cached.id, cached.limits.creditsPerMonth, deps.clock());
      const account = await getAccount(deps.store.db, cached.id);
      request.meter.balance = account.balance;
      return {
        id: account.id,
        email: account.email,
        emailConfirmed: account.emailConfirmed,
        plan: account.plan,
        status: 'active',
        planEndsAt: account.planEndsAt,
        period: { start: account.periodStart, end: account.periodEnd },
        credits: {
          allowance: account.allowance,
          charged: account.charged,
          refunded: account.refunded,
          adjusted: account.adjusted,
          balance: account.balance,
        },
        limits: account.limits,
        keys: {
          used: await countActiveKeys(deps.store.db, account.id, 'datasets'),
          allowed: account.limits.maxKeys,
        },
        key: { id: key.id, prefix: key.prefix },
      };
    },
  });

  app.get('/v1/datasets/usage', {
    schema: { querystring: noQuery, response: responses(UsageView, ...KEYED_STATUSES) },
    config: {
      meta: {
        ...base,
        operationId: 'usage.get',
        summary: 'Usage of the current credit period by dataset and call type',
        description: 'Costs 0 credits. Usage is buffered and may trail the balance by a few seconds.',
      },
    },
    handler: async (request) => {
      const { account } = principalOf(request);
      const state = await deps.credits.balance(account.id, account.limits.creditsPerMonth, deps.clock());
      if (!state) throw new AppError('not_found', 'The account no longer exists.');
      request.meter.balance = state.balance;
      const usage = await readUsage(deps, account.id, state.periodStart);
      return { plan: account.plan, period: { start: state.periodStart, end: state.periodEnd }, ...usage };
    },
  });
}

function principalOf(request: FastifyRequest) {
  const principal = request.meter.principal;
  if (!principal) throw new AppError('missing_key', 'This route needs an API key.');
  return principal;
}
