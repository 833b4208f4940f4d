// Plans of the stored-datasets API and the limits each grants (spec: Plans, Limits).
import { isoTime } from '../kernel/iso-time.js';
export const PLAN_IDS = ['none', 'basic', 'desk', 'enterprise'] as const;
export type PlanId = (typeof PLAN_IDS)[number];
export const PAID_PLANS: readonly PlanId[] = ['basic', 'desk', 'enterprise'];

export const MARKET_PLANS = ['free', 'paid'] as const;
export type MarketPlan = (typeof MARKET_PLANS)[number];

export interface PlanLimits {
  creditsPerMonth: number;
  creditsPerMinute: number;
  maxKeys: number;
}

const FIXED: Record<Exclude<PlanId, 'enterprise'>, PlanLimits> = {
  none: { creditsPerMonth: 0, creditsPerMinute: 0, maxKeys: 0 },
  basic: { creditsPerMonth: 150_000, creditsPerMinute: 300, maxKeys: 5 },
  desk: { creditsPerMonth: 1_000_000, creditsPerMinute: 1200, maxKeys: 20 },
};

/** Enterprise values until a contract sets them. The spec gives none for monthly credits, so 0. */
export const ENTERPRISE_DEFAULTS: PlanLimits = { creditsPerMonth: 0, creditsPerMinute: 6000, maxKeys: 100 };

export interface Contract {
  creditsPerMonth: number | null;
  creditsPerMinute: number | null;
  maxKeys: number | null;
}

export function planLimits(plan: PlanId, contract: Contract): PlanLimits {
  if (plan !== 'enterprise') return FIXED[plan];
  return {
    creditsPerMonth: contract.creditsPerMonth ?? ENTERPRISE_DEFAULTS.creditsPerMonth,
    creditsPerMinute: contract.creditsPerMinute ?? ENTERPRISE_DEFAULTS.creditsPerMinute,
    maxKeys: contract.maxKeys ?? ENTERPRISE_DEFAULTS.maxKeys,
  };
}

export function isPlanId(value: string): value is PlanId {
  return (PLAN_IDS as readonly string[]).includes(value);
}

export function isMarketPlan(value: string): value is MarketPlan {
  return (MARKET_PLANS as readonly string[]).includes(value);
}

/** A plan is active when it is a paid plan whose end, if any, is still ahead. */
export function planActive(plan: PlanId, endsAt: string | null, now: Date): boolean {
  return plan !== 'none' && (endsAt === null || endsAt > isoTime(now));
}
