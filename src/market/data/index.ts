// data: current values for tickers x fields, as GET/POST /v1/data and the market.data tool.
import { marketVerb } from '../verb/declare.js';
import { fromQuery } from '../verb/request.js';
import { data, dataUnits, readData } from './data.js';
import { DataBody, DataQuery, DataResponse } from './schema.js';

export const DATA = marketVerb({
  name: 'data',
  key: 'market',
  request: DataBody,
  response: DataResponse,
  read: readData,
  units: dataUnits,
  answer: (deps, request) => data(deps, request, deps.config.market.answerWithinMs),
  rest: {
    path: '/v1/data',
    methods: ['GET', 'POST'],
    summary: 'Current values for tickers x fields',
    description:
      'Fields by id or terminal mnemonic, any letter case; values keyed as sent. A field that does not apply or has no ' +
      'value is null with an entry in errors. 1 unit per 20 tickers when every field comes from the quote, else 1 per 5.',
    query: DataQuery,
    fromQuery: (q) => fromQuery(q, ['tickers', 'fields'], ['period', 'asOf']),
  },
  tool: {
    name: 'market.data',
    title: 'Current values by field',
    description:
      'Current values for up to 50 tickers x 25 fields, fields by id or terminal mnemonic (PX_LAST, CUR_MKT_CAP, ' +
      'VOLATILITY_30D, EQY_BETA, SALES_REV_TURN…); period annual or quarterly for statement fields. A field that ' +
      'does not apply is null with an entry in errors. asOf says when each value was true; an item whose oldest ' +
      "value predates its market's last session is stale, named above the table. Same answer as POST /v1/data.",
  },
  // Every member of a data answer is in the answer's schema (resolved is open): it is its own wire form.
  wire: (answer) => answer,
});
