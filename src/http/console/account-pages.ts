// Overview (plan, period, credits, keys, market units) and activity.
import type { FastifyInstance } from 'fastify';
import { listActivity } from '../../accounts/activity.js';
import { sendConfirmation } from '../../accounts/console-auth.js';
import { marketKeyUnits, standing } from '../../accounts/console-views.js';
import type { Deps } from '../../kernel/deps.js';
import { membersOf } from '../context.js';
import { count, csrfField, type Html, html, page } from './html.js';
import { sendPage, signedIn } from './plugin.js';

export function registerAccountPages(scope: FastifyInstance, deps: Deps): void {
  scope.get('/overview', async (request, reply) => {
    const { context, viewer, account: signedInAs } = await signedIn(deps, request, reply);
    const { account, status, keys, unitLimits } = await standing(deps, signedInAs.id);
    const marketKeys = await marketKeyUnits(deps, account.id);
    const notice =
      membersOf(request.query).notice === 'confirmation-sent'
        ? `A confirmation link was sent to ${account.email}.`
        : null;
    const body = html`
${
  account.emailConfirmed
    ? ''
    : html`<div class="warning" role="status"><p>Confirm your email address: until you do, the account's keys are refused with <code>key_disabled</code>.</p>
<form method="post" action="/console/confirm/resend">${csrfField(context.csrf)}<button class="secondary" type="submit">Send the link again</button></form></div>`
}
<h2>Stored-datasets plan</h2>
<dl class="facts">
<dt>Plan</dt><dd>${account.plan === 'none' ? 'none' : account.plan}</dd>
<dt>Status</dt><dd>${status}${account.planEndsAt ? html` <span class="muted">(ends ${account.planEndsAt.slice(0, 10)})</span>` : ''}</dd>
<dt>Credit period</dt><dd>${account.periodStart.slice(0, 10)} to ${account.periodEnd.slice(0, 10)} <span class="muted">(ends ${account.periodEnd.slice(0, 16).replace('T', ' ')} UTC)</span></dd>
<dt>Credits</dt><dd><meter id="credits" min="0" max="${Math.max(1, account.allowance)}" value="${account.balance}" aria-label="Credits remaining">${count(account.balance)}</meter>
<div>${count(account.balance)} of ${count(account.allowance)} left</div></dd>
<dt>Credits per minute</dt><dd>${count(account.limits.creditsPerMinute)}</dd>
<dt>Keys</dt><dd>${keys.used} of ${keys.allowed} in use</dd>
</dl>
${planChoice(deps, status, context.csrf)}
<h2>Market data</h2>
<dl class="facts"><dt>Market plan</dt><dd>${account.marketPlan}</dd></dl>
${
  marketKeys.length === 0
    ? html`<p class="muted">No market keys yet. <a href="/console/keys">Create one</a>.</p>`
    : html`<div class="table-wrap"><table><caption class="muted">Units of each market key, against ${unitLimits.minute} a minute and ${count(unitLimits.day)} a day</caption>
<thead><tr><th scope="col">Key</th><th scope="col" class="num">This minute</th><th scope="col" class="num">Today</th></tr></thead><tbody>
${marketKeys.map((k) => html`<tr><td><code>${k.prefix}…</code></td><td class="num">${k.units.minute} / ${unitLimits.minute}</td><td class="num">${count(k.units.day)} / ${count(unitLimits.day)}</td></tr>`)}
</tbody></table></div>`
}`;
    return sendPage(
      reply,
      page({ title: 'Overview', current: '/console/overview', viewer, csrf: context.csrf, notice }, body),
    );
  });

  scope.post('/confirm/resend', async (request, reply) => {
    const { account } = await signedIn(deps, request, reply);
    if (!account.emailConfirmed) await sendConfirmation(deps, account);
    return reply.redirect('/console/overview?notice=confirmation-sent', 303);
  });

  scope.get('/activity', async (request, reply) => {
    const { context, viewer, account } = await signedIn(deps, request, reply);
    const body = activityTable(await listActivity(deps.store.db, account.id));
    return sendPage(
      reply,
      page({ title: 'Activity', current: '/console/activity', viewer, csrf: context.csrf }, body),
    );
  });
}

export function activityTable(entries: Awaited<ReturnType<typeof listActivity>>): Html {
  if (entries.length === 0)
    return html`<p class="muted">Nothing yet: key actions and plan changes are listed here.</p>`;
  return html`<div class="table-wrap"><table><thead><tr><th scope="col">When (UTC)</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Detail</th><th scope="col">From</th></tr></thead><tbody>
${entries.map((e) => html`<tr><td>${e.at.slice(0, 19).replace('T', ' ')}</td><td>${e.actor}</td><td>${e.action}</td><td>${e.detail}</td><td>${e.address ?? '—'}</td></tr>`)}
</tbody></table></div>`;
}

function planChoice(deps: Deps, status: string, csrf: string): Html {
  if (status === 'active') return html``;
  const prices = deps.config.stripePrices;
  const offered = (['basic', 'desk'] as const).filter((plan) => prices[plan] !== undefined);
  if (!deps.config.stripeSecretKey || offered.length === 0) {
    return html`<p class="muted">Plans are set by the operator of this service; ask them to activate one.</p>`;
  }
  return html`<form method="post" action="/console/checkout">${csrfField(csrf)}
<fieldset><legend>Choose a plan (payment by Stripe Checkout)</legend>
${offered.map((plan, i) => html`<div><input type="radio" id="plan-${plan}" name="plan" value="${plan}"${i === 0 ? html` checked` : ''}> <label class="inline" for="plan-${plan}">${plan}</label></div>`)}
<button type="submit">Continue to payment</button></fieldset></form>`;
}
