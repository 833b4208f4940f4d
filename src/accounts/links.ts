// Signed, expiring tokens for the links the console mails: confirm an email address, reset a password.
// A token is bound to what it acts on (the address to confirm; the password hash it replaces), so a reset
// link works once and a confirmation link dies when the address changes. Nothing is stored.
import { createHmac, timingSafeEqual } from 'node:crypto';

export type LinkPurpose = 'confirm' | 'reset';

export const LINK_LIFETIME_MS: Record<LinkPurpose, number> = {
  confirm: 48 * 3_600_000,
  reset: 3_600_000,
};

interface LinkClaims {
  purpose: LinkPurpose;
  accountId: string;
  expiresAt: number;
}

function signature(secret: string, body: string, binding: string): string {
  return createHmac('sha256', secret).update(`link\n${body}\n${binding}`).digest('base64url');
}

export function signLink(
  secret: string,
  purpose: LinkPurpose,
  accountId: string,
  binding: string,
  now: Date,
): string {
  const claims: LinkClaims = { purpose, accountId, expiresAt: now.getTime() + LINK_LIFETIME_MS[purpose] };
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${body}.${signature(secret, body, binding)}`;
}

/** What a token claims, unverified: which account to look up the binding of before `verifyLink`. */
export function readLink(token: string, purpose: LinkPurpose): LinkClaims | null {
  const [body] = token.split('.');
  try {
    const claims = JSON.parse(Buffer.from(body ?? '', 'base64url').toString('utf8')) as LinkClaims;
    return claims.purpose === purpose && typeof claims.accountId === 'string' ? claims : null;
  } catch {
    return null;
  }
}

export type LinkCheck = 'ok' | 'invalid' | 'expired';

export function verifyLink(
  secret: string,
  token: string,
  purpose: LinkPurpose,
  binding: string,
  now: Date,
): LinkCheck {
  const [body, given, extra] = token.split('.');
  if (!body || !given || extra !== undefined) return 'invalid';
  const expected = Buffer.from(signature(secret, body, binding));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return 'invalid';
  const claims = readLink(token, purpose);
  if (!claims || typeof claims.expiresAt !== 'number') return 'invalid';
  return claims.expiresAt > now.getTime() ? 'ok' : 'expired';
}
