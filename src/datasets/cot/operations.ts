import { Type } from 'typebox';
import { fixed } from '../../accounts/pricing.js';
import { changesOperation } from '../changes.js';
import { define } from '../operation.js';
import { P } from '../params.js';
import { COT_PARAMS, checkTraderClass } from './params.js';
import { readBoard, readContract } from './read.js';
import { CotData } from './schema.js';
import { CFTC } from './source.js';

const query = Type.Object(
  {
    report: Type.Optional(COT_PARAMS.report),
    traderClass: Type.Optional(COT_PARAMS.traderClass),
    asOf: Type.Optional(P.asOf),
  },
  { additionalProperties: false },
);

export const cotOperations = [
  define({
    id: 'cot.board',
    dataset: 'cot',
    url: '/v1/cftc/cot',
    list: 'rows',
    summary: 'Positioning board of every contract',
    description:
      "Latest report's positions of one trader class for every contract, with 1- and 3-year percentiles; " +
      'with asOf, as known at the end of that day.',
    querystring: query,
    data: CotData,
    price: fixed('lookup', 1),
    refine: checkTraderClass,
    read: readBoard,
  }),
  define({
    id: 'cot.contract',
    dataset: 'cot',
    url: '/v1/cftc/cot/contracts/:contractCode',
    list: 'rows',
    summary: "One contract's positioning history",
    description:
      'Every stored report of one contract for one trader class, oldest first; with asOf, as known at the end of ' +
      'that day (a report corrected later shows as first published).',
    params: Type.Object({ contractCode: COT_PARAMS.contractCode }, { additionalProperties: false }),
    querystring: query,
    data: CotData,
    price: fixed('history', 1),
    refine: checkTraderClass,
    read: readContract,
  }),
  changesOperation(
    'cot',
    [CFTC],
    [
      {
        table: 'cot_records',
        rowId: 'id',
        key: ['report_family', 'contract_code', 'report_date'],
        json: ['positions'],
      },
    ],
  ),
];
