// Metering of keyed stored-datasets calls: per-minute credit limit, the charge before the handler runs,
// the refund of a call that failed with a server error, and the credit headers on every keyed response.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../accounts/keys.js';
import type { Price } from '../datasets/pricing.js';
import type { Meter, RouteMeta } from './context.js';
import type { Deps } from './deps.js';
import { AppError } from './errors.js';
import { andThen, type MaybePromise } from './steps.js';

const MINUTE = 60_000;

/** IETF RateLimit-Policy and RateLimit fields for a fixed window. */
export function rateHeaders(
  policy: string,
  limit: number,
  windowMs: number,
  remaining: number,
  resetMs: number,
): Record<string, string> {
  return {
    'ratelimit-policy': `"${policy}";q=${limit};w=${windowMs / 1000}`,
    ratelimit: `"${policy}";r=${Math.max(0, remaining)};t=${retryAfterSeconds(resetMs)}`,
  };
}

export function retryAfterSeconds(resetMs: number): number {
  return Math.max(1, Math.ceil(resetMs / 1000));
}

/** Charges the route's price to the caller's account, or throws 429 / 402 having charged nothing. */
export function charge(deps: Deps, meta: RouteMeta, request: FastifyRequest): MaybePromise<void> {
  const { principal } = request.meter;
  if (!meta.price || !principal) return;
  const price = meta.price(request.query as Record<string, unknown>);
  if (price.credits === 0) return;
  const { account } = principal;
  const perMinute = account.limits.creditsPerMinute;
  const counted = deps.counters.hit(`credits:${account.id}`, price.credits, perMinute, MINUTE);
  return andThen(counted, (hit) => {
    request.meter.rate = { limit: perMinute, remaining: perMinute - hit.used, resetMs: hit.resetMs };
    if (!hit.allowed) {
      throw new AppError(
        'rate_limited',
        `This call costs ${price.credits} credits and ${hit.used} of the ${perMinute} credits per minute of the ${account.plan} plan are spent; retry after the window resets.`,
        { 'retry-after': String(retryAfterSeconds(hit.resetMs)) },
      );
    }
    return debit(deps, meta, request, principal, price);
  });
}

/** Takes the credits from the balance, after the per-minute limit has counted them. */
async function debit(
  deps: Deps,
  meta: RouteMeta,
  request: FastifyRequest,
  { account, key }: Principal,
  price: Price,
): Promise<void> {
  const outcome = await deps.credits.charge({
    accountId: account.id,
    amount: price.credits,
    allowance: account.limits.creditsPerMonth,
    requestId: request.id,
    keyId: key.id,
    operation: meta.operationId,
    now: deps.clock(),
  });
  const { meter } = request;
  meter.balance = outcome.balance;
  if (!outcome.ok) {
    await deps.counters.release(`credits:${account.id}`, price.credits, MINUTE);
    if (meter.rate) meter.rate.remaining += price.credits;
    throw new AppError(
      'insufficient_credits',
      `This call costs ${price.credits} credits and ${outcome.balance} remain until ${outcome.periodEnd}.`,
    );
  }
  meter.cost = price.credits;
  meter.charged = { amount: price.credits, periodStart: outcome.periodStart, callType: price.callType };
  if (meta.dataset) {
    deps.usage.record({
      accountId: account.id,
      periodStart: outcome.periodStart,
      dataset: meta.dataset,
      callType: price.callType,
      calls: 1,
      credits: price.credits,
    });
  }
}

/**
 * Refunds a charged call that failed with a server error, then sets the credit headers. A call that
 * needs neither a refund nor a fresh balance (every charged success) settles without waiting.
 */
export function settle(
  deps: Deps,
  meta: RouteMeta,
  request: FastifyRequest,
  reply: FastifyReply,
): MaybePromise<void> {
  const { meter } = request;
  const refund = meter.charged !== null && reply.statusCode >= 500;
  if (!refund && (meter.principal === null || meter.balance !== null)) {
    creditHeaders(meter, reply);
    return;
  }
  return reconcile(deps, meta, request, refund).then(() => creditHeaders(meter, reply));
}

/** The refund of a failed call and the balance of a call that was not charged; never throws. */
async function reconcile(
  deps: Deps,
  meta: RouteMeta,
  request: FastifyRequest,
  refund: boolean,
): Promise<void> {
  const { meter } = request;
  const { principal, charged } = meter;
  try {
    if (principal && charged && refund) {
      const balance = await deps.credits.refund({
        accountId: principal.account.id,
        amount: charged.amount,
        periodStart: charged.periodStart,
        requestId: request.id,
        keyId: principal.key.id,
        operation: meta.operationId,
        now: deps.clock(),
      });
      meter.charged = null;
      meter.cost = 0;
      if (balance !== null) meter.balance = balance;
      if (meta.dataset) {
        deps.usage.record({
          accountId: principal.account.id,
          periodStart: charged.periodStart,
          dataset: meta.dataset,
          callType: charged.callType,
          calls: -1,
          credits: -charged.amount,
        });
      }
    }
    if (principal && meter.balance === null) {
      const { account } = principal;
      const state = await deps.credits.balance(account.id, account.limits.creditsPerMonth, deps.clock());
      meter.balance = state?.balance ?? null;
    }
  } catch (error) {
    request.log.error({ err: error, reqId: request.id }, 'credit settlement failed');
  }
}

function creditHeaders(meter: Meter, reply: FastifyReply): void {
  reply.header('x-credits-cost', String(meter.cost));
  if (meter.balance !== null) reply.header('x-credits-remaining', String(meter.balance));
  if (meter.principal) reply.header('x-plan', meter.principal.account.plan);
  if (meter.rate) {
    reply.headers(rateHeaders('credits', meter.rate.limit, MINUTE, meter.rate.remaining, meter.rate.resetMs));
  }
}

const DAY = 86_400_000;
/** Per key, shared with the key's MCP use (spec: market-data Limits). */
export const UNITS_PER_MINUTE = 120;
export const UNITS_PER_DAY = 5000;

/** Counts a market-data call's units against its key's minute and day, or throws 429 having counted nothing. */
export async function chargeUnits(deps: Deps, meta: RouteMeta, request: FastifyRequest): Promise<void> {
  const { principal } = request.meter;
  if (!meta.units || !principal) return;
  const units = meta.units({ query: request.query as Record<string, unknown>, body: request.body });
  const key = principal.key.id;
  const minute = await deps.counters.hit(`units:${key}`, units, UNITS_PER_MINUTE, MINUTE);
  if (!minute.allowed) {
    throw new AppError(
      'rate_limited',
      `This call takes ${units} units and ${minute.used} of the key's ${UNITS_PER_MINUTE} units this minute are used.`,
      {
        'retry-after': String(retryAfterSeconds(minute.resetMs)),
      },
    );
  }
  const day = await deps.counters.hit(`units:${key}`, units, UNITS_PER_DAY, DAY);
  if (!day.allowed) {
    await deps.counters.release(`units:${key}`, units, MINUTE);
    throw new AppError('rate_limited', `The key's ${UNITS_PER_DAY} units for the day are used.`, {
      'retry-after': String(retryAfterSeconds(day.resetMs)),
    });
  }
  request.meter.units = units;
}
