// Account and usage routes of the stored-datasets API: keyed, 0 credits, credit headers.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AccountView, accountView, UsageView, usageView } from '../../accounts/views.js';
import type { Deps } from '../../kernel/deps.js';
import { AppError } from '../../kernel/errors.js';
import { KEYED_STATUSES, responses } from '../responses.js';

const noQuery = Type.Object({}, { additionalProperties: false });

export function registerAccountRoutes(app: FastifyInstance, deps: Deps): void {
  const base = {
    doc: 'datasets' as const,
    key: 'datasets' as const,
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
      const view = await accountView(deps, principalOf(request));
      if (request.meter.metered) request.meter.metered.balance = view.credits.balance;
      return view;
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
      const { balance, view } = await usageView(deps, principalOf(request));
      if (request.meter.metered) request.meter.metered.balance = balance;
      return view;
    },
  });
}

function principalOf(request: FastifyRequest) {
  const principal = request.meter.principal;
  if (!principal) throw new AppError('missing_key', 'This route needs an API key.');
  return principal;
}
