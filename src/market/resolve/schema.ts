// The request and answer of market.resolve: the route validates and serialises with them, the OpenAPI
// document and the MCP tool's schemas are written from them.
import { Type } from 'typebox';
import { Nullable } from '../../kernel/schema.js';
import { PerTicker } from '../verb/schema.js';

const Held = Type.Object({
  quote: Type.Boolean({ description: 'A quote is held.' }),
  bars: Nullable(
    Type.Object(
      { count: Type.Integer(), first: Type.String(), last: Type.String() },
      { description: 'Daily bars held.' },
    ),
  ),
  statementFields: Type.Integer({ description: 'Statement fields held (SEC facts or Yahoo fundamentals).' }),
  shortInterest: Type.Boolean(),
});

export const ResolveResponse = PerTicker(
  { held: Type.Optional(Held) },
  'not_found: the ticker cannot be read',
);
