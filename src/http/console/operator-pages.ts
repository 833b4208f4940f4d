// The operator view (accounts flagged admin by `quarry accounts set-admin`): find an account, see its plan,
// balance, keys and activity, and do what the CLI does. Each change is recorded as the CLI's are.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findAccount, listAccounts } from '../../accounts/accounts.js';
import { listActivity } from '../../accounts/activity.js';
import { keysWithUse, standing } from '../../accounts/console-views.js';
import { revokeKey } from '../../accounts/keys.js';
import { adjustBalance, operatorSetPlan } from '../../accounts/operator.js';
import { isPlanId, PLAN_IDS } from '../../accounts/plans.js';
import type { Deps } from '../../kernel/deps.js';
import { membersOf } from '../context.js';
import { activityTable } from './account-pages.js';
import { count, csrfField, html, page } from './html.js';
import { actorOf } from './keys-pages.js';
import { formOf, PageError, Redirect, sendPage, signedIn } from './plugin.js';

/** The signed-in operator, acting under their address: any other account is refused the pages. */
async function operatorOf(deps: Deps, request: FastifyRequest, reply: FastifyReply) {
  const signed = await signedIn(deps, request, reply);
  if (!signed.account.admin) throw new PageError(403, 'This page is for the operators of this service.');
  return { ...signed, actor: actorOf(`operator ${signed.account.email}`, request) };
}

const accountId = (request: FastifyRequest) => String(membersOf(request.params).id);

export function registerOperatorPages(scope: FastifyInstance, deps: Deps): void {
  const operator = (request: FastifyRequest, reply: FastifyReply) => operatorOf(deps, request, reply);

  scope.get('/admin', async (request, reply) => {
    const { context, viewer } = await operator(request, reply);
    const q = String(membersOf(request.query).q ?? '').trim();
    const byId = q.startsWith('acct_') ? await findAccount(deps.store.db, q) : null;
    const found =
      q === '' ? [] : byId ? [byId] : (await listAccounts(deps.store.db, { email: q })).slice(0, 50);
    const body = html`<form class="stack" method="get" action="/console/admin" role="search">
<div><label for="q">Email or account id</label><input id="q" name="q" value="${q}"></div><button type="submit">Find</button></form>
${
  q === ''
    ? ''
    : found.length === 0
      ? html`<p>No account matches “${q}”.</p>`
      : html`<div class="table-wrap"><table><thead><tr><th scope="col">Account</th><th scope="col">Email</th><th scope="col">Plan</th><th scope="col">Created</th></tr></thead><tbody>
${found.map((a) => html`<tr><td><a href="/console/admin/accounts/${a.id}">${a.id}</a></td><td>${a.email}</td><td>${a.plan}</td><td>${a.createdAt.slice(0, 10)}</td></tr>`)}</tbody></table></div>`
}`;
    return sendPage(
      reply,
      page({ title: 'Operator', current: '/console/admin', viewer, csrf: context.csrf }, body),
    );
  });

  scope.get('/admin/accounts/:id', async (request, reply) => {
    const { context, viewer } = await operator(request, reply);
    if (!(await findAccount(deps.store.db, accountId(request)))) throw new PageError(404, 'No such account.');
    const { account, status, keys } = await standing(deps, accountId(request));
    const all = await keysWithUse(deps, account.id);
    const base = `/console/admin/accounts/${account.id}`;
    const body = html`<dl class="facts"><dt>Email</dt><dd>${account.email}${account.emailConfirmed ? '' : ' (not confirmed)'}</dd>
<dt>Plan</dt><dd>${account.plan} · ${status}</dd><dt>Balance</dt><dd>${count(account.balance)} of ${count(account.allowance)}</dd>
<dt>Keys</dt><dd>${keys.used} of ${keys.allowed} datasets keys</dd></dl>
<h2>Set the plan</h2><form class="stack" method="post" action="${base}/plan">${csrfField(context.csrf)}
<div><label for="plan">Plan</label><select id="plan" name="plan">${PLAN_IDS.map((p) => html`<option value="${p}"${p === account.plan ? html` selected` : ''}>${p}</option>`)}</select></div>
<button type="submit">Set plan</button></form>
<h2>Adjust credits</h2><form class="stack" method="post" action="${base}/credits">${csrfField(context.csrf)}
<div><label for="delta">Credits to add (negative to remove)</label><input id="delta" name="delta" inputmode="numeric" required></div>
<div><label for="reason">Reason</label><input id="reason" name="reason" required></div>
<button type="submit">Adjust</button></form>
<h2>Keys</h2>${
      all.length === 0
        ? html`<p class="muted">No keys.</p>`
        : html`<div class="table-wrap"><table><thead><tr><th scope="col">Key</th><th scope="col">API</th><th scope="col">Created</th><th scope="col">Status</th></tr></thead><tbody>
${all.map((k) => html`<tr><td><code>${k.prefix}…</code></td><td>${k.api}${k.access ? ` (${k.access})` : ''}</td><td>${k.createdAt.slice(0, 10)}</td><td>${k.revokedAt ? `revoked ${k.revokedAt.slice(0, 10)}` : html`<form class="inline" method="post" action="${base}/keys/${k.id}/revoke">${csrfField(context.csrf)}<button class="danger" type="submit">Revoke ${k.prefix}…</button></form>`}</td></tr>`)}</tbody></table></div>`
    }
<h2>Activity</h2>${activityTable(await listActivity(deps.store.db, account.id))}`;
    return sendPage(
      reply,
      page({ title: `Account ${account.id}`, current: '/console/admin', viewer, csrf: context.csrf }, body),
    );
  });

  registerOperatorChanges(scope, deps);
}

/** What an operator changes on an account: its plan, its credits, its keys. */
function registerOperatorChanges(scope: FastifyInstance, deps: Deps): void {
  const operator = (request: FastifyRequest, reply: FastifyReply) => operatorOf(deps, request, reply);
  scope.post('/admin/accounts/:id/plan', async (request, reply) => {
    const { actor } = await operator(request, reply);
    const plan = formOf(request.body).plan ?? '';
    if (!isPlanId(plan)) throw new PageError(400, `Choose one of ${PLAN_IDS.join(', ')}.`);
    await operatorSetPlan(deps, actor, accountId(request), plan);
    throw new Redirect(`/console/admin/accounts/${accountId(request)}`);
  });

  scope.post('/admin/accounts/:id/credits', async (request, reply) => {
    const { actor } = await operator(request, reply);
    const form = formOf(request.body);
    const delta = /^-?\d{1,12}$/.test((form.delta ?? '').trim()) ? Number(form.delta) : Number.NaN;
    await adjustBalance(deps, actor, accountId(request), delta, form.reason ?? '');
    throw new Redirect(`/console/admin/accounts/${accountId(request)}`);
  });

  scope.post('/admin/accounts/:id/keys/:keyId/revoke', async (request, reply) => {
    const { actor } = await operator(request, reply);
    const keyId = String(membersOf(request.params).keyId);
    await revokeKey(deps, { keyId, accountId: accountId(request), actor });
    throw new Redirect(`/console/admin/accounts/${accountId(request)}`);
  });
}
