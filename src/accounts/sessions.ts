// Console sessions: a random token in an HttpOnly cookie, its SHA-256 in the store, so every instance on
// the store knows it and an operator can end it. A sign-in always makes a new session (no fixation).
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { type Account, toAccount } from './accounts.js';

export const SESSION_MS = 12 * 3_600_000;

export interface Session {
  /** The stored id: the token's hash. Never the token. */
  id: string;
  account: Account;
  expiresAt: string;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export async function openSession(
  db: Kysely<Database>,
  accountId: string,
  address: string | null,
  now: Date,
): Promise<{ token: string; expiresAt: string }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + SESSION_MS).toISOString();
  await db
    .insertInto('console_sessions')
    .values({
      id: hashToken(token),
      account_id: accountId,
      address,
      created_at: now.toISOString(),
      expires_at: expiresAt,
      revoked_at: null,
    })
    .execute();
  return { token, expiresAt };
}

/** The live session of a cookie's token: not expired, not revoked; null otherwise. */
export async function findSession(db: Kysely<Database>, token: string, now: Date): Promise<Session | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const row = await db
    .selectFrom('console_sessions')
    .innerJoin('accounts', 'accounts.id', 'console_sessions.account_id')
    .selectAll('accounts')
    .select(['console_sessions.id as session_id', 'expires_at', 'revoked_at'])
    .where('console_sessions.id', '=', hashToken(token))
    .executeTakeFirst();
  if (!row || row.revoked_at !== null || row.expires_at <= now.toISOString()) return null;
  const { session_id, expires_at, revoked_at: _, ...account } = row;
  return { id: session_id, account: toAccount(account), expiresAt: expires_at };
}

export async function endSession(db: Kysely<Database>, sessionId: string, now: Date): Promise<void> {
  await db
    .updateTable('console_sessions')
    .set({ revoked_at: now.toISOString() })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Ends every session of an account (the operator's `quarry accounts sign-out`, a password reset). */
export async function endAccountSessions(
  db: Kysely<Database>,
  accountId: string,
  now: Date,
): Promise<number> {
  const result = await db
    .updateTable('console_sessions')
    .set({ revoked_at: now.toISOString() })
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
