// Sign up, confirm the address, sign in and out, reset a password.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  checkLink,
  confirmAddress,
  requestReset,
  resetPassword,
  signIn,
  signUp,
} from '../../accounts/console-auth.js';
import { MIN_PASSWORD } from '../../accounts/passwords.js';
import { endSession, SESSION_MS } from '../../accounts/sessions.js';
import type { Deps } from '../../kernel/deps.js';
import { AppError } from '../../kernel/errors.js';
import { membersOf } from '../context.js';
import { csrfField, type Html, html, page } from './html.js';
import { addressOf, formOf, Redirect, sendPage } from './plugin.js';
import { consoleContext, SESSION_COOKIE, setCookie } from './session.js';

const NOTICES: Record<string, string> = {
  'password-set': 'Your password is set. Sign in with it.',
  'signed-out': 'You are signed out.',
};

/** Sends a page of the console: its title, its body (given the form token), a notice or an error. */
type Show = (
  request: FastifyRequest,
  reply: FastifyReply,
  title: string,
  body: (csrf: string) => Html,
  extra?: { notice?: string | null; error?: string | null; status?: number },
) => Promise<unknown>;

export function registerAuthPages(scope: FastifyInstance, deps: Deps): void {
  const show: Show = async (request, reply, title, body, extra = {}) => {
    const { csrf } = await consoleContext(deps, request, reply);
    return sendPage(
      reply,
      page({ title, csrf, notice: extra.notice ?? null, error: extra.error ?? null }, body(csrf)),
      extra.status,
    );
  };
  scope.get('/', async (request, reply) => {
    const { session } = await consoleContext(deps, request, reply);
    throw new Redirect(session ? '/console/overview' : '/console/sign-in');
  });
  registerSignUp(scope, deps, show);
  registerSignIn(scope, deps, show);
  registerReset(scope, deps, show);
}

/** A signed-in browser has no use for the sign-in and sign-up forms. */
async function anonymous(deps: Deps, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if ((await consoleContext(deps, request, reply)).session) throw new Redirect('/console/overview');
}

/** Creating an account, and confirming its address from the mailed link. */
function registerSignUp(scope: FastifyInstance, deps: Deps, show: Show): void {
  scope.get('/sign-up', async (request, reply) => {
    await anonymous(deps, request, reply);
    return show(request, reply, 'Create an account', signUpForm);
  });
  scope.post('/sign-up', async (request, reply) => {
    const form = formOf(request.body);
    try {
      await signUp(deps, {
        email: form.email ?? '',
        password: form.password ?? '',
        address: addressOf(request),
      });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return show(request, reply, 'Create an account', signUpForm, {
        error: error.message,
        status: error.status,
      });
    }
    return show(
      request,
      reply,
      'Check your mail',
      () =>
        html`<p>We sent a link to <strong>${form.email}</strong>. Follow it to confirm the address, then sign in.</p>`,
    );
  });

  scope.get('/confirm', async (request, reply) => {
    const token = String(membersOf(request.query).token ?? '');
    const account = await confirmAddress(deps, token);
    return show(
      request,
      reply,
      'Address confirmed',
      () =>
        html`<p>${account.email} is confirmed; the account's keys can be used. <a href="/console/sign-in">Sign in</a>.</p>`,
    );
  });
}

/** Signing in (a session cookie) and out. */
function registerSignIn(scope: FastifyInstance, deps: Deps, show: Show): void {
  scope.get('/sign-in', async (request, reply) => {
    await anonymous(deps, request, reply);
    const notice = NOTICES[String(membersOf(request.query).notice ?? '')] ?? null;
    return show(request, reply, 'Sign in', signInForm, { notice });
  });
  scope.post('/sign-in', async (request, reply) => {
    const form = formOf(request.body);
    let token: string;
    try {
      ({ token } = await signIn(deps, {
        email: form.email ?? '',
        password: form.password ?? '',
        address: addressOf(request),
      }));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.retryAfterSeconds !== null) reply.header('retry-after', String(error.retryAfterSeconds));
      return show(request, reply, 'Sign in', signInForm, {
        error: error.message,
        status: error.status === 400 ? 401 : error.status,
      });
    }
    setCookie(deps, request, reply, SESSION_COOKIE, token, SESSION_MS / 1000);
    throw new Redirect('/console/overview');
  });

  scope.post('/sign-out', async (request, reply) => {
    const { session } = await consoleContext(deps, request, reply);
    if (session) await endSession(deps.store.db, session.id, deps.clock());
    setCookie(deps, request, reply, SESSION_COOKIE, '', 0);
    throw new Redirect('/console/sign-in?notice=signed-out');
  });
}

/** A new password from a mailed link. */
function registerReset(scope: FastifyInstance, deps: Deps, show: Show): void {
  scope.get('/reset', (request, reply) => show(request, reply, 'Reset your password', resetForm));
  scope.post('/reset', async (request, reply) => {
    const form = formOf(request.body);
    await requestReset(deps, form.email ?? '', addressOf(request));
    return show(
      request,
      reply,
      'Check your mail',
      () =>
        html`<p>If <strong>${form.email}</strong> has an account, a link to set a new password is on its way. It is valid for an hour.</p>`,
    );
  });

  scope.get('/reset/new', async (request, reply) => {
    const token = String(membersOf(request.query).token ?? '');
    const check = await checkLink(deps, token, 'reset');
    if (check !== 'ok') {
      const why =
        check === 'expired' ? 'This link has expired.' : 'This link is not valid (was it used already?).';
      return show(request, reply, 'Reset your password', resetForm, {
        error: `${why} Ask for a new one.`,
        status: 400,
      });
    }
    return show(request, reply, 'Choose a new password', (csrf) => newPasswordForm(csrf, token));
  });
  scope.post('/reset/new', async (request, reply) => {
    const form = formOf(request.body);
    try {
      await resetPassword(deps, form.token ?? '', form.password ?? '');
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return show(
        request,
        reply,
        'Choose a new password',
        (csrf) => newPasswordForm(csrf, form.token ?? ''),
        { error: error.message, status: error.status },
      );
    }
    throw new Redirect('/console/sign-in?notice=password-set');
  });
}

function signUpForm(csrf: string): Html {
  return html`<form class="stack" method="post" action="/console/sign-up">${csrfField(csrf)}
<div><label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" required></div>
<div><label for="password">Password</label><input id="password" name="password" type="password" autocomplete="new-password" minlength="${MIN_PASSWORD}" required aria-describedby="password-help">
<p id="password-help" class="muted">At least ${MIN_PASSWORD} characters.</p></div>
<button type="submit">Create account</button></form>
<p>Have an account? <a href="/console/sign-in">Sign in</a>.</p>`;
}

function signInForm(csrf: string): Html {
  return html`<form class="stack" method="post" action="/console/sign-in">${csrfField(csrf)}
<div><label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required></div>
<div><label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required></div>
<button type="submit">Sign in</button></form>
<p><a href="/console/sign-up">Create an account</a> · <a href="/console/reset">Forgot your password?</a></p>`;
}

function resetForm(csrf: string): Html {
  return html`<form class="stack" method="post" action="/console/reset">${csrfField(csrf)}
<div><label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" required></div>
<button type="submit">Send a reset link</button></form>`;
}

function newPasswordForm(csrf: string, token: string): Html {
  return html`<form class="stack" method="post" action="/console/reset/new">${csrfField(csrf)}
<input type="hidden" name="token" value="${token}">
<div><label for="password">New password</label><input id="password" name="password" type="password" autocomplete="new-password" minlength="${MIN_PASSWORD}" required></div>
<button type="submit">Set password</button></form>`;
}
