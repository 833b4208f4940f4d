// The market-data API's description, GET /v1/openapi.json. No key.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { responses } from '../responses.js';

export function registerMarketOpenApiRoute(app: FastifyInstance, openapi: () => object): void {
  let document: object | null = null;
  app.get('/v1/openapi.json', {
    schema: { response: responses(Type.Object({}, { additionalProperties: true })) },
    config: {
      meta: {
        doc: 'market',
        tags: ['reference'],
        strictQuery: true,
        operationId: 'openapi.get',
        summary: 'This API description (OpenAPI 3.1)',
        description: 'The document this reference is drawn from; clients can be generated from it. No key.',
      },
    },
    handler: async () => {
      document ??= openapi();
      return document;
    },
  });
}
