// The request and answer of market.short_interest: the route validates and serialises with them, the OpenAPI
// document and the MCP tool's schemas are written from them.
import { Type } from 'typebox';
import { Nullable } from '../../kernel/schema.js';
import { PerTicker } from '../verb/schema.js';

export const ShortInterestResponse = PerTicker(
  {
    shortInterest: Type.Optional(
      Type.Object({
        sharesShort: Type.Number(),
        sharesShortPriorMonth: Nullable(Type.Number()),
        change: Nullable(Type.Number({ description: 'sharesShort less sharesShortPriorMonth.' })),
        priorSettlementDate: Nullable(Type.String()),
        shortRatio: Nullable(Type.Number({ description: 'Days to cover.' })),
        percentOfFloat: Nullable(Type.Number({ description: 'Percent: 1.5 = 1.5 %.' })),
        percentOfSharesOutstanding: Nullable(Type.Number({ description: 'Percent: 1.5 = 1.5 %.' })),
        settlementDate: Type.String({ description: 'Settlement date of the reported position.' }),
        asOf: Type.String({ description: 'When the figures were read from the source.' }),
        source: Type.String(),
        stale: Type.Boolean({ description: 'The settlement date is more than 35 days old.' }),
      }),
    ),
  },
  'not_found: no short interest is held, or the ticker cannot be read',
);
