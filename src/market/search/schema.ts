// The request and answer of /v1/search and market.search: the route validates and serialises with them, the OpenAPI
// document and the MCP tool's schemas are written from them.
import { Type } from 'typebox';
import { Nullable } from '../../kernel/schema.js';

export const SearchQuery = Type.Object(
  { q: Type.String({ minLength: 1, maxLength: 100, description: 'A symbol or part of a name.' }) },
  { additionalProperties: false },
);

export const SearchBody = SearchQuery;

const Forms = Type.Object(
  {
    service: Type.String(),
    suffix: Type.String(),
    terminal: Nullable(
      Type.String({ description: 'null where the terminal form has no code for the listing.' }),
    ),
  },
  { description: 'The instrument in the three ticker forms; any of them can be sent to the other calls.' },
);

export const SearchResponse = Type.Object({
  access: Type.String(),
  query: Type.String(),
  items: Type.Array(
    Type.Object({
      symbol: Type.String({ description: 'The exchange-suffixed form.' }),
      name: Type.String(),
      exchange: Type.String(),
      type: Type.String({ description: 'As the source names it: EQUITY, ETF, INDEX, FUTURE, CURRENCY…' }),
      source: Type.String({
        description:
          "stored (data is held here), edgar (named by EDGAR's registrant list, a US listing) or the upstream that found it.",
      }),
      forms: Forms,
    }),
  ),
});
