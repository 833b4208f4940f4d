// Key verbs: create (full text returned once), revoke, list, and the lookup behind authentication.
import type { Kysely } from 'kysely';
import { AppError } from '../kernel/errors.js';
import type { Database } from '../store/schema.js';
import { type Account, type AccountDeps, getAccount, toAccount } from './accounts.js';
import { type Actor, recordActivity } from './activity.js';
import { type KeyApi, type MarketAccess, newId, newKeyText } from './key-text.js';
import { planActive } from './plans.js';

/**
 * The datasets plan governs gds_ keys only. Market and news keys belong to other products (the market plan
 * decides what a market key may read), so they need no datasets plan and have a fixed cap of their own.
 */
export const OTHER_API_MAX_KEYS = 20;

export interface KeyInfo {
  id: string;
  accountId: string;
  api: KeyApi;
  access: MarketAccess | null;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface CreatedKey extends KeyInfo {
  /** The full key text; shown once, never stored. */
  key: string;
}

export interface CreateKeyInput {
  accountId: string;
  api: KeyApi;
  access?: MarketAccess;
  /** Who creates it, recorded in the account's activity (the console and the CLI always say). */
  actor?: Actor;
}

export async function createKey(deps: AccountDeps, input: CreateKeyInput): Promise<CreatedKey> {
  const db = deps.store.db;
  const now = deps.clock();
  if (input.api !== 'market' && input.access !== undefined) {
    throw new AppError('invalid_params', 'access applies only to market keys');
  }
  const account = await getAccount(db, input.accountId);
  const maxKeys = input.api === 'datasets' ? account.limits.maxKeys : OTHER_API_MAX_KEYS;
  if (input.api === 'datasets' && !planActive(account.plan, account.planEndsAt, now)) {
    throw new AppError(
      'plan_required',
      `account ${account.id} has no active plan; set a plan before creating keys`,
    );
  }
  const used = await countActiveKeys(db, account.id, input.api);
  if (used >= maxKeys) {
    throw new AppError(
      'key_limit_reached',
      `${used} active ${input.api} keys of the ${maxKeys} allowed; revoke one first`,
    );
  }
  const text = newKeyText(input.api);
  const info: KeyInfo = {
    id: newId('key'),
    accountId: account.id,
    api: input.api,
    access: input.api === 'market' ? (input.access ?? 'market-data') : null,
    prefix: text.prefix,
    createdAt: now.toISOString(),
    revokedAt: null,
  };
  await db
    .insertInto('api_keys')
    .values({
      id: info.id,
      account_id: info.accountId,
      api: info.api,
      access: info.access,
      prefix: info.prefix,
      hash: text.hash,
      created_at: info.createdAt,
      revoked_at: null,
    })
    .execute();
  if (input.actor) {
    const what = info.access ? `${info.api} (${info.access})` : info.api;
    await recordActivity(db, account.id, input.actor, 'key created', `${info.prefix}… ${what}`, now);
  }
  return { ...info, key: text.text };
}

/** Active keys of one API of an account. */
export async function countActiveKeys(db: Kysely<Database>, accountId: string, api: KeyApi): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('api', '=', api)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Revokes a key. With `accountId`, only a key of that account (the console's caller): another account's key
 * id is answered as unknown. With an `actor`, the revocation is recorded in the account's activity.
 */
export async function revokeKey(
  deps: AccountDeps,
  { keyId, ...scope }: { keyId: string; accountId?: string; actor?: Actor },
): Promise<KeyInfo> {
  const db = deps.store.db;
  const now = deps.clock();
  const found = await db.selectFrom('api_keys').selectAll().where('id', '=', keyId).executeTakeFirst();
  if (!found || (scope.accountId !== undefined && found.account_id !== scope.accountId)) {
    throw new AppError('not_found', `no key ${keyId}`);
  }
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: now.toISOString() })
    .where('id', '=', keyId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (scope.actor && result.numUpdatedRows > 0n) {
    await recordActivity(
      db,
      found.account_id,
      scope.actor,
      'key revoked',
      `${found.prefix}… ${found.api}`,
      now,
    );
  }
  const row = await db.selectFrom('api_keys').selectAll().where('id', '=', keyId).executeTakeFirstOrThrow();
  return toKeyInfo(row);
}

export async function listKeys(db: Kysely<Database>, accountId: string): Promise<KeyInfo[]> {
  await getAccount(db, accountId);
  const rows = await db
    .selectFrom('api_keys')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toKeyInfo);
}

function toKeyInfo(row: Database['api_keys']): KeyInfo {
  return {
    id: row.id,
    accountId: row.account_id,
    api: row.api as KeyApi,
    access: row.access as MarketAccess | null,
    prefix: row.prefix,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

export interface Principal {
  key: KeyInfo;
  account: Account;
}

/** The key with this hash and its account, or null. */
export async function findPrincipal(db: Kysely<Database>, hash: string): Promise<Principal | null> {
  const key = await db.selectFrom('api_keys').selectAll().where('hash', '=', hash).executeTakeFirst();
  if (!key) return null;
  const account = await db
    .selectFrom('accounts')
    .selectAll()
    .where('id', '=', key.account_id)
    .executeTakeFirst();
  if (!account) return null;
  return { key: toKeyInfo(key), account: toAccount(account) };
}
