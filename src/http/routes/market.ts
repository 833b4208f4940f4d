// The market-data routes /v1/quotes, /v1/data, /v1/history, /v1/actions and /v1/search: GET with comma lists,
// POST with JSON arrays.
// Each is its market verb (src/market/verbs.ts) behind a svc_mcp_ key; the units hook charges the verb's units.

import type { FastifyInstance, FastifyReply } from 'fastify';
import { type TObject, type TSchema, Type } from 'typebox';
import type { Deps } from '../../kernel/deps.js';
import { historyAnswerInTurns } from '../../market/bar-rows.js';
import { fromQuery } from '../../market/request.js';
import {
  ActionsBody,
  ActionsQuery,
  ActionsResponse,
  DataBody,
  DataQuery,
  DataResponse,
  HistoryBody,
  HistoryQuery,
  HistoryResponse,
  QuotesBody,
  QuotesQuery,
  QuotesResponse,
  SearchBody,
  SearchQuery,
  SearchResponse,
} from '../../market/schemas.js';
import { ACTIONS, DATA, HISTORY, type MarketVerb, QUOTES, SEARCH, todayOf } from '../../market/verbs.js';
import { membersOf } from '../context.js';
import { responses, sendTagged } from '../responses.js';

interface MarketRoute<I, O extends object> {
  /** Answers carry an ETag (see send). */
  conditional?: boolean;
  path: string;
  tag: string;
  summary: string;
  description: string;
  verb: MarketVerb<I, O>;
  query: TObject;
  body: TObject;
  response: TSchema;
  /** The verb's request from a GET query. */
  fromQuery(query: Record<string, unknown>): I;
  send?(reply: FastifyReply, answer: O): Promise<FastifyReply>;
}

const ERRORS = [400, 401, 402, 403, 429];
const NO_QUERY = Type.Object({}, { additionalProperties: false });

const ROUTES = [
  {
    path: '/v1/quotes',
    tag: 'quotes',
    summary: 'Full quotes for up to 100 tickers',
    description:
      'Tickers in any form (service, exchange-suffixed, terminal), mixed. One unit per 20 tickers.',
    verb: QUOTES,
    query: QuotesQuery,
    body: QuotesBody,
    response: QuotesResponse,
    fromQuery: (q) => fromQuery(q, ['tickers']),
  } satisfies MarketRoute<Parameters<typeof QUOTES.run>[1], Awaited<ReturnType<typeof QUOTES.run>>>,
  {
    path: '/v1/data',
    tag: 'data',
    summary: 'Current values for tickers x fields',
    description:
      'Fields by id or terminal mnemonic, any letter case; values keyed as sent. A field that does not apply or has no ' +
      'value is null with an entry in errors. 1 unit per 20 tickers when every field comes from the quote, else 1 per 5.',
    verb: DATA,
    query: DataQuery,
    body: DataBody,
    response: DataResponse,
    fromQuery: (q) => fromQuery(q, ['tickers', 'fields'], ['period', 'asOf']),
  } satisfies MarketRoute<Parameters<typeof DATA.run>[1], Awaited<ReturnType<typeof DATA.run>>>,
  {
    path: '/v1/history',
    tag: 'history',
    summary: 'Rows of values between dates, oldest first',
    description:
      'Prices and volume daily, weekly or monthly (weekly and monthly from daily bars, dated on the last trading day, ' +
      'the current period included); statement fields quarterly or annually. Default start: a year before end ' +
      '(five for statement periods). One unit per ticker for each five calendar years served (a start on or after the same date five years before ' +
      'the end is one span; 29 February steps back to the 28th; at most 20 years, 4 units); statement periods one per five tickers.',
    verb: HISTORY,
    query: HistoryQuery,
    body: HistoryBody,
    response: HistoryResponse,
    fromQuery: (q) => fromQuery(q, ['tickers', 'fields'], ['start', 'end', 'period', 'asOf', 'adjust']),
    conditional: true,
    // A history answer can hold tens of thousands of rows with fields keyed as sent: written as text (price
    // rows once per cached series, see bar-rows.ts) in exactly the documented shape, which the tests check.
    // Its ETag names the cached rows rather than hashing their text again. Writing megabytes of text takes
    // tens of milliseconds: each series and each answer is written in a turn of the event loop of its own, so
    // answers ready together do not hold the loop as one.
    send: async (reply, answer) => {
      const { bytes, etag } = await historyAnswerInTurns(answer);
      return sendTagged(reply, bytes, etag);
    },
  } satisfies MarketRoute<Parameters<typeof HISTORY.run>[1], Awaited<ReturnType<typeof HISTORY.run>>>,
  {
    path: '/v1/actions',
    tag: 'actions',
    summary: 'Dividends, capital gains and splits by ticker',
    description:
      "Each listing's corporate actions between start and end, oldest first: ex-date, type, cash per share in the " +
      'currency its prices are answered in (pence under a terminal-form London ticker), split numerator and ' +
      "denominator, and when each became known. Amounts in today's shares (adjust=split, as history's prices) or as " +
      'paid (adjust=none). One unit per 20 tickers.',
    verb: ACTIONS,
    query: ActionsQuery,
    body: ActionsBody,
    response: ActionsResponse,
    fromQuery: (q) => {
      const request = fromQuery<Parameters<typeof ACTIONS.run>[1]>(
        q,
        ['tickers'],
        ['start', 'end', 'adjust', 'asOf'],
      );
      return typeof q.types === 'string' ? { ...request, types: q.types.split(',') } : request;
    },
  } satisfies MarketRoute<Parameters<typeof ACTIONS.run>[1], Awaited<ReturnType<typeof ACTIONS.run>>>,
  {
    path: '/v1/search',
    tag: 'search',
    summary: 'Find instruments by symbol or name',
    description:
      'Instruments whose symbol or name contains q, those with stored data first, then the upstream search; each ' +
      'in the service, exchange-suffixed and terminal forms. One unit.',
    verb: SEARCH,
    query: SearchQuery,
    body: SearchBody,
    response: SearchResponse,
    fromQuery: (q) => ({ q: String(q.q ?? '') }),
  } satisfies MarketRoute<Parameters<typeof SEARCH.run>[1], Awaited<ReturnType<typeof SEARCH.run>>>,
  // Each verb takes what its own route's schemas validate; the list holds them under one type.
] as MarketRoute<unknown, object>[];

/** The first path segment of each market route (quotes, data, history). */
export const MARKET_SEGMENTS = new Set(ROUTES.map((route) => route.path.split('/')[2]));

export function registerMarketRoutes(app: FastifyInstance, deps: Deps): void {
  for (const route of ROUTES) {
    const requestOf = (query: Record<string, unknown>, body: unknown) => body ?? route.fromQuery(query);
    const meta = {
      doc: 'market' as const,
      tags: [route.tag],
      marketKeyed: true,
      strictQuery: true,
      summary: route.summary,
      description: route.description,
      conditional: route.conditional ?? false,
      units: ({ query, body }: { query: Record<string, unknown>; body: unknown }) =>
        route.verb.units(requestOf(query, body), todayOf(deps)),
    };
    const handler = async (request: { query: unknown; body: unknown }, reply: FastifyReply) => {
      const answer = await route.verb.run(deps, requestOf(membersOf(request.query), request.body));
      return route.send ? route.send(reply, answer) : answer;
    };
    const operation = route.path.slice('/v1/'.length);
    app.get(route.path, {
      schema: { querystring: route.query, response: responses(route.response, ...ERRORS) },
      config: { meta: { ...meta, operationId: `${operation}.get` } },
      handler,
    });
    app.post(route.path, {
      // A POST takes its parameters in the body: any query parameter is refused, as an unknown one is on GET.
      schema: { querystring: NO_QUERY, body: route.body, response: responses(route.response, ...ERRORS) },
      config: { meta: { ...meta, operationId: `${operation}.post` } },
      handler,
    });
  }
}
