// /v1/quotes: GET with a comma list, POST with a JSON array; up to 100 tickers, any form, 1 unit per 20.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../app/deps.js';
import { AppError } from '../../app/errors.js';
import { responses } from '../../app/responses.js';
import { Nullable } from '../../datasets/envelope.js';
import { StoredProvider } from '../providers/stored.js';
import { quoteItems, uniqueInputs } from '../quotes.js';
import type { RouteInput } from './request.js';
import { ItemError } from './schemas.js';

export const MAX_QUOTE_TICKERS = 100;

const Resolved = Type.Object({
  ticker: Type.String(),
  symbol: Type.String(),
  exchange: Type.String(),
  mic: Nullable(Type.String()),
  dialect: Type.String({ description: 'service, suffix or terminal: how the input was read.' }),
  assetType: Type.String(),
  name: Type.String(),
  currency: Type.String({
    description: 'Price currency; GBp, ZAr or ILs for terminal-form listings priced in minor units.',
  }),
  note: Type.Optional(Type.String()),
});

const QuoteItem = Type.Object({
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
      marketState: Type.String(),
      asOf: Type.String(),
      currencies: Type.Optional(
        Type.Record(Type.String(), Type.String(), {
          description: 'Values not in the price currency, e.g. marketCap in GBP.',
        }),
      ),
    }),
  ),
  error: ItemError('not_found'),
});

export const QuotesResponse = Type.Object({ access: Type.String(), items: Type.Array(QuoteItem) });

function tickersOf(input: RouteInput): string[] {
  const fromBody = (input.body as { tickers?: string[] } | undefined)?.tickers;
  const list = fromBody ?? String(input.query.tickers ?? '').split(',');
  return uniqueInputs(list);
}

export function registerQuoteRoutes(app: FastifyInstance, deps: Deps): void {
  const provider = new StoredProvider(deps);
  const meta = {
    doc: 'market' as const,
    tags: ['quotes'],
    marketKeyed: true,
    strictQuery: true,
    operationId: 'quotes',
    summary: 'Full quotes for up to 100 tickers',
    description:
      'Tickers in any form (service, exchange-suffixed, terminal), mixed. One unit per 20 tickers.',
    units: (input: RouteInput) => Math.max(1, Math.ceil(tickersOf(input).length / 20)),
  };
  const handle = async (tickers: string[]) => {
    const unique = uniqueInputs(tickers);
    if (unique.length === 0) throw new AppError('invalid_params', 'give at least one ticker');
    if (unique.length > MAX_QUOTE_TICKERS) {
      throw new AppError(
        'invalid_params',
        `up to ${MAX_QUOTE_TICKERS} tickers a request; ${unique.length} given`,
      );
    }
    return { access: 'market-data', items: await quoteItems(provider, unique) };
  };
  const errors = [400, 401, 402, 403, 429];
  app.get('/v1/quotes', {
    schema: {
      querystring: Type.Object(
        { tickers: Type.String({ minLength: 1, maxLength: 8000, description: 'Comma-separated tickers.' }) },
        { additionalProperties: false },
      ),
      response: responses(QuotesResponse, ...errors),
    },
    config: { meta: { ...meta, operationId: 'quotes.get' } },
    handler: async (request) => handle(String((request.query as { tickers: string }).tickers).split(',')),
  });
  app.post('/v1/quotes', {
    schema: {
      body: Type.Object(
        {
          tickers: Type.Array(Type.String({ minLength: 1, maxLength: 80 }), { minItems: 1, maxItems: 1000 }),
        },
        { additionalProperties: false },
      ),
      response: responses(QuotesResponse, ...errors),
    },
    config: { meta: { ...meta, operationId: 'quotes.post' } },
    handler: async (request) => handle((request.body as { tickers: string[] }).tickers),
  });
}
