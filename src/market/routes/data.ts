// /v1/data: GET with comma lists, POST with JSON arrays; up to 50 tickers and 25 fields.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../app/deps.js';
import { responses } from '../../app/responses.js';
import { type DataRequest, data, dataUnits, normaliseData } from '../data.js';
import { StoredProvider } from '../providers/stored.js';
import { type RouteInput, tickersByFields } from './request.js';
import { FieldErrors, FieldsAnswered, ItemError, ItemHead } from './schemas.js';

const Item = Type.Object({
  ...ItemHead,
  values: Type.Optional(
    Type.Record(Type.String(), Type.Union([Type.Number(), Type.String(), Type.Null()]), {
      description: 'Keyed by the field as sent.',
    }),
  ),
  errors: FieldErrors,
  currencies: Type.Optional(
    Type.Record(Type.String(), Type.String(), { description: 'Values not in the price currency.' }),
  ),
  periods: Type.Optional(
    Type.Record(Type.String(), Type.String(), { description: 'Fiscal period end of each statement value.' }),
  ),
  derived: Type.Optional(
    Type.Array(Type.String(), { description: 'Fields whose value is the full year less Q1 to Q3.' }),
  ),
  error: ItemError('not_found, or timeout when not ready within 12 seconds'),
});

export const DataResponse = Type.Object({
  access: Type.String(),
  period: Type.String(),
  fields: FieldsAnswered,
  items: Type.Array(Item),
});

const requestOf = (input: RouteInput) => tickersByFields<DataRequest>(input, ['period']);

export function registerDataRoutes(app: FastifyInstance, deps: Deps): void {
  const provider = new StoredProvider(deps);
  const meta = {
    doc: 'market' as const,
    tags: ['data'],
    marketKeyed: true,
    strictQuery: true,
    summary: 'Current values for tickers x fields',
    description:
      'Fields by id or terminal mnemonic, any letter case; values keyed as sent. A field that does not apply or has no ' +
      'value is null with an entry in errors. 1 unit per 20 tickers when every field comes from the quote, else 1 per 5.',
    units: (input: RouteInput) => dataUnits(normaliseData(requestOf(input))),
  };
  const period = Type.Optional(Type.Enum(['annual', 'quarterly']));
  const errors = [400, 401, 402, 403, 429];
  app.get('/v1/data', {
    schema: {
      querystring: Type.Object(
        {
          tickers: Type.String({ minLength: 1, maxLength: 4000 }),
          fields: Type.String({ minLength: 1, maxLength: 2000 }),
          period,
        },
        { additionalProperties: false },
      ),
      response: responses(DataResponse, ...errors),
    },
    config: { meta: { ...meta, operationId: 'data.get' } },
    handler: async (request) =>
      data(provider, requestOf({ query: request.query as Record<string, unknown>, body: undefined })),
  });
  app.post('/v1/data', {
    schema: {
      body: Type.Object(
        {
          tickers: Type.Array(Type.String({ minLength: 1, maxLength: 80 }), { minItems: 1, maxItems: 500 }),
          fields: Type.Array(Type.String({ minLength: 1, maxLength: 80 }), { minItems: 1, maxItems: 250 }),
          period,
        },
        { additionalProperties: false },
      ),
      response: responses(DataResponse, ...errors),
    },
    config: { meta: { ...meta, operationId: 'data.post' } },
    handler: async (request) => data(provider, request.body as DataRequest),
  });
}
