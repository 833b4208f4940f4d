// actions: dividends, capital gains and splits by ticker, as GET/POST /v1/actions and the market.actions tool.
import { marketVerb } from '../verb/declare.js';
import { fromQuery } from '../verb/request.js';
import { actions, actionsUnits, checkedActions } from './actions.js';
import { ActionsBody, ActionsQuery, ActionsResponse } from './schema.js';

export const ACTIONS = marketVerb({
  name: 'actions',
  key: 'market',
  request: ActionsBody,
  response: ActionsResponse,
  read: checkedActions,
  units: actionsUnits,
  answer: (deps, request) => actions(deps, request, deps.config.market.answerWithinMs),
  rest: {
    path: '/v1/actions',
    methods: ['GET', 'POST'],
    summary: 'Dividends, capital gains and splits by ticker',
    description:
      "Each listing's corporate actions between start and end, oldest first: ex-date, type, cash per share in the " +
      'currency its prices are answered in (pence under a terminal-form London ticker), split numerator and ' +
      "denominator, and when each became known. Amounts in today's shares (adjust=split, as history's prices) or as " +
      'paid (adjust=none). One unit per 20 tickers.',
    query: ActionsQuery,
    fromQuery: (q) => {
      const request = fromQuery(q, ['tickers'], ['start', 'end', 'adjust', 'asOf']);
      return typeof q.types === 'string' ? { ...request, types: q.types.split(',') } : request;
    },
  },
  tool: {
    name: 'market.actions',
    title: 'Dividends and splits',
    description:
      'Corporate actions of up to 100 tickers between start and end (default: all held): dividends, capital gains ' +
      "and splits, oldest first, by ex-date; cash per share in the ticker's price currency, in today's shares " +
      '(adjust=split, as history) or as paid (adjust=none); knownAt says when each became known. Same answer as ' +
      'POST /v1/actions.',
  },
});
