// Authentication: reading the key from a request, finding its account (cached for at most a second, so a
// change made elsewhere takes effect within two), and the stored-datasets API's rules.
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { apiOfKeyText, hashKey } from '../accounts/key-text.js';
import { findPrincipal, type Principal } from '../accounts/keys.js';
import { planActive } from '../accounts/plans.js';
import type { Database } from '../store/schema.js';
import { AppError } from './errors.js';
import { andThen, type MaybePromise } from './steps.js';

const CACHE_MS = 1000;
const MAX_CACHED = 50_000;

/** The key text of a request: Authorization: Bearer first, then x-api-key. */
export function readKey(request: FastifyRequest): string | null {
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string') {
    const match = /^\s*Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match?.[1]) return match[1];
  }
  const header = request.headers['x-api-key'];
  const value = Array.isArray(header) ? header[0] : header;
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

export class PrincipalCache {
  private readonly entries = new Map<string, { principal: Principal | null; expires: number }>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: () => number = Date.now,
  ) {}

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

/** The stored-datasets API's rules (spec: Authentication, Errors). */
export function authenticateDatasets(
  request: FastifyRequest,
  principals: PrincipalCache,
  now: Date,
): MaybePromise<Principal> {
  const text = readKey(request);
  if (text === null) {
    throw new AppError('missing_key', 'Send your API key as "Authorization: Bearer gds_..." or "x-api-key".');
  }
  const api = apiOfKeyText(text);
  if (api === 'market' || api === 'news') {
    throw new AppError(
      'wrong_key',
      `This is a ${api} API key; the stored-datasets API takes keys that start with gds_.`,
    );
  }
  if (api !== 'datasets') return admitDatasets(null, now);
  return andThen(principals.find(text), (principal) => admitDatasets(principal, now));
}

function admitDatasets(principal: Principal | null, now: Date): Principal {
  if (principal?.key.api !== 'datasets' || principal.key.revokedAt !== null) {
    throw new AppError('invalid_key', 'The API key is not recognised or was revoked.');
  }
  const { account } = principal;
  if (!account.emailConfirmed) {
    throw new AppError('key_disabled', "Confirm the account's email address to enable its keys.");
  }
  if (!planActive(account.plan, account.planEndsAt, now)) {
    throw new AppError('plan_required', 'The account has no active plan; choose a plan to use its keys.');
  }
  return principal;
}

/** The market-data API's rules (spec: market-data Authentication): svc_mcp_ keys with market-data access. */
export function authenticateMarket(
  request: FastifyRequest,
  principals: PrincipalCache,
): MaybePromise<Principal> {
  const text = readKey(request);
  if (text === null) {
    throw new AppError(
      'missing_key',
      'Send your API key as "Authorization: Bearer svc_mcp_..." or "x-api-key".',
    );
  }
  const api = apiOfKeyText(text);
  if (api === 'datasets') {
    throw new AppError(
      'wrong_key',
      'This is a stored-datasets key (gds_); market data takes keys that start with svc_mcp_.',
    );
  }
  if (api === 'news') throw new AppError('wrong_key', 'News keys (svc_news_) work only for /v1/news.');
  if (api !== 'market') return admitMarket(null);
  return andThen(principals.find(text), admitMarket);
}

function admitMarket(principal: Principal | null): Principal {
  if (principal?.key.api !== 'market' || principal.key.revokedAt !== null) {
    throw new AppError('invalid_key', 'The API key is not recognised or was revoked.');
  }
  if (principal.key.access !== 'market-data') {
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
