// Route-level hooks, attached at registration from each route's declared meta, so a route pays only for
// what it declares: the DATA_API_ENABLED switch, key authentication, parameter checks, metering.
import type { FastifyRequest, RouteOptions } from 'fastify';
import type { Principal } from '../accounts/keys.js';
import { authenticateDatasets, authenticateMarket, type PrincipalCache } from './auth.js';
import type { Config } from './config.js';
import type { RouteMeta } from './context.js';
import type { Deps } from './deps.js';
import { AppError } from './errors.js';
import { charge, chargeUnits, settle } from './metering.js';
import { andThen, type MaybePromise, requestHook, sendHook } from './steps.js';
import { checkRawQuery } from './validation.js';

export interface HookContext {
  config: Config;
  deps: Deps;
  principals: PrincipalCache;
}

function append(route: RouteOptions, name: 'onRequest' | 'preHandler' | 'onSend', hook: unknown) {
  const existing = route[name];
  const list = existing === undefined ? [] : Array.isArray(existing) ? existing : [existing];
  (route as unknown as Record<string, unknown>)[name] = [...list, hook];
}

export function attachHooks(
  route: RouteOptions,
  meta: RouteMeta,
  { config, deps, principals }: HookContext,
): void {
  if (meta.datasetsApi && !config.dataApiEnabled) {
    append(
      route,
      'onRequest',
      requestHook(() => {
        throw new AppError(
          'data_api_disabled',
          'The stored-datasets API is switched off on this deployment.',
        );
      }),
    );
  }
  // The raw query is checked in onRequest, after the key: a caller learns of a bad key before bad input.
  const strict = meta.strictQuery === true;
  const admit = (authenticate: (request: FastifyRequest) => MaybePromise<Principal>) =>
    requestHook((request) =>
      andThen(authenticate(request), (principal) => {
        request.meter.principal = principal;
        if (strict) checkRawQuery(request.query as Record<string, unknown>);
      }),
    );
  if (meta.keyed) {
    append(
      route,
      'onRequest',
      admit((request) => authenticateDatasets(request, principals, deps.clock())),
    );
    append(
      route,
      'onSend',
      sendHook((request, reply) => settle(deps, meta, request, reply)),
    );
  } else if (strict && !meta.marketKeyed) {
    append(
      route,
      'onRequest',
      requestHook((request) => checkRawQuery(request.query as Record<string, unknown>)),
    );
  }
  if (meta.marketKeyed) {
    append(
      route,
      'onRequest',
      admit((request) => authenticateMarket(request, principals)),
    );
    append(
      route,
      'preHandler',
      requestHook((request) => chargeUnits(deps, meta, request)),
    );
    append(
      route,
      'onSend',
      sendHook((request, reply) => {
        reply.header('x-service-units', String(request.meter.units ?? 0));
      }),
    );
  }
  if (meta.refine || meta.keyed) {
    const { refine } = meta;
    append(
      route,
      'preHandler',
      requestHook((request) => {
        refine?.({
          params: request.params as Record<string, unknown>,
          query: request.query as Record<string, unknown>,
        });
        if (meta.keyed) return charge(deps, meta, request);
      }),
    );
  }
}
