// The console's account verbs: sign up, confirm the address, sign in, reset a password. Mail carries signed,
// expiring links (links.ts); sign-in attempts are counted per account and per address (src/limits).
import type { Kysely } from 'kysely';
import { serviceUrl } from '../kernel/config.js';
import type { Deps } from '../kernel/deps.js';
import { AppError, secondsUntil } from '../kernel/errors.js';
import type { Database } from '../store/schema.js';
import { type Account, confirmEmail, createAccount, toAccount } from './accounts.js';
import { type LinkCheck, type LinkPurpose, readLink, signLink, verifyLink } from './links.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { endAccountSessions, openSession } from './sessions.js';

const WINDOW_MS = 15 * 60_000;
/** Sign-in attempts in 15 minutes: per account, and per client address. */
export const SIGN_IN_LIMITS = { account: 10, address: 50 };
/** Sign-ups and reset requests per address in 15 minutes: each sends mail. */
const MAIL_LIMIT = 10;

export interface SignUpInput {
  email: string;
  password: string;
  address: string | null;
}

/** The console's address in mail: QUARRY_PUBLIC_URL, or the address the server listens on. */
export function consoleBase(deps: Deps): string {
  return `${serviceUrl(deps.config)}/console`;
}

/**
 * Creates an unconfirmed account and mails its confirmation link. An address already held gets a mail
 * saying so (with a reset link) and the caller sees the same answer, so sign-up does not reveal accounts.
 */
export async function signUp(deps: Deps, input: SignUpInput): Promise<void> {
  await limitMail(deps, input.address);
  const passwordHash = await hashPassword(input.password);
  const existing = await accountByEmail(deps.store.db, input.email);
  if (existing) {
    await deps.mailer.send({
      to: existing.email,
      subject: 'Your Quarry account',
      text: `Someone tried to sign up with this address, which already has a Quarry account.\n\nIf that was you and you have lost your password, set a new one here (valid for an hour):\n${await linkFor(deps, existing, 'reset')}\n`,
    });
    return;
  }
  const account = await createAccount(deps, { email: input.email, passwordHash });
  await sendConfirmation(deps, account);
}

export async function sendConfirmation(deps: Deps, account: Account): Promise<void> {
  await deps.mailer.send({
    to: account.email,
    subject: 'Confirm your Quarry account',
    text: `Confirm your email address to enable your account's keys (the link is valid for 48 hours):\n${await linkFor(deps, account, 'confirm')}\n`,
  });
}

/** Confirms the address a confirmation link names; an expired or altered link is refused with the reason. */
export async function confirmAddress(deps: Deps, token: string): Promise<Account> {
  const account = await accountOfLink(deps, token, 'confirm');
  return account.emailConfirmed ? account : confirmEmail(deps, { accountId: account.id });
}

export interface SignInInput {
  email: string;
  password: string;
  address: string | null;
}

/** A new session for the right email and password, within the attempt limits. */
export async function signIn(deps: Deps, input: SignInInput) {
  const email = input.email.trim().toLowerCase();
  const limits: [string, number][] = [
    [`signin:account:${email}`, SIGN_IN_LIMITS.account],
    [`signin:address:${input.address ?? 'unknown'}`, SIGN_IN_LIMITS.address],
  ];
  for (const [key, limit] of limits) {
    const hit = await deps.counters.hit(key, 1, limit, WINDOW_MS);
    if (!hit.allowed) {
      const minutes = Math.ceil(hit.resetMs / 60_000);
      throw new AppError(
        'rate_limited',
        `Too many sign-in attempts; try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        secondsUntil(hit.resetMs),
      );
    }
  }
  const row = await deps.store.db
    .selectFrom('accounts')
    .selectAll()
    .where('email', '=', email)
    .executeTakeFirst();
  if (!(await verifyPassword(input.password, row?.password_hash ?? null)) || !row) {
    throw new AppError('invalid_params', 'That email and password do not match an account.');
  }
  const session = await openSession(deps.store.db, row.id, input.address, deps.clock());
  return { ...session, account: toAccount(row) };
}

/** Mails a reset link when the address has an account; the caller is told the same either way. */
export async function requestReset(deps: Deps, email: string, address: string | null): Promise<void> {
  await limitMail(deps, address);
  const account = await accountByEmail(deps.store.db, email);
  if (!account) return;
  await deps.mailer.send({
    to: account.email,
    subject: 'Set your Quarry password',
    text: `Set a new password for your Quarry account here (the link is valid for an hour and works once):\n${await linkFor(deps, account, 'reset')}\n`,
  });
}

/** Sets the password a reset link allows; ends the account's other sessions. */
export async function resetPassword(deps: Deps, token: string, password: string): Promise<Account> {
  const account = await accountOfLink(deps, token, 'reset');
  const now = deps.clock();
  await deps.store.db
    .updateTable('accounts')
    .set({ password_hash: await hashPassword(password), updated_at: now.toISOString() })
    .where('id', '=', account.id)
    .execute();
  await endAccountSessions(deps.store.db, account.id, now);
  // Following the link proves the address, as a confirmation link would.
  return account.emailConfirmed ? account : confirmEmail(deps, { accountId: account.id });
}

/** Checks a link without using it: whether the page that takes a new password should be shown. */
export async function checkLink(deps: Deps, token: string, purpose: LinkPurpose): Promise<LinkCheck> {
  return (await resolveLink(deps, token, purpose)).check;
}

async function accountOfLink(deps: Deps, token: string, purpose: LinkPurpose): Promise<Account> {
  const { check, account } = await resolveLink(deps, token, purpose);
  if (check === 'expired') throw new AppError('invalid_params', 'This link has expired; ask for a new one.');
  if (check !== 'ok' || !account) {
    throw new AppError('invalid_params', 'This link is not valid (was it used already?).');
  }
  return account;
}

async function resolveLink(deps: Deps, token: string, purpose: LinkPurpose) {
  const claims = readLink(token, purpose);
  const row = claims
    ? await deps.store.db
        .selectFrom('accounts')
        .selectAll()
        .where('id', '=', claims.accountId)
        .executeTakeFirst()
    : undefined;
  if (!row) return { check: 'invalid' as LinkCheck, account: null };
  const check = verifyLink(deps.consoleSecret, token, purpose, bindingOf(row, purpose), deps.clock());
  return { check, account: toAccount(row) };
}

async function linkFor(deps: Deps, account: Account, purpose: LinkPurpose): Promise<string> {
  const row = await deps.store.db
    .selectFrom('accounts')
    .selectAll()
    .where('id', '=', account.id)
    .executeTakeFirstOrThrow();
  const token = signLink(deps.consoleSecret, purpose, account.id, bindingOf(row, purpose), deps.clock());
  return `${consoleBase(deps)}/${purpose === 'confirm' ? 'confirm' : 'reset/new'}?token=${token}`;
}

/** A confirmation link is bound to the address; a reset link to the password it replaces (so it works once). */
function bindingOf(row: Database['accounts'], purpose: LinkPurpose): string {
  return purpose === 'confirm' ? row.email : `${row.email}\n${row.password_hash ?? ''}`;
}

async function accountByEmail(db: Kysely<Database>, email: string): Promise<Account | null> {
  const row = await db
    .selectFrom('accounts')
    .selectAll()
    .where('email', '=', email.trim().toLowerCase())
    .executeTakeFirst();
  return row ? toAccount(row) : null;
}

async function limitMail(deps: Deps, address: string | null): Promise<void> {
  const hit = await deps.counters.hit(`mail:address:${address ?? 'unknown'}`, 1, MAIL_LIMIT, WINDOW_MS);
  if (!hit.allowed) {
    throw new AppError(
      'rate_limited',
      'Too many requests from this address; try again later.',
      secondsUntil(hit.resetMs),
    );
  }
}
