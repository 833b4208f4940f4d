// Public routes of the stored-datasets API: catalog, cost estimate, API description, samples. No key.
import type { FastifyInstance } from 'fastify';
import { type TObject, Type } from 'typebox';
import type { Deps } from '../app/deps.js';
import { AppError } from '../app/errors.js';
import { rateHeaders, retryAfterSeconds } from '../app/metering.js';
import { responses } from '../app/responses.js';
import { validateOrThrow } from '../app/validation.js';
import { Catalog, catalog, DATASET_IDS } from './catalog.js';
import { Envelope } from './envelope.js';
import type { DatasetOperation } from './operation.js';
import { OPERATION_BY_ID, OPERATIONS } from './operations.js';
import { CALL_TYPE_CREDITS } from './pricing.js';
import { SAMPLES, SampleData } from './samples.js';

const SAMPLE_LIMIT = 30;
const SAMPLE_JSON = new Map(Object.entries(SAMPLES).map(([id, sample]) => [id, JSON.stringify(sample)]));
const HOUR = 3_600_000;

export const Estimate = Type.Object({
  endpoint: Type.String({ description: 'The described operation.' }),
  method: Type.Literal('GET'),
  path: Type.String({ description: 'The path the described call would request.' }),
  callType: Type.String({ description: 'Credit call type of the call.' }),
  callTypeCredits: Type.Integer({ description: 'Credits of one call of that type.' }),
  multiplier: Type.Integer({ description: "The route's multiplier." }),
  credits: Type.Integer({ description: 'Credits the call would cost: callTypeCredits x multiplier.' }),
});

const CostQuery = Type.Object(
  {
    endpoint: Type.Enum(
      OPERATIONS.map((op) => op.id),
      { description: 'The operation to price; give its path and query parameters alongside.' },
    ),
  },
  { additionalProperties: true },
);

/** Path and query parameters of an operation as one closed schema, as the cost estimate validates them. */
const combined = new Map<string, TObject>();
function describedSchema(op: DatasetOperation): TObject {
  let schema = combined.get(op.id);
  if (!schema) {
    schema = Type.Object(
      { ...(op.params?.properties ?? {}), ...op.querystring.properties },
      {
        additionalProperties: false,
        required: [...(op.params?.required ?? []), ...(op.querystring.required ?? [])],
      },
    ) as TObject;
    combined.set(op.id, schema);
  }
  return schema;
}

export function registerPublicRoutes(app: FastifyInstance, deps: Deps, openapi: () => object): void {
  const base = { doc: 'datasets' as const, datasetsApi: true, tags: ['public'] };

  app.get('/v1/datasets', {
    schema: { response: responses(Catalog, 503) },
    config: { meta: { ...base, operationId: 'datasets.list', summary: 'Catalog of the datasets' } },
    handler: async () => catalog(),
  });

  app.get('/v1/datasets/cost', {
    schema: { querystring: CostQuery, response: responses(Estimate, 400, 503) },
    config: {
      meta: {
        ...base,
        operationId: 'credits.estimate',
        strictQuery: true,
        summary: 'Credits a described call would cost',
        description:
          'Give endpoint and the described call’s own path and query parameters in the same query string; they are ' +
          'validated exactly as that endpoint validates them. Spends nothing and needs no key.',
      },
    },
    handler: async (request) => {
      const { endpoint, ...described } = request.query as Record<string, unknown>;
      const op = OPERATION_BY_ID.get(String(endpoint)) as DatasetOperation;
      validateOrThrow(describedSchema(op), described);
      const paramNames = Object.keys(op.params?.properties ?? {});
      const params = Object.fromEntries(paramNames.map((name) => [name, described[name]]));
      const query = Object.fromEntries(
        Object.entries(described).filter(([name]) => !paramNames.includes(name)),
      );
      op.refine?.({ params, query });
      const price = op.price(query);
      const path = op.url.replace(/:([A-Za-z]+)/g, (_, name: string) =>
        encodeURIComponent(String(params[name])),
      );
      return {
        endpoint: op.id,
        method: 'GET' as const,
        path,
        callType: price.callType,
        callTypeCredits: CALL_TYPE_CREDITS[price.callType],
        multiplier: price.multiplier,
        credits: price.credits,
      };
    },
  });

  const document = { value: null as object | null };
  app.get('/v1/datasets/openapi.json', {
    schema: { response: responses(Type.Object({}, { additionalProperties: true }), 503) },
    config: { meta: { ...base, operationId: 'openapi.get', summary: 'This API description (OpenAPI 3.1)' } },
    handler: async () => {
      document.value ??= openapi();
      return document.value;
    },
  });

  app.get('/v1/datasets/:dataset/sample', {
    schema: {
      params: Type.Object(
        { dataset: Type.String({ description: `Dataset id: ${DATASET_IDS.join(', ')}.` }) },
        { additionalProperties: false },
      ),
      response: responses(Envelope(SampleData), 404, 429, 503),
    },
    config: {
      meta: {
        ...base,
        operationId: 'datasets.sample',
        summary: 'Synthetic sample of a dataset',
        description: `Static synthetic rows in the dataset's shape; ${SAMPLE_LIMIT} requests per client address per hour; no credits.`,
      },
    },
    handler: async (request, reply) => {
      const { dataset } = request.params as { dataset: string };
      const sample = SAMPLE_JSON.get(dataset);
      if (!sample)
        throw new AppError(
          'not_found',
          `No dataset "${dataset}"; the datasets are ${DATASET_IDS.join(', ')}.`,
        );
      const hit = await deps.counters.hit(`sample:${request.ip}`, 1, SAMPLE_LIMIT, HOUR);
      reply.headers(rateHeaders('samples', SAMPLE_LIMIT, HOUR, SAMPLE_LIMIT - hit.used, hit.resetMs));
      if (!hit.allowed) {
        throw new AppError(
          'rate_limited',
          `Samples are limited to ${SAMPLE_LIMIT} requests per client address per hour.`,
          { 'retry-after': String(retryAfterSeconds(hit.resetMs)) },
        );
      }
      // Static fixtures, serialised once at start; the tests check them against the data shapes.
      return reply.type('application/json; charset=utf-8').send(sample);
    },
  });
}
