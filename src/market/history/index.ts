// history: rows of values between dates, as GET/POST /v1/history and the market.history tool.
import { historyAnswerInTurns, historyJson } from '../bars/rows.js';
import { marketVerb } from '../verb/declare.js';
import { fromQuery } from '../verb/request.js';
import { history } from './history.js';
import { historyUnits, readHistory } from './request.js';
import { HistoryBody, HistoryQuery, HistoryResponse } from './schema.js';

export const HISTORY = marketVerb({
  name: 'history',
  key: 'market',
  request: HistoryBody,
  response: HistoryResponse,
  read: readHistory,
  units: historyUnits,
  answer: (deps, request) => history(deps, request, deps.config.market.answerWithinMs),
  rest: {
    path: '/v1/history',
    methods: ['GET', 'POST'],
    summary: 'Rows of values between dates, oldest first',
    description:
      'Prices and volume daily, weekly or monthly (weekly and monthly from daily bars, dated on the last trading day, ' +
      'the current period included); statement fields quarterly or annually. Default start: a year before end ' +
      '(five for statement periods). One unit per ticker for each five calendar years served (a start on or after the same date five years before ' +
      'the end is one span; 29 February steps back to the 28th; at most 20 years, 4 units); statement periods one per five tickers.',
    query: HistoryQuery,
    fromQuery: (q) => fromQuery(q, ['tickers', 'fields'], ['start', 'end', 'period', 'asOf', 'adjust']),
    conditional: true,
  },
  tool: {
    name: 'market.history',
    title: 'History',
    description:
      'Rows oldest first for up to 10 tickers x 5 fields between start and end (YYYY-MM-DD; default the last ' +
      'year, five for statement periods): prices and volume daily, weekly or monthly; statement fields quarterly ' +
      'or annually. adjust: split (default), none (as traded) or total (dividends reinvested); ' +
      'TOT_RETURN_INDEX_GROSS_DVDS is the total-return index. Long answers come in pages: pass continuation alone ' +
      'to get the next. An item whose last row ' +
      "predates its market's last session before end is stale, named above the rows. Same answer as POST /v1/history.",
  },
  // A history answer can hold tens of thousands of rows with fields keyed as sent: written as text (price rows
  // once per cached series, see bars/rows.ts) in exactly the documented shape, which the tests check. Its ETag
  // names the cached rows rather than hashing their text again, and each series is written in a turn of the
  // event loop of its own, so answers ready together do not hold the loop as one.
  text: (answer) => historyAnswerInTurns(answer),
  wire: (answer) => {
    const written: object = JSON.parse(historyJson(answer));
    return written;
  },
});
