// quotes: full quotes for up to 100 tickers, as GET/POST /v1/quotes and the market.quotes tool.
import { marketVerb } from '../verb/declare.js';
import { fromQuery } from '../verb/request.js';
import { checkedTickers, quotes, quotesUnits } from './quotes.js';
import { QuotesBody, QuotesQuery, QuotesResponse } from './schema.js';

export const QUOTES = marketVerb({
  name: 'quotes',
  key: 'market',
  request: QuotesBody,
  response: QuotesResponse,
  read: checkedTickers,
  units: quotesUnits,
  answer: (deps, tickers) => quotes(deps, tickers, deps.config.market.answerWithinMs),
  rest: {
    path: '/v1/quotes',
    methods: ['GET', 'POST'],
    summary: 'Full quotes for up to 100 tickers',
    description:
      'Tickers in any form (service, exchange-suffixed, terminal), mixed. One unit per 20 tickers.',
    query: QuotesQuery,
    fromQuery: (q) => fromQuery(q, ['tickers']),
  },
  tool: {
    name: 'market.quotes',
    title: 'Quotes',
    description:
      'Full quotes (price, change, volume, market cap, market state) for up to 100 tickers in any form: ' +
      'AAPL, BARC.L, "BARC LN Equity", "CL1 Comdty", EURUSD=X. The newest known price: a later daily close beats ' +
      'an older quote. An old quote says so (stale, staleReason), and the text names it above the table. ' +
      'Same answer as GET /v1/quotes.',
  },
});
