// Public routes of the stored-datasets API: catalog, cost estimate, API description, samples. No key.

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Catalog, catalog } from '../../datasets/catalog.js';
import { Envelope } from '../../datasets/envelope.js';
import { DescribedCallQuery, Estimate, EstimateQuery, estimateCost } from '../../datasets/estimate.js';
import { DATASET_IDS } from '../../datasets/registry.js';
import { SAMPLES, SampleData } from '../../datasets/samples.js';
import type { Deps } from '../../kernel/deps.js';
import { AppError, secondsUntil } from '../../kernel/errors.js';
import { membersOf } from '../context.js';
import { rateHeaders } from '../rate-headers.js';
import { responses } from '../responses.js';

const SAMPLE_LIMIT = 30;
const SAMPLE_JSON = new Map(Object.entries(SAMPLES).map(([id, sample]) => [id, JSON.stringify(sample)]));
const HOUR = 3_600_000;

export function registerPublicRoutes(app: FastifyInstance, deps: Deps, openapi: () => object): void {
  const base = PUBLIC;

  app.get('/v1/datasets', {
    schema: { response: responses(Catalog, 503) },
    config: {
      meta: {
        ...base,
        operationId: 'datasets.list',
        summary: 'Catalog of the datasets',
        description:
          'Every dataset with its operations, their prices and the sources it is read from. No key.',
      },
    },
    handler: async () => catalog(deps),
  });

  app.get('/v1/datasets/cost', {
    schema: { querystring: EstimateQuery, response: responses(Estimate, 400, 503) },
    config: {
      meta: {
        ...base,
        operationId: 'credits.estimate',
        strictQuery: true,
        documentedQuery: DescribedCallQuery,
        summary: 'Credits a described call would cost',
        description:
          'Give endpoint and the described call’s own path and query parameters in the same query string; they are ' +
          'validated exactly as that endpoint validates them. Spends nothing and needs no key.',
      },
    },
    handler: async (request) => estimateCost(membersOf(request.query)),
  });

  registerDescription(app, openapi);
  registerSamples(app, deps);
}

const PUBLIC = { doc: 'datasets' as const, datasetsApi: true, tags: ['public'] };

function registerDescription(app: FastifyInstance, openapi: () => object): void {
  const base = PUBLIC;
  const document: { value: object | null } = { value: null };
  app.get('/v1/datasets/openapi.json', {
    schema: { response: responses(Type.Object({}, { additionalProperties: true }), 503) },
    config: {
      meta: {
        ...base,
        operationId: 'openapi.get',
        summary: 'This API description (OpenAPI 3.1)',
        description: 'The document this reference is drawn from; clients can be generated from it. No key.',
      },
    },
    handler: async () => {
      document.value ??= openapi();
      return document.value;
    },
  });
}

/** Synthetic samples, counted per client address. */
function registerSamples(app: FastifyInstance, deps: Deps): void {
  const base = PUBLIC;

  app.withTypeProvider<TypeBoxTypeProvider>().get('/v1/datasets/:dataset/sample', {
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
      const { dataset } = request.params;
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
          secondsUntil(hit.resetMs),
        );
      }
      // Static fixtures, serialised once at start; the tests check them against the data shapes.
      return reply.type('application/json; charset=utf-8').send(sample);
    },
  });
}
