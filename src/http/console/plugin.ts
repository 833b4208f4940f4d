// The account console at /console: server-rendered pages in the same process and port as the APIs, outside
// both OpenAPI documents. Every POST carries the form token; every page is sent with a strict CSP.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Account } from '../../accounts/accounts.js';
import type { Deps } from '../../kernel/deps.js';
import { AppError, ERROR_STATUS } from '../../kernel/errors.js';
import { membersOf } from '../context.js';
import { SCRIPT, STYLESHEET } from './assets.js';
import { html, page, type Viewer } from './html.js';
import { type ConsoleContext, consoleContext, csrfMatches } from './session.js';

/** A request the console answers by sending the browser elsewhere (sign in first, or the next page). */
export class Redirect extends Error {
  constructor(readonly location: string) {
    super(`redirect to ${location}`);
  }
}

/** A refusal the console shows as a page with this status. */
export class PageError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export type Form = Record<string, string>;

/** A console form's fields, as the urlencoded parser made them ({} for a request without a form). */
export function formOf(body: unknown): Form {
  const fields: Form = {};
  for (const [name, value] of Object.entries(membersOf(body)))
    if (typeof value === 'string') fields[name] = value;
  return fields;
}

const HEADERS = {
  'content-security-policy':
    "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; form-action 'self' https://checkout.stripe.com; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

export function registerConsolePlugin(
  app: FastifyInstance,
  deps: Deps,
  routes: (scope: FastifyInstance) => void,
): void {
  app.register(
    async (scope) => {
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: 16 * 1024 },
        (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
      );
      scope.addHook('onSend', async (_request, reply, payload) => {
        reply.headers(HEADERS);
        return payload;
      });
      scope.addHook('preHandler', async (request, reply) => {
        if (request.method !== 'POST') return;
        const context = await consoleContext(deps, request, reply);
        if (!csrfMatches(context, formOf(request.body)._csrf)) {
          throw new PageError(
            403,
            'This form has expired or did not come from this console. Go back, reload the page and try again.',
          );
        }
      });
      scope.setErrorHandler((error: FastifyError, request, reply) => errorPage(deps, error, request, reply));
      scope.setNotFoundHandler((request, reply) =>
        errorPage(
          deps,
          new PageError(404, `There is no console page ${request.url.split('?')[0]}.`),
          request,
          reply,
        ),
      );
      scope.get('/assets/console.css', async (_request, reply) =>
        reply
          .type('text/css; charset=utf-8')
          .header('cache-control', 'public, max-age=3600')
          .send(STYLESHEET),
      );
      scope.get('/assets/console.js', async (_request, reply) =>
        reply.type('application/javascript; charset=utf-8').send(SCRIPT),
      );
      routes(scope);
    },
    { prefix: '/console' },
  );
}

/** The signed-in account of a request; sends the browser to sign in when there is none. */
export async function signedIn(deps: Deps, request: FastifyRequest, reply: FastifyReply) {
  const context = await consoleContext(deps, request, reply);
  if (!context.session) throw new Redirect('/console/sign-in');
  return { context, account: context.session.account, viewer: viewerOf(context.session.account) };
}

export function viewerOf(account: Account): Viewer {
  return { email: account.email, admin: account.admin };
}

export function sendPage(reply: FastifyReply, body: string, status = 200) {
  return reply.code(status).type('text/html; charset=utf-8').send(body);
}

/** The client's address as the activity log records it (X-Forwarded-For only from a trusted proxy). */
export function addressOf(request: FastifyRequest): string {
  return request.ip;
}

async function errorPage(
  deps: Deps,
  error: Error & { statusCode?: number },
  request: FastifyRequest,
  reply: FastifyReply,
) {
  if (error instanceof Redirect) return reply.redirect(error.location, 303);
  let status = 500;
  let message = 'The console failed on our side; try again in a moment.';
  if (error instanceof PageError) ({ status, message } = error);
  else if (error instanceof AppError)
    ({ status, message } = { status: ERROR_STATUS[error.code], message: error.message });
  else if (error.statusCode && error.statusCode < 500) {
    status = error.statusCode;
    message = status === 413 ? 'The form is too large.' : 'The request could not be read.';
  }
  if (status >= 500) request.log.error({ err: error, reqId: request.id }, 'console request failed');
  let context: ConsoleContext | null = null;
  try {
    context = await consoleContext(deps, request, reply);
  } catch {
    context = null;
  }
  const account = context?.session?.account;
  return sendPage(
    reply,
    page(
      {
        title: status === 404 ? 'Not found' : 'Something is wrong',
        viewer: account ? viewerOf(account) : null,
        csrf: context?.csrf ?? '',
      },
      html`<p class="error" role="alert">${message}</p><p><a href="/console">Back to the console</a></p>`,
    ),
    status,
  );
}
