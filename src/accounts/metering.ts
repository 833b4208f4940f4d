// Metering verbs, the same for every transport: a priced call's credits (per-minute limit, then the balance,
// charged before the call runs), the refund of a call that failed on our side, and market-data units.
import type { Deps } from '../kernel/deps.js';
import { AppError, type ErrorCode, secondsUntil } from '../kernel/errors.js';
import { isoTime } from '../kernel/iso-time.js';
import { andThen, type MaybePromise } from '../kernel/steps.js';
import type { Principal } from './keys.js';
import type { CallType, Price } from './pricing.js';

export const MINUTE = 60_000;
const DAY = 86_400_000;

/** A fixed window's standing after a call: its limit, what is left and when it resets. */
export interface RateWindow {
  limit: number;
  remaining: number;
  resetMs: number;
}

/** What a caller knows of its credits after a call, charged or refused. */
export interface Standing {
  rate: RateWindow | null;
  balance: number | null;
}

/** A priced call of a keyed dataset operation, as any transport describes it. */
export interface CreditCall {
  principal: Principal;
  price: Price;
  operation: string;
  /** Dataset whose usage the call counts towards. */
  dataset?: string;
  requestId: string;
}

export interface CreditReceipt extends Standing {
  rate: RateWindow;
  cost: number;
  balance: number;
  periodStart: string;
  callType: CallType;
}

/** A refusal that still tells the caller its standing (the credit headers of a 429 or 402). */
export class CreditRefusal extends AppError {
  constructor(
    code: ErrorCode,
    message: string,
    readonly standing: Standing,
    retryAfterSeconds: number | null = null,
  ) {
    super(code, message, retryAfterSeconds);
  }
}

/**
 * Charges the call's price to the caller's account: counted against the plan's credits per minute, then
 * taken from the balance. Throws a CreditRefusal (429 or 402) having charged nothing. A free call answers
 * a zero receipt without touching the store.
 */
export function chargeCredits(deps: Deps, call: CreditCall): MaybePromise<CreditReceipt | null> {
  const { principal, price } = call;
  if (price.credits === 0) return null;
  const { account } = principal;
  const perMinute = account.limits.creditsPerMinute;
  // Shared counters answer most of these hits from a share of the minute this process took ahead (limits/redis.ts).
  const counted = deps.counters.hit(`credits:${account.id}`, price.credits, perMinute, MINUTE, {
    share: true,
  });
  return andThen(counted, (hit) => {
    const rate = { limit: perMinute, remaining: perMinute - hit.used, resetMs: hit.resetMs };
    if (!hit.allowed) {
      throw new CreditRefusal(
        'rate_limited',
        `This call costs ${price.credits} credits and ${hit.used} of the ${perMinute} credits per minute of the ${account.plan} plan are spent; retry after the window resets.`,
        { rate, balance: null },
        secondsUntil(hit.resetMs),
      );
    }
    return debit(deps, call, rate);
  });
}

async function debit(deps: Deps, call: CreditCall, rate: RateWindow): Promise<CreditReceipt> {
  const { principal, price } = call;
  const { account, key } = principal;
  const outcome = await deps.credits.charge({
    accountId: account.id,
    amount: price.credits,
    allowance: account.limits.creditsPerMonth,
    requestId: call.requestId,
    keyId: key.id,
    operation: call.operation,
    now: deps.clock(),
  });
  if (!outcome.ok) {
    await deps.counters.release(`credits:${account.id}`, price.credits, MINUTE);
    throw new CreditRefusal(
      'insufficient_credits',
      `This call costs ${price.credits} credits and ${outcome.balance} remain until ${outcome.periodEnd}.`,
      { rate: { ...rate, remaining: rate.remaining + price.credits }, balance: outcome.balance },
    );
  }
  if (call.dataset) recordUsage(deps, call, outcome.periodStart, 1);
  deps.telemetry.credits('charged', price.credits, call.dataset ?? 'none');
  return {
    cost: price.credits,
    balance: outcome.balance,
    periodStart: outcome.periodStart,
    callType: price.callType,
    rate,
  };
}

/** Gives back a charged call that failed on our side; the balance after it, or null when its period closed. */
export async function refundCredits(
  deps: Deps,
  call: CreditCall,
  receipt: CreditReceipt,
): Promise<number | null> {
  const { account, key } = call.principal;
  const balance = await deps.credits.refund({
    accountId: account.id,
    amount: receipt.cost,
    periodStart: receipt.periodStart,
    requestId: call.requestId,
    keyId: key.id,
    operation: call.operation,
    now: deps.clock(),
  });
  if (call.dataset) recordUsage(deps, call, receipt.periodStart, -1);
  deps.telemetry.credits('refunded', receipt.cost, call.dataset ?? 'none');
  return balance;
}

/** The caller's current balance, opening a new period first when the last one has ended. */
export async function creditBalance(deps: Deps, principal: Principal): Promise<number | null> {
  const { account } = principal;
  const state = await deps.credits.balance(account.id, account.limits.creditsPerMonth, deps.clock());
  return state?.balance ?? null;
}

function recordUsage(deps: Deps, call: CreditCall, periodStart: string, sign: 1 | -1): void {
  deps.usage.record({
    accountId: call.principal.account.id,
    periodStart,
    dataset: call.dataset as string,
    callType: call.price.callType,
    calls: sign,
    credits: sign * call.price.credits,
  });
}

/** Per key, shared by the market-data routes and the MCP tools (spec: market-data Limits). */
export const UNITS_PER_MINUTE = 120;
export const UNITS_PER_DAY = 5000;

export interface UnitsReceipt {
  units: number;
  door: string;
  minute: RateWindow;
  day: RateWindow;
}

/**
 * Counts a market-data call's units against its key's minute and day, or throws 429 having counted nothing.
 * `door` says where the call came in (market routes, mcp), for the metrics.
 */
export async function chargeUnits(
  deps: Deps,
  principal: Principal,
  units: number,
  door: string,
): Promise<UnitsReceipt> {
  const key = `units:${principal.key.id}`;
  const minute = await deps.counters.hit(key, units, UNITS_PER_MINUTE, MINUTE);
  if (!minute.allowed) {
    throw new AppError(
      'rate_limited',
      `This call takes ${units} units and ${minute.used} of the key's ${UNITS_PER_MINUTE} units this minute are used.`,
      secondsUntil(minute.resetMs),
    );
  }
  const day = await deps.counters.hit(key, units, UNITS_PER_DAY, DAY);
  if (!day.allowed) {
    await deps.counters.release(key, units, MINUTE);
    throw new AppError(
      'rate_limited',
      `The key's ${UNITS_PER_DAY} units for the day are used.`,
      secondsUntil(day.resetMs),
    );
  }
  deps.telemetry.units(units, door);
  recordUnitUsage(deps, principal, door, units, 1);
  return {
    units,
    door,
    minute: { limit: UNITS_PER_MINUTE, remaining: UNITS_PER_MINUTE - minute.used, resetMs: minute.resetMs },
    day: { limit: UNITS_PER_DAY, remaining: UNITS_PER_DAY - day.used, resetMs: day.resetMs },
  };
}

/**
 * Gives back the units of a call that failed with a server error, as credits are refunded: the key's minute
 * and day get them back, and the usage of its day nets the call out.
 */
export async function refundUnits(deps: Deps, principal: Principal, receipt: UnitsReceipt): Promise<void> {
  const key = `units:${principal.key.id}`;
  await deps.counters.release(key, receipt.units, MINUTE);
  await deps.counters.release(key, receipt.units, DAY);
  recordUnitUsage(deps, principal, receipt.door, -receipt.units, -1);
}

/** A call (1) or its refund (-1) in the usage of the key's UTC day. */
function recordUnitUsage(deps: Deps, principal: Principal, door: string, units: number, calls: 1 | -1) {
  deps.usage.recordUnits({
    accountId: principal.account.id,
    keyId: principal.key.id,
    day: isoTime(deps.clock()).slice(0, 10),
    door,
    units,
    calls,
  });
}
