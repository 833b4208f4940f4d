// /v1/history: GET with comma lists, POST with JSON arrays; up to 10 tickers and 5 fields.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../app/deps.js';
import { responses } from '../../app/responses.js';
import { historyJson } from '../bar-rows.js';
import { history } from '../history.js';
import { type HistoryRequest, historyUnits, normalise, PERIODS } from '../history-request.js';
import { StoredProvider } from '../providers/stored.js';
import { type RouteInput, tickersByFields } from './request.js';
import { FieldErrors, FieldsAnswered, ItemError, ItemHead } from './schemas.js';

const Item = Type.Object({
  ...ItemHead,
  rows: Type.Optional(
    Type.Array(Type.Object({ date: Type.String() }, { additionalProperties: true }), {
      description: 'Oldest first: date plus one member per requested field, keyed as sent.',
    }),
  ),
  errors: FieldErrors,
  error: ItemError('not_found, or timeout when not ready within 12 seconds'),
  derived: Type.Optional(
    Type.Array(Type.String(), {
      description: 'Dates whose statement values are the full year less Q1 to Q3.',
    }),
  ),
  truncated: Type.Optional(
    Type.Object(
      { requestedStart: Type.String(), start: Type.String() },
      { description: 'Daily history reaches about 20 years: a longer range keeps the newest bars.' },
    ),
  ),
});

export const HistoryResponse = Type.Object({
  access: Type.String(),
  period: Type.String(),
  start: Type.String(),
  end: Type.String(),
  fields: FieldsAnswered,
  items: Type.Array(Item),
});

const today = () => new Date().toISOString().slice(0, 10);

/**
 * A history answer can hold tens of thousands of rows with fields keyed as sent: written as text (price rows
 * once per cached series, see bar-rows.ts) rather than by a schema serialiser walking open-ended row objects.
 * The rows are written in exactly the documented shape, which the tests check.
 */
function send(reply: FastifyReply, body: Parameters<typeof historyJson>[0]) {
  return reply.type('application/json; charset=utf-8').send(historyJson(body));
}

const requestOf = (input: RouteInput) => tickersByFields<HistoryRequest>(input, ['start', 'end', 'period']);

export function registerHistoryRoutes(app: FastifyInstance, deps: Deps): void {
  const provider = new StoredProvider(deps);
  const meta = {
    doc: 'market' as const,
    tags: ['history'],
    marketKeyed: true,
    strictQuery: true,
    summary: 'Rows of values between dates, oldest first',
    description:
      'Prices and volume daily, weekly or monthly (weekly and monthly from daily bars, dated on the last trading day, ' +
      'the current period included); statement fields quarterly or annually. Default start: a year before end ' +
      '(five for statement periods). One unit per ticker for each five years; statement periods one per five tickers.',
    units: (input: RouteInput) => historyUnits(normalise(requestOf(input), today())),
  };
  const period = Type.Optional(Type.Enum([...PERIODS]));
  const errors = [400, 401, 402, 403, 429];
  app.get('/v1/history', {
    schema: {
      querystring: Type.Object(
        {
          tickers: Type.String({ minLength: 1, maxLength: 2000 }),
          fields: Type.String({ minLength: 1, maxLength: 1000 }),
          start: Type.Optional(Type.String({ format: 'date' })),
          end: Type.Optional(Type.String({ format: 'date' })),
          period,
        },
        { additionalProperties: false },
      ),
      response: responses(HistoryResponse, ...errors),
    },
    config: { meta: { ...meta, operationId: 'history.get' } },
    handler: async (request, reply) =>
      send(
        reply,
        await history(
          provider,
          requestOf({ query: request.query as Record<string, unknown>, body: undefined }),
          today(),
        ),
      ),
  });
  app.post('/v1/history', {
    schema: {
      body: Type.Object(
        {
          tickers: Type.Array(Type.String({ minLength: 1, maxLength: 80 }), { minItems: 1, maxItems: 100 }),
          fields: Type.Array(Type.String({ minLength: 1, maxLength: 80 }), { minItems: 1, maxItems: 100 }),
          start: Type.Optional(Type.String({ format: 'date' })),
          end: Type.Optional(Type.String({ format: 'date' })),
          period,
        },
        { additionalProperties: false },
      ),
      response: responses(HistoryResponse, ...errors),
    },
    config: { meta: { ...meta, operationId: 'history.post' } },
    handler: async (request, reply) =>
      send(reply, await history(provider, request.body as HistoryRequest, today())),
  });
}
