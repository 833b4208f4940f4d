import { Type } from 'typebox';
import { storedMeta } from '../envelope.js';
import { define, type OperationInput } from '../operation.js';
import { P } from '../params.js';
import { fixed } from '../pricing.js';
import { SOURCES } from '../sources.js';
import { EventsData } from './schema.js';

export const eventsOperations = [
  define({
    id: 'events.list',
    dataset: 'events',
    url: '/v1/events/:symbol',
    summary: "A company's 8-K events",
    description: 'Item-classified 8-K filings, newest first.',
    params: Type.Object({ symbol: P.symbol }, { additionalProperties: false }),
    querystring: Type.Object({ limit: Type.Optional(P.limit) }, { additionalProperties: false }),
    data: EventsData,
    price: fixed('search', 1),
    async read(_deps, { params }: OperationInput) {
      const ticker = String(params.symbol).toUpperCase();
      const data = { company: { ticker, cik: null, name: ticker, shortName: ticker }, events: [] };
      return { data, meta: storedMeta('events', [SOURCES['sec-edgar']]) };
    },
  }),
];
