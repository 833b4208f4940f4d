import { Type } from 'typebox';
import { fixed } from '../../accounts/pricing.js';
import { SEC_EDGAR } from '../../ingest/sec/source.js';
import { changesOperation } from '../changes.js';
import { define } from '../operation.js';
import { P } from '../params.js';
import { listEvents } from './read.js';
import { EventsData } from './schema.js';

export const eventsOperations = [
  define({
    id: 'events.list',
    dataset: 'events',
    url: '/v1/events/:symbol',
    list: 'events',
    summary: "A company's 8-K events",
    description:
      'Item-classified 8-K filings, newest first; with asOf, as known at the end of that day (filings accepted by then).',
    params: Type.Object({ symbol: P.symbol }, { additionalProperties: false }),
    querystring: Type.Object(
      { limit: Type.Optional(P.limit), asOf: Type.Optional(P.asOf) },
      { additionalProperties: false },
    ),
    data: EventsData,
    price: fixed('search', 1),
    read: listEvents,
  }),
  changesOperation(
    'events',
    [SEC_EDGAR],
    [{ table: 'events', rowId: 'row_id', key: ['id'], json: ['items', 'people'] }],
  ),
];
