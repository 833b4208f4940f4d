// The request and answer of /v1/quotes and market.quotes: the route validates and serialises with them, the OpenAPI
// document and the MCP tool's schemas are written from them.
import { Type } from 'typebox';
import { Nullable } from '../../kernel/schema.js';
import {
  ItemError,
  Resolved,
  Source,
  Sources,
  Stale,
  StaleReason,
  StoredFile,
  TickersBody,
} from '../verb/schema.js';

const QuoteItem = Type.Object(
  {
    input: Type.String(),
    status: Type.String({ description: 'ok or error' }),
    resolved: Type.Optional(Resolved),
    quote: Type.Optional(
      Type.Object({
        symbol: Type.String(),
        name: Type.String(),
        price: Nullable(Type.Number()),
        currency: Type.String(),
        changePercent: Nullable(Type.Number({ description: 'Percent: 1.5 = 1.5 %.' })),
        previousClose: Nullable(Type.Number()),
        volume: Nullable(Type.Number()),
        marketCap: Nullable(Type.Number({ description: 'Full units of the main currency.' })),
        marketState: Type.String({
          description:
            'REGULAR, CLOSED, PRE, POST… as of asOf; CLOSED for a stale quote, whose session has ended since.',
        }),
        asOf: Type.String(),
        fieldsAsOf: Type.Optional(
          Type.Record(Type.String(), Type.String(), {
            description:
              'Members true at another time than asOf, with theirs: the market cap of an older recording beside a ' +
              'newer daily close.',
          }),
        ),
        stale: Stale,
        staleReason: StaleReason,
        source: Source,
        file: StoredFile,
        sources: Sources,
        currencies: Type.Optional(
          Type.Record(Type.String(), Type.String(), {
            description: 'Values not in the price currency, e.g. marketCap in GBP.',
          }),
        ),
      }),
    ),
    error: ItemError('not_found, or timeout when not ready within the deadline'),
  },
  { title: 'QuoteItem' },
);

export const QuotesResponse = Type.Object({ access: Type.String(), items: Type.Array(QuoteItem) });

/** Request bodies (POST, and the MCP tools' arguments): lists as arrays. Limits past the schema's are the verbs'. */
export const QuotesBody = TickersBody;

/** Query strings (GET): lists comma-separated. */
export const QuotesQuery = Type.Object(
  { tickers: Type.String({ minLength: 1, maxLength: 8000, description: 'Comma-separated tickers.' }) },
  { additionalProperties: false },
);
