// resolve: what each ticker resolves to and what is held for it, as the market.resolve tool.
import { checkedTickers, quotesUnits } from '../quotes/quotes.js';
import { marketVerb } from '../verb/declare.js';
import { TickersBody } from '../verb/schema.js';
import { resolveTickers } from './resolve.js';
import { ResolveResponse } from './schema.js';

export const RESOLVE = marketVerb({
  name: 'resolve',
  key: 'market',
  request: TickersBody,
  response: ResolveResponse,
  read: checkedTickers,
  units: quotesUnits,
  answer: resolveTickers,
  tool: {
    name: 'market.resolve',
    title: 'Resolve tickers',
    description:
      'What each ticker, in the service, exchange-suffixed or terminal form, resolves to (service ticker, provider ' +
      'symbol, exchange, asset type, price currency) and what data is held for it (quote, daily bars, statements, ' +
      'short interest).',
  },
});
