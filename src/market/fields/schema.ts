// The request and answer of /v1/fields and market.fields: the route validates and serialises with them, the OpenAPI
// document and the MCP tool's schemas are written from them. GET /v1/fields takes no query: it answers the whole
// dictionary, which the tool narrows by words, asset type and history serving.
import { Type } from 'typebox';

const FieldEntry = Type.Object(
  {
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
    group: Type.String({
      description:
        'quote, profile, valuation, estimate, computed, statement, identifier or bulk (a list of rows).',
    }),
  },
  { title: 'FieldEntry' },
);

export const FieldsResponse = Type.Object({
  fields: Type.Array(FieldEntry),
  notServed: Type.Array(Type.Object({ name: Type.String(), reason: Type.String() }), {
    description: 'Terminal fields this service does not serve, with the reason each answers with.',
  }),
});

export const FieldsQuery = Type.Object(
  {
    query: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'Words to find in an id, alias, unit or group, e.g. "margin".',
      }),
    ),
    assetType: Type.Optional(Type.Enum(['equity', 'fund', 'index', 'future', 'currency', 'crypto'])),
    history: Type.Optional(Type.Boolean({ description: 'true: only fields /v1/history serves.' })),
  },
  { additionalProperties: false },
);

/** The whole dictionary: GET /v1/fields takes no parameter. */
export const NoFieldsQuery = Type.Object({}, { additionalProperties: false });
