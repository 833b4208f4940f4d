// Keys: the list, creating a datasets or market key (its text shown once), revoking with confirmation.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../../accounts/activity.js';
import { keysWithUse } from '../../accounts/console-views.js';
import { isMarketAccess } from '../../accounts/key-text.js';
import { type CreatedKey, createKey, revokeKey } from '../../accounts/keys.js';
import type { Deps } from '../../kernel/deps.js';
import { AppError } from '../../kernel/errors.js';
import { membersOf } from '../context.js';
import { csrfField, type Html, html, page } from './html.js';
import { addressOf, formOf, PageError, Redirect, sendPage, signedIn } from './plugin.js';

/** What the keys page shows above the list: a key just created, a warning, an error. */
type Shown = { created?: CreatedKey; warning?: string; error?: string; status?: number };

/** The keys page: the account's keys with their use, and the forms that create them. */
async function keysPage(deps: Deps, request: FastifyRequest, reply: FastifyReply, shown: Shown = {}) {
  const { context, viewer, account } = await signedIn(deps, request, reply);
  const keys = await keysWithUse(deps, account.id);
  const revoked = String(membersOf(request.query).revoked ?? '');
  const notice = /^[A-Za-z0-9_]{1,20}$/.test(revoked)
    ? `Key ${revoked}… is revoked; calls with it are refused within two seconds.`
    : null;
  return sendPage(
    reply,
    page(
      {
        title: 'Keys',
        current: '/console/keys',
        viewer,
        csrf: context.csrf,
        notice,
        error: shown.error ?? null,
      },
      keysBody(keys, context.csrf, shown),
    ),
    shown.status,
  );
}

function keysBody(keys: Awaited<ReturnType<typeof keysWithUse>>, csrf: string, shown: Shown): Html {
  return html`${shown.created ? createdKey(shown.created) : ''}${shown.warning ? html`<p class="warning" role="status">${shown.warning}</p>` : ''}
<h2>Your keys</h2>
${
  keys.length === 0
    ? html`<p class="muted">No keys yet.</p>`
    : html`<div class="table-wrap"><table>
<thead><tr><th scope="col">Key</th><th scope="col">API</th><th scope="col">Access</th><th scope="col">Created (UTC)</th><th scope="col">Last used</th><th scope="col">Status</th></tr></thead><tbody>
${keys.map(
  (
    k,
  ) => html`<tr><td><code>${k.prefix}…</code></td><td>${k.api}</td><td>${k.access ?? '—'}</td><td>${k.createdAt.slice(0, 16).replace('T', ' ')}</td><td>${k.lastUsed ? k.lastUsed.slice(0, 16).replace('T', ' ') : 'never'}</td>
<td>${k.revokedAt ? html`revoked ${k.revokedAt.slice(0, 10)}` : html`active · <a href="/console/keys/${k.id}/revoke">Revoke<span class="visually-hidden"> ${k.prefix}</span></a>`}</td></tr>`,
)}
</tbody></table></div>`
}
<h2>Create a key</h2>
<form class="stack" method="post" action="/console/keys">${csrfField(csrf)}
<input type="hidden" name="api" value="datasets">
<p>A <strong>stored-datasets</strong> key (<code>gds_</code>) spends the plan's credits. It needs an active plan.</p>
<button type="submit">Create a datasets key</button></form>
<form class="stack" method="post" action="/console/keys">${csrfField(csrf)}
<input type="hidden" name="api" value="market">
<p>A <strong>market-data</strong> key (<code>svc_mcp_</code>) is counted in units.</p>
<div><label for="access">Access</label><select id="access" name="access">
<option value="market-data">market-data only: the market-data API and the MCP server</option>
<option value="full">full: the MCP server only</option></select></div>
<button type="submit">Create a market key</button></form>`;
}

export function registerKeyPages(scope: FastifyInstance, deps: Deps): void {
  scope.get('/keys', (request, reply) => keysPage(deps, request, reply));
  scope.post('/keys', (request, reply) => createKeyFromForm(deps, request, reply));
  registerRevokePages(scope, deps);
}

/** A key made from the page's form: the page again, with the new key shown once, or what stood in the way. */
async function createKeyFromForm(deps: Deps, request: FastifyRequest, reply: FastifyReply) {
  const { account } = await signedIn(deps, request, reply);
  const form = formOf(request.body);
  const api = form.api === 'market' ? 'market' : form.api === 'datasets' ? 'datasets' : null;
  if (!api) throw new PageError(400, 'Choose which API the key is for.');
  const access = isMarketAccess(form.access) ? form.access : null;
  if (api === 'market' && !access) {
    throw new PageError(400, 'Choose the market key access: market-data or full.');
  }
  try {
    const created = await createKey(deps, {
      accountId: account.id,
      api,
      ...(api === 'market' && access ? { access } : {}),
      actor: actorOf(account.email, request),
    });
    return keysPage(deps, request, reply, {
      created,
      ...(api === 'market' && account.marketPlan !== 'paid'
        ? {
            warning:
              'This account is on the free market-data plan: calls with this key are refused (402 plan_required) until a paid market-data plan is set. Ask the operator of this service for one.',
          }
        : {}),
    });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    // The owner is told what to do, not the operator's wording.
    const message =
      error.code === 'plan_required'
        ? 'A datasets key needs an active plan, and this account has none yet. Choose a plan on the Overview page (or ask the operator of this service for one), then create the key. A market-data key needs no datasets plan.'
        : error.message;
    return keysPage(deps, request, reply, { error: message, status: error.status });
  }
}

/** Revoking a key: asked, then done. */
function registerRevokePages(scope: FastifyInstance, deps: Deps): void {
  scope.get('/keys/:id/revoke', async (request, reply) => {
    const { context, viewer, account } = await signedIn(deps, request, reply);
    const id = String(membersOf(request.params).id);
    const key = (await keysWithUse(deps, account.id)).find((k) => k.id === id && k.revokedAt === null);
    if (!key) throw new PageError(404, 'There is no active key of yours with that id.');
    const body = html`<p>Revoke <code>${key.prefix}…</code> (${key.api})? Calls made with it are refused from then on. This cannot be undone.</p>
<form method="post" action="/console/keys/${key.id}/revoke">${csrfField(context.csrf)}<button class="danger" type="submit">Revoke the key</button> <a href="/console/keys">Keep it</a></form>`;
    return sendPage(
      reply,
      page({ title: 'Revoke a key', current: '/console/keys', viewer, csrf: context.csrf }, body),
    );
  });

  scope.post('/keys/:id/revoke', async (request, reply) => {
    const { account } = await signedIn(deps, request, reply);
    const id = String(membersOf(request.params).id);
    const key = await revokeKey(deps, {
      keyId: id,
      accountId: account.id,
      actor: actorOf(account.email, request),
    });
    throw new Redirect(`/console/keys?revoked=${encodeURIComponent(key.prefix)}`);
  });
}

export function actorOf(label: string, request: FastifyRequest): Actor {
  return { label, address: addressOf(request) };
}

function createdKey(key: CreatedKey): Html {
  return html`<section class="warning" aria-labelledby="new-key-title"><h2 id="new-key-title">Your new key</h2>
<p><strong>Copy it now: this is the only time it is shown.</strong> Quarry keeps only a hash; a lost key is revoked and replaced.</p>
<code class="key" id="new-key">${key.key}</code>
<p><button type="button" data-copy="new-key">Copy the key</button></p></section>`;
}
