// Route-level hooks, attached at registration from each route's declared meta, so a route pays only for
// what it declares: the DATA_API_ENABLED switch, admission, parameter checks, metering. Each hook adapts a
// verb of the accounts domain to Fastify: it reads the request, calls the verb, and keeps the outcome on
// request.meter for the credit and unit headers.
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { admit, type Door } from '../accounts/admit.js';
import { MeteredCall } from '../accounts/metered-call.js';
import { MINUTE } from '../accounts/metering.js';
import type { Deps } from '../kernel/deps.js';
import { AppError } from '../kernel/errors.js';
import { andThen, type MaybePromise } from '../kernel/steps.js';
import { checkRawQuery, checkText, checkWholeNumbers, integerMembers } from '../kernel/validation.js';
import { membersOf, type RouteMeta } from './context.js';
import { readKey } from './key.js';
import { rateHeaders } from './rate-headers.js';
import { requestHook, sendHook } from './steps.js';

function append(
  route: RouteOptions,
  name: 'onRequest' | 'preValidation' | 'preHandler' | 'onSend',
  hook: unknown,
) {
  const existing = route[name];
  const list = existing === undefined ? [] : Array.isArray(existing) ? existing : [existing];
  Object.assign(route, { [name]: [...list, hook] });
}

/** A percent-escaped C0 control, DEL or C1 control (UTF-8 C2 80 to C2 9F). */
const ESCAPED_CONTROL = /%(?:[01][0-9a-f]|7f|c2%[89][0-9a-f])/i;

/** The hooks a route's meta asks for, in the order they run within each stage. */
export function attachHooks(route: RouteOptions, meta: RouteMeta, deps: Deps): void {
  if (meta.datasetsApi && !deps.config.dataApiEnabled) {
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
  attachKeyHooks(route, meta, deps);
  attachInputChecks(route);
  if (meta.refine || meta.key === 'datasets') {
    const { refine } = meta;
    append(
      route,
      'preHandler',
      requestHook((request) =>
        andThen(
          refine?.({
            params: membersOf(request.params),
            query: membersOf(request.query),
            headers: request.headers,
          }),
          () => (meta.key === 'datasets' ? charge(meta, request) : undefined),
        ),
      ),
    );
  }
}

/** The key the route takes, admitted and metered (credits or units), or none: public routes answer any page. */
function attachKeyHooks(route: RouteOptions, meta: RouteMeta, deps: Deps): void {
  // The raw query is checked in onRequest, after the key: a caller learns of a bad key before bad input.
  const strict = meta.strictQuery === true;
  const admitAt = (door: Door) =>
    requestHook((request) =>
      andThen(admit(deps, readKey(request), door), (principal) => {
        request.meter.principal = principal;
        request.meter.metered = new MeteredCall(deps, principal);
        if (strict) checkRawQuery(membersOf(request.query));
      }),
    );
  if (meta.key === 'datasets') {
    append(route, 'onRequest', admitAt('datasets'));
    append(
      route,
      'onSend',
      sendHook((request, reply) => settle(request, reply)),
    );
  } else if (meta.key === 'market') {
    append(route, 'onRequest', admitAt('market'));
    append(
      route,
      'preHandler',
      requestHook(async (request) => {
        const units = meta.units?.({ query: membersOf(request.query), body: request.body });
        if (units) await request.meter.metered?.chargeUnits(units, 'market');
      }),
    );
    append(
      route,
      'onSend',
      sendHook((request, reply) => settleUnits(request, reply)),
    );
  } else {
    if (strict) {
      append(
        route,
        'onRequest',
        requestHook((request) => checkRawQuery(membersOf(request.query))),
      );
    }
    // Public reads may be fetched from any web page; keyed routes send no CORS header, so a browser page
    // cannot read them (keys belong on servers and in scripts, never in a web page).
    append(
      route,
      'onSend',
      sendHook((_request, reply) => {
        reply.header('access-control-allow-origin', '*');
      }),
    );
  }
}

/** Input refused before the schema reads it and before anything is charged: a GET's body, controls, digits. */
function attachInputChecks(route: RouteOptions): void {
  // A GET carries its parameters in the query: a body (of any length, or chunked) is refused, not ignored, and
  // nothing is charged for it.
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  if (methods.includes('GET')) append(route, 'onRequest', requestHook(refuseBody));
  // Text holding a control character is refused before the schema reads it, and before anything is charged.
  // Node's parser refuses raw control bytes in a URL, so the path and query can hold one only escaped.
  append(
    route,
    'preValidation',
    requestHook((request) => {
      if (ESCAPED_CONTROL.test(request.url)) {
        checkText(request.params, 'path parameter');
        checkText(request.query, 'parameter');
      }
      if (request.body !== undefined) checkText(request.body, 'body');
    }),
  );
  // Integers in the query or the path: plain decimal digits only (after the key, like every parameter check).
  const queryIntegers = integerMembers(route.schema?.querystring);
  const pathIntegers = integerMembers(route.schema?.params);
  if (queryIntegers.length > 0 || pathIntegers.length > 0) {
    append(
      route,
      'onRequest',
      requestHook((request) => {
        checkWholeNumbers(request.query, queryIntegers);
        checkWholeNumbers(request.params, pathIntegers);
      }),
    );
  }
}

function refuseBody(request: FastifyRequest): void {
  const length = request.headers['content-length'];
  if (request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')) {
    throw new AppError('invalid_params', 'A GET takes no body: send its parameters in the query.');
  }
}

/** Charges the route's price before its handler runs; a refusal keeps the standing for the headers. */
function charge(meta: RouteMeta, request: FastifyRequest): MaybePromise<void> {
  const { metered } = request.meter;
  if (!meta.price || !metered) return;
  const query = membersOf(request.query);
  const { refused } = meta;
  return andThen(meta.price(query, metered.principal), (price) => {
    const call = {
      price,
      operation: meta.operationId,
      requestId: request.id,
      ...(meta.dataset ? { dataset: meta.dataset } : {}),
    };
    if (!refused) return metered.chargeCredits(call);
    const undo = async (error: unknown): Promise<never> => {
      await refused(query, metered.principal);
      throw error;
    };
    try {
      const charged = metered.chargeCredits(call);
      return charged instanceof Promise ? charged.catch(undo) : charged;
    } catch (error) {
      return undo(error);
    }
  });
}

/**
 * Whether a call answered with this status gets back what it was charged: one that failed on our side (5xx), and
 * one refused as bad input after its charge (400: a forged cursor is found only when the call reads it; 416: a
 * bulk file's range outside the file, known once the file is).
 */
const givenBack = (status: number) => status >= 500 || status === 400 || status === 416;

/** Settles a call (a failed or refused one gets its credits back, a balance no charge told is read), then the headers. */
function settle(request: FastifyRequest, reply: FastifyReply): MaybePromise<void> {
  const { metered } = request.meter;
  const headers = () => creditHeaders(metered, reply);
  if (!metered) return headers();
  const settled = metered.settle({ failed: givenBack(reply.statusCode), balance: true }, (error) =>
    request.log.error({ err: error, reqId: request.id }, 'credit settlement failed'),
  );
  return settled instanceof Promise ? settled.then(headers) : headers();
}

/** A market call's units header; a call that failed or was refused gets its units back first. */
function settleUnits(request: FastifyRequest, reply: FastifyReply): MaybePromise<void> {
  const { metered } = request.meter;
  const headers = () => {
    reply.header('cache-control', 'private');
    reply.header('x-service-units', String(metered?.units?.units ?? 0));
  };
  if (!metered) return headers();
  const settled = metered.settle({ failed: givenBack(reply.statusCode), balance: false }, (error) =>
    request.log.error({ err: error, reqId: request.id }, 'unit refund failed'),
  );
  return settled instanceof Promise ? settled.then(headers) : headers();
}

function creditHeaders(metered: MeteredCall | null, reply: FastifyReply): void {
  reply.header('cache-control', 'private');
  reply.header('x-credits-cost', String(metered?.receipt?.cost ?? 0));
  if (!metered) return;
  if (metered.balance !== null) reply.header('x-credits-remaining', String(metered.balance));
  reply.header('x-plan', metered.principal.account.plan);
  if (metered.rate) {
    const { limit, remaining, resetMs } = metered.rate;
    reply.headers(rateHeaders('credits', limit, MINUTE, remaining, resetMs));
  }
}
