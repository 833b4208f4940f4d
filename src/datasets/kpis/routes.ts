import { Type } from 'typebox';
import { storedMeta } from '../envelope.js';
import { define, type OperationInput } from '../operation.js';
import { checkRange, P } from '../params.js';
import { rangePriced } from '../pricing.js';
import { SOURCES } from '../sources.js';
import { KpisData } from './schema.js';

const O = Type.Optional;
const query = Type.Object(
  { metric: O(P.metric), basis: O(P.basis), from: O(P.from), to: O(P.to), asOf: O(P.asOf) },
  { additionalProperties: false },
);
const params = Type.Object({ symbol: P.symbol }, { additionalProperties: false });

async function read(_deps: unknown, { params }: OperationInput) {
  const data = {
    symbol: String(params.symbol).toUpperCase(),
    status: 'available',
    asOf: null,
    coverage: {
      country: null,
      languages: [],
      documents: 0,
      observations: 0,
      guidance: 0,
      firstPeriod: null,
      lastPeriod: null,
      lastPublishedAt: null,
      sourceKinds: [],
      conflicts: 0,
    },
    series: [],
    revisions: [],
    dictionary: [],
    access: 'full',
    lockedRows: 0,
    totalRows: 0,
    truncated: false,
    previewRows: 0,
    methodology: 'Facts cited from company filings; each carries its evidence.',
  };
  return { data, meta: storedMeta('kpis-guidance', [SOURCES['sec-edgar']]) };
}

export const kpisOperations = [
  define({
    id: 'kpis.company',
    dataset: 'kpis-guidance',
    url: '/v1/kpis/:symbol',
    summary: "A company's cited operating metrics",
    description: 'Series of reported operating metrics with evidence; asOf reads them as known on that date.',
    params,
    querystring: query,
    data: KpisData,
    price: rangePriced,
    refine: checkRange,
    read,
  }),
  define({
    id: 'guidance.company',
    dataset: 'kpis-guidance',
    url: '/v1/guidance/:symbol',
    summary: "A company's guidance ranges",
    description: 'Guidance series with evidence; asOf reads them as known on that date.',
    params,
    querystring: query,
    data: KpisData,
    price: rangePriced,
    refine: checkRange,
    read,
  }),
];
