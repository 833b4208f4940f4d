import { Type } from 'typebox';
import { fixed } from '../../accounts/pricing.js';
import { changesOperation } from '../changes.js';
import { define } from '../operation.js';
import { checkRange, P } from '../params.js';
import { checkTenor, RATE_PARAMS } from './params.js';
import { readCurve, readHistory } from './read.js';
import { CurveData, HistoryData } from './schema.js';
import { TREASURY } from './source.js';

export const ratesOperations = [
  define({
    id: 'rates.curve',
    dataset: 'treasury-rates',
    url: '/v1/rates/treasury/curve',
    list: 'tenors',
    summary: 'Treasury par yield curve of a day',
    description:
      'The par yield curve of a day (default the newest held): each tenor with its change in basis points against ' +
      'the day before and a week, month and year earlier, and the 2s10s and 3m10y spreads, an inverted curve ' +
      'flagged; with asOf, as known at the end of that day.',
    querystring: Type.Object(
      { date: Type.Optional(RATE_PARAMS.date), asOf: Type.Optional(P.asOf) },
      { additionalProperties: false },
    ),
    data: CurveData,
    price: fixed('lookup', 1),
    read: readCurve,
  }),
  define({
    id: 'rates.history',
    dataset: 'treasury-rates',
    url: '/v1/rates/treasury/tenors/:tenor',
    list: 'rows',
    summary: 'One Treasury rate between two days',
    description:
      'The daily rate of one tenor (par yields, or a bill’s bank discount or coupon equivalent) from one day to ' +
      'another (default: every day held); with asOf, as known at the end of that day.',
    params: Type.Object({ tenor: RATE_PARAMS.tenor }, { additionalProperties: false }),
    querystring: Type.Object(
      {
        series: Type.Optional(RATE_PARAMS.series),
        from: Type.Optional(P.from),
        to: Type.Optional(P.to),
        asOf: Type.Optional(P.asOf),
      },
      { additionalProperties: false },
    ),
    data: HistoryData,
    price: fixed('history', 1),
    refine: (input) => {
      checkRange(input);
      checkTenor(input);
    },
    read: readHistory,
  }),
  changesOperation(
    'treasury-rates',
    [TREASURY],
    [{ table: 'treasury_rates', rowId: 'id', key: ['series', 'tenor', 'date'] }],
  ),
];
