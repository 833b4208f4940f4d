// Public routes of the market-data API: the field dictionary and the API description. No key.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { FIELDS, NOT_SERVED } from '../../market/fields/dictionary.js';
import { FieldsResponse } from '../../market/schemas.js';
import { responses } from '../responses.js';

const body = { fields: FIELDS, notServed: NOT_SERVED };

export function registerMarketPublicRoutes(app: FastifyInstance, openapi: () => object): void {
  const meta = { doc: 'market' as const, tags: ['reference'], strictQuery: true };
  app.get('/v1/fields', {
    schema: {
      querystring: Type.Object({}, { additionalProperties: false }),
      response: responses(FieldsResponse, 400),
    },
    config: {
      meta: {
        ...meta,
        operationId: 'fields.list',
        summary: 'Field dictionary',
        description:
          'Every field id with its aliases, unit, asset types and history flag, and the terminal fields not served. No key.',
      },
    },
    handler: async () => body,
  });

  let document: object | null = null;
  app.get('/v1/openapi.json', {
    schema: { response: responses(Type.Object({}, { additionalProperties: true })) },
    config: {
      meta: {
        ...meta,
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
