// short interest: shares short and days to cover per ticker, as the market.short_interest tool.
import { checkedTickers, quotesUnits } from '../quotes/quotes.js';
import { marketVerb } from '../verb/declare.js';
import { TickersBody } from '../verb/schema.js';
import { ShortInterestResponse } from './schema.js';
import { shortInterest } from './short-interest.js';

export const SHORT_INTEREST = marketVerb({
  name: 'short-interest',
  key: 'market',
  request: TickersBody,
  response: ShortInterestResponse,
  read: checkedTickers,
  units: quotesUnits,
  answer: shortInterest,
  tool: {
    name: 'market.short_interest',
    title: 'Short interest',
    description:
      'Short interest (terminal SHORT_INT) per ticker: shares short and the prior settlement, the change, days to ' +
      'cover, percent of float and of shares outstanding, the settlement date, and stale when that date is more ' +
      'than 35 days old.',
  },
});
