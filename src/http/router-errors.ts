// What the router refuses before a route exists (a path it cannot read, a parameter past its length): the
// house error, judged after the key as every other parameter is, with the headers of the door it came to.

import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { admit, type Door } from '../accounts/admit.js';
import type { Principal } from '../accounts/keys.js';
import { creditBalance } from '../accounts/metering.js';
import { OPERATIONS } from '../datasets/registry.js';
import type { Deps } from '../kernel/deps.js';
import { AppError } from '../kernel/errors.js';
import { MARKET_VERBS } from '../market/registry.js';
import { pathOf } from './context.js';
import { sendError } from './error-reply.js';
import { readKey } from './key.js';

/** The longest path parameter the router reads (an award id, a symbol, a contract code are far shorter). */
export const MAX_PARAM_LENGTH = 1100;

/**
 * The first path segment of every keyed dataset operation (/v1/cftc/…, /v1/kpis/…), from the registry; under
 * /v1/datasets/ only the change feeds and bulk files are keyed (the catalog, samples and description are public).
 */
const DATASET_SEGMENTS = new Set(
  OPERATIONS.map((op) => op.url.split('/')[2]).filter((segment) => segment !== 'datasets'),
);

/** The first path segment of each keyed market route (quotes, data, history…), from the market's registry. */
const MARKET_SEGMENTS = new Set(
  MARKET_VERBS.flatMap((verb) => (verb.rest && verb.key === 'market' ? [verb.rest.path.split('/')[2]] : [])),
);

/** The door a keyed path belongs to, read from its first segments; null for public and unknown paths. */
function doorOfPath(path: string): Door | null {
  const segment = path.split('/')[2] ?? '';
  if (MARKET_SEGMENTS.has(segment)) return 'market';
  if (DATASET_SEGMENTS.has(segment)) return 'datasets';
  if (/^\/v1\/datasets\/(account|usage|[^/]+\/(changes|bulk))\/?$/.test(path)) return 'datasets';
  return null;
}

/** The router's own errors in our words: they never echo the path back. */
function refusalOf(error: FastifyError): FastifyError | AppError {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return new AppError(
      'invalid_params',
      `A path parameter is longer than ${MAX_PARAM_LENGTH.toLocaleString('en-US')} characters.`,
    );
  }
  if (error.code === 'FST_ERR_BAD_URL') {
    return new AppError('invalid_params', 'The path is not valid percent-encoded UTF-8.');
  }
  return error;
}

/** The metering headers of a call that took nothing, as the door's routes send them. */
async function nothingTaken(deps: Deps, door: Door, principal: Principal | null, reply: FastifyReply) {
  reply.header('cache-control', 'private');
  if (door === 'market') {
    reply.header('x-service-units', '0');
    return;
  }
  reply.header('x-credits-cost', '0');
  if (principal === null) return;
  const balance = await creditBalance(deps, principal).catch(() => null);
  if (balance !== null) reply.header('x-credits-remaining', String(balance));
  reply.header('x-plan', principal.account.plan);
}

export function routerErrors(deps: Deps) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const refusal = refusalOf(error);
    const door = doorOfPath(pathOf(request.url));
    if (door === null) return sendError(refusal, request, reply);
    return Promise.resolve()
      .then(() => admit(deps, readKey(request), door))
      .then(
        async (principal) => {
          await nothingTaken(deps, door, principal, reply);
          return sendError(refusal, request, reply);
        },
        async (refused: AppError) => {
          await nothingTaken(deps, door, null, reply);
          return sendError(refused, request, reply);
        },
      );
  };
}
