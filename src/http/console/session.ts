// The console's cookies and form protection. A signed-in browser holds the session cookie; before sign-in it
// holds a random "pre" cookie. A form's CSRF token is an HMAC of whichever it holds, so a page of another
// site cannot know it, and it changes with every new session.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { findSession, type Session } from '../../accounts/sessions.js';
import type { Deps } from '../../kernel/deps.js';

export const SESSION_COOKIE = 'quarry_session';
const PRE_COOKIE = 'quarry_pre';

export function readCookies(request: FastifyRequest): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0) cookies.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  return cookies;
}

function secure(deps: Deps, request: FastifyRequest): boolean {
  return request.protocol === 'https' || (deps.config.publicUrl?.startsWith('https:') ?? false);
}

export function setCookie(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  name: string,
  value: string,
  maxAgeSeconds: number,
): void {
  const attributes = [
    `${name}=${value}`,
    'Path=/console',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${maxAgeSeconds}`,
    ...(secure(deps, request) ? ['Secure'] : []),
  ];
  const previous = reply.getHeader('set-cookie');
  const list = Array.isArray(previous) ? previous : previous ? [String(previous)] : [];
  reply.header('set-cookie', [...list, attributes.join('; ')]);
}

/** What a console request knows of its browser: the live session, if any, and the form token to expect. */
export interface ConsoleContext {
  session: Session | null;
  csrf: string;
}

const contexts = new WeakMap<FastifyRequest, ConsoleContext>();

export async function consoleContext(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<ConsoleContext> {
  const known = contexts.get(request);
  if (known) return known;
  const cookies = readCookies(request);
  const token = cookies.get(SESSION_COOKIE);
  const session = token ? await findSession(deps.store.db, token, deps.clock()) : null;
  let binding: string;
  if (session) binding = `session\n${session.id}`;
  else {
    let pre = cookies.get(PRE_COOKIE);
    if (!pre || !/^[A-Za-z0-9_-]{22}$/.test(pre)) {
      pre = randomBytes(16).toString('base64url');
      setCookie(deps, request, reply, PRE_COOKIE, pre, 24 * 3600);
    }
    binding = `pre\n${pre}`;
  }
  const context = {
    session,
    csrf: createHmac('sha256', deps.consoleSecret).update(`csrf\n${binding}`).digest('base64url'),
  };
  contexts.set(request, context);
  return context;
}

export function csrfMatches(context: ConsoleContext, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(context.csrf);
  return a.length === b.length && timingSafeEqual(a, b);
}
