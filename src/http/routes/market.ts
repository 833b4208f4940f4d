// The market verbs' HTTP routes, made from their declarations (src/market/registry.ts): GET with comma lists,
// POST with the request as JSON. A verb keyed `market` takes a svc_mcp_ key and the units hook charges its units.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../kernel/deps.js';
import { isRecord } from '../../kernel/validation.js';
import { MARKET_VERBS } from '../../market/registry.js';
import { type AnyMarketVerb, type RestDoor, todayOf } from '../../market/verb/declare.js';
import { membersOf } from '../context.js';
import { responses, sendTagged } from '../responses.js';

const KEYED_ERRORS = [400, 401, 402, 403, 429];
const NO_QUERY = Type.Object({}, { additionalProperties: false });

export function registerMarketRoutes(app: FastifyInstance, deps: Deps): void {
  for (const verb of MARKET_VERBS) if (verb.rest) registerVerb(app, deps, verb, verb.rest);
}

function registerVerb(app: FastifyInstance, deps: Deps, verb: AnyMarketVerb, rest: RestDoor): void {
  const keyed = verb.key === 'market';
  // The request is read once a call: the units hook reads it (refusing what is past the verb's limits before any
  // charge) and the handler answers that reading. Keyed by the call's own body or query object.
  const readings = new WeakMap<object, unknown>();
  const readOf = (query: Record<string, unknown>, body: unknown) => {
    const given = isRecord(body) ? body : query;
    if (readings.has(given)) return readings.get(given);
    const read = verb.read(isRecord(body) ? body : rest.fromQuery(query), todayOf(deps));
    readings.set(given, read);
    return read;
  };
  const meta = {
    doc: 'market' as const,
    tags: [rest.tag ?? verb.name],
    strictQuery: true,
    summary: rest.summary,
    description: rest.description,
    conditional: rest.conditional ?? false,
    ...(keyed
      ? {
          key: 'market' as const,
          units: ({ query, body }: { query: Record<string, unknown>; body: unknown }) =>
            verb.units?.(readOf(query, body)) ?? 0,
        }
      : {}),
  };
  const handler = async (request: { query: unknown; body: unknown }, reply: FastifyReply) => {
    const answer = await verb.answer(deps, readOf(membersOf(request.query), request.body));
    if (!verb.text) return answer;
    const { bytes, etag } = await verb.text(answer);
    return sendTagged(reply, bytes, etag);
  };
  const errors = keyed ? KEYED_ERRORS : [400];
  if (rest.methods.includes('GET')) {
    app.get(rest.path, {
      schema: { querystring: rest.query, response: responses(verb.response, ...errors) },
      config: { meta: { ...meta, operationId: rest.getId ?? `${verb.name}.get` } },
      handler,
    });
  }
  if (rest.methods.includes('POST')) {
    app.post(rest.path, {
      // A POST takes its parameters in the body: any query parameter is refused, as an unknown one is on GET.
      schema: { querystring: NO_QUERY, body: verb.request, response: responses(verb.response, ...errors) },
      config: { meta: { ...meta, operationId: `${verb.name}.post` } },
      handler,
    });
  }
}
