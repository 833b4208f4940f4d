// search: instruments by symbol or name, as GET/POST /v1/search and the market.search tool.
import { marketVerb } from '../verb/declare.js';
import { SearchBody, SearchQuery, SearchResponse } from './schema.js';
import { checkedQuery, searchInstruments } from './search.js';

export const SEARCH = marketVerb({
  name: 'search',
  key: 'market',
  request: SearchBody,
  response: SearchResponse,
  read: checkedQuery,
  /** One unit a search. */
  units: () => 1,
  answer: searchInstruments,
  rest: {
    path: '/v1/search',
    methods: ['GET', 'POST'],
    summary: 'Find instruments by symbol or name',
    description:
      'Instruments whose symbol or name contains q, those with stored data first, then the upstream search; each ' +
      'in the service, exchange-suffixed and terminal forms. One unit.',
    query: SearchQuery,
    fromQuery: (q) => ({ q: String(q.q ?? '') }),
  },
  tool: {
    name: 'market.search',
    title: 'Find instruments',
    description:
      'Instruments whose symbol or name contains q (stored ones first, then the upstream search), each in the ' +
      'service, exchange-suffixed and terminal forms, any of which the other tools take. One unit. Same answer as GET /v1/search.',
  },
});
