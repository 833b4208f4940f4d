// Public routes of the market-data API: the field dictionary and the API description. No key.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { responses } from '../../app/responses.js';
import { FIELDS, NOT_SERVED } from '../fields/dictionary.js';

const FieldEntry = Type.Object({
  id: Type.String(),
  aliases: Type.Array(
    Type.Object({
      name: Type.String({ description: 'Terminal mnemonic.' }),
      millions: Type.Boolean({
        description: 'Values under this alias are in millions; under the id, full units.',
      }),
    }),
  ),
  unit: Type.String(),
  appliesTo: Type.Array(Type.String(), { description: 'Asset types the field applies to.' }),
  history: Type.Boolean({ description: 'Served by /v1/history.' }),
  group: Type.String({ description: 'quote, profile, valuation, estimate, computed or statement.' }),
});

export const FieldsResponse = Type.Object({
  fields: Type.Array(FieldEntry),
  notServed: Type.Array(Type.Object({ name: Type.String(), reason: Type.String() }), {
    description: 'Terminal fields this service does not serve, with the reason each answers with.',
  }),
});

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
      meta: { ...meta, operationId: 'openapi.get', summary: 'This API description (OpenAPI 3.1). No key.' },
    },
    handler: async () => {
      document ??= openapi();
      return document;
    },
  });
}
