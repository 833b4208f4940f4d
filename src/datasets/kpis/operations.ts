import { Type } from 'typebox';
import { rangePriced } from '../../accounts/pricing.js';
import { SEC_EDGAR } from '../../ingest/sec/source.js';
import { changesOperation } from '../changes.js';
import { define } from '../operation.js';
import { checkRange, P } from '../params.js';
import { KPI_PARAMS } from './params.js';
import { readGuidance, readKpis } from './read.js';
import { KpisData } from './schema.js';

const O = Type.Optional;
const query = Type.Object(
  { metric: O(KPI_PARAMS.metric), basis: O(KPI_PARAMS.basis), from: O(P.from), to: O(P.to), asOf: O(P.asOf) },
  { additionalProperties: false },
);
const params = Type.Object({ symbol: P.symbol }, { additionalProperties: false });

export const kpisOperations = [
  define({
    id: 'kpis.company',
    dataset: 'kpis-guidance',
    url: '/v1/kpis/:symbol',
    list: 'series',
    summary: "A company's cited operating metrics",
    description: 'Series of reported operating metrics with evidence; asOf reads them as known on that date.',
    params,
    querystring: query,
    data: KpisData,
    price: rangePriced,
    refine: checkRange,
    read: readKpis,
  }),
  define({
    id: 'guidance.company',
    dataset: 'kpis-guidance',
    url: '/v1/guidance/:symbol',
    list: 'series',
    summary: "A company's guidance ranges",
    description: 'Guidance series with evidence; asOf reads them as known on that date.',
    params,
    querystring: query,
    data: KpisData,
    price: rangePriced,
    refine: checkRange,
    read: readGuidance,
  }),
  changesOperation(
    'kpis-guidance',
    [SEC_EDGAR],
    [
      {
        table: 'kpi_facts',
        rowId: 'row_id',
        key: ['fact_key'],
        knownAt: 'as_of',
        knownFrom: 'filing',
        json: ['dimensions', 'evidence'],
      },
    ],
  ),
];
