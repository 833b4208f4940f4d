// Admitting a key: key text and the door it came through -> the caller (principal), or a coded refusal.
// Principals are cached for at most a second, so a change made elsewhere takes effect within two.
import type { Kysely } from 'kysely';
import type { Deps } from '../kernel/deps.js';
import { AppError } from '../kernel/errors.js';
import { andThen, type MaybePromise } from '../kernel/steps.js';
import type { Database } from '../store/schema.js';
import { apiOfKeyText, hashKey } from './key-text.js';
import { findPrincipal, type Principal } from './keys.js';
import { planActive } from './plans.js';

const CACHE_MS = 1000;
const MAX_CACHED = 50_000;
/** Longer than any key we make (a prefix of at most 9 characters and 33 random ones): refused unread. */
const MAX_KEY_TEXT = 64;

/**
 * Where a key is presented: the stored-datasets routes (gds_ keys), the market-data routes (svc_mcp_ keys
 * with market-data-only access), or the MCP server (svc_mcp_ keys of either access level, and gds_ keys).
 */
export type Door = 'datasets' | 'market' | 'mcp';

export class PrincipalCache {
  private readonly entries = new Map<string, { principal: Principal | null; expires: number }>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Key texts held (known and unknown ones). */
  get size(): number {
    return this.entries.size;
  }

  /**
   * Entries are keyed by the key text itself, so a hit costs no hashing; they live in memory only.
   * A hit answers at once, a miss with a promise of the stored principal.
   */
  find(keyText: string): MaybePromise<Principal | null> {
    const now = this.clock();
    const cached = this.entries.get(keyText);
    if (cached && cached.expires > now) return cached.principal;
    return this.load(keyText, now);
  }

  private async load(keyText: string, now: number): Promise<Principal | null> {
    const principal = await findPrincipal(this.db, hashKey(keyText));
    if (this.entries.size >= MAX_CACHED) this.entries.clear();
    this.entries.set(keyText, { principal, expires: now + CACHE_MS });
    return principal;
  }
}

/** One cache per store: every door of a process shares it. */
const caches = new WeakMap<object, PrincipalCache>();

export function cacheOf(deps: Pick<Deps, 'store' | 'clock'>): PrincipalCache {
  let cache = caches.get(deps.store);
  if (!cache) {
    cache = new PrincipalCache(deps.store.db, () => deps.clock().getTime());
    caches.set(deps.store, cache);
  }
  return cache;
}

const HOW_TO_SEND: Record<Door, string> = {
  datasets: 'Send your API key as "Authorization: Bearer gds_..." or "x-api-key".',
  market: 'Send your API key as "Authorization: Bearer svc_mcp_..." or "x-api-key".',
  mcp: 'Send your API key as "Authorization: Bearer svc_mcp_..." (or a gds_ key for the dataset tools).',
};

/** The caller behind `keyText` at `door`, or an AppError saying why not (spec: both APIs' Authentication). */
export function admit(
  deps: Pick<Deps, 'store' | 'clock'>,
  keyText: string | null,
  door: Door,
): MaybePromise<Principal> {
  if (keyText === null) throw new AppError('missing_key', HOW_TO_SEND[door]);
  const api = apiOfKeyText(keyText);
  if (door === 'datasets' && (api === 'market' || api === 'news')) {
    throw new AppError(
      'wrong_key',
      `This is a ${api} API key; the stored-datasets API takes keys that start with gds_.`,
    );
  }
  if (door === 'market' && api === 'datasets') {
    throw new AppError(
      'wrong_key',
      'This is a stored-datasets key (gds_); market data takes keys that start with svc_mcp_.',
    );
  }
  if (door !== 'datasets' && api === 'news') {
    throw new AppError('wrong_key', 'News keys (svc_news_) work only for /v1/news.');
  }
  const expected =
    door === 'datasets' ? ['datasets'] : door === 'market' ? ['market'] : ['market', 'datasets'];
  if (api === null || !expected.includes(api)) return refuseUnknown();
  // Never hashed nor cached: the cache of unknown keys stays small (50,000 short texts) whatever callers send.
  if (keyText.length > MAX_KEY_TEXT) return refuseUnknown();
  return andThen(cacheOf(deps).find(keyText), (principal) => {
    if (principal?.key.api !== api || principal.key.revokedAt !== null) return refuseUnknown();
    return principal.key.api === 'datasets'
      ? admitDatasets(principal, deps.clock())
      : admitMarket(principal, door);
  });
}

function refuseUnknown(): never {
  throw new AppError('invalid_key', 'The API key is not recognised or was revoked.');
}

function admitDatasets(principal: Principal, now: Date): Principal {
  const { account } = principal;
  if (!account.emailConfirmed) {
    throw new AppError('key_disabled', "Confirm the account's email address to enable its keys.");
  }
  if (!planActive(account.plan, account.planEndsAt, now)) {
    throw new AppError('plan_required', 'The account has no active plan; choose a plan to use its keys.');
  }
  return principal;
}

function admitMarket(principal: Principal, door: Door): Principal {
  if (door === 'market' && principal.key.access !== 'market-data') {
    throw new AppError('key_too_broad', 'Create a key with market-data-only access for these routes.');
  }
  if (!principal.account.emailConfirmed) {
    throw new AppError('key_disabled', "Confirm the account's email address to enable its keys.");
  }
  if (principal.account.marketPlan !== 'paid') {
    throw new AppError('plan_required', 'Market data needs a paid plan of the market-data product.');
  }
  return principal;
}
