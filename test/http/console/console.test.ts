// The account console over app.inject on a SQLite store: accounts, sessions, forms, keys, usage, activity,
// the operator view, and plans from Stripe events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, getAccount, setAdmin, setPlan } from '../../../src/accounts/accounts.js';
import { createKey } from '../../../src/accounts/keys.js';
import { ConsoleClient, lastLink, outbox, signedEvent } from '../../helpers/console.js';
import { bearer, type TestEnv, testEnv } from '../../helpers/env.js';

const PASSWORD = 'a long passphrase 1';
const SECRET = 'whsec_console_test_secret';
let now = new Date('2026-11-24T10:00:00Z');
let env: TestEnv;
let n = 0;
function email(what: string): string {
  n += 1;
  return `${what}-${n}@example.com`;
}

beforeAll(async () => {
  env = await testEnv({ clock: () => now, env: { STRIPE_WEBHOOK_SECRET: SECRET } });
});
afterAll(() => env.close());

/** Each signs up from an address of its own: sign-ups count against a per-address mail limit. */
async function signedInClient(what: string, address = `172.16.${n % 250}.${Math.floor(n / 250) + 1}`) {
  const client = new ConsoleClient(env.app, address);
  const address_ = email(what);
  await client.signUpAndIn(env.dataDir, address_, PASSWORD);
  const account = (
    await env.deps.store.db
      .selectFrom('accounts')
      .select('id')
      .where('email', '=', address_)
      .executeTakeFirstOrThrow()
  ).id;
  return { client, email: address_, accountId: account };
}

describe('sign-up, confirmation, sign-in', () => {
  it('a new account is unconfirmed until the mailed link is followed; its password is stored only as a scrypt hash', async () => {
    const client = new ConsoleClient(env.app);
    const address = email('new');
    await client.get('/console/sign-up');
    const made = await client.post('/console/sign-up', { email: address, password: PASSWORD });
    expect(made.status).toBe(200);
    expect(made.body).toContain('Check your mail');
    const row = await env.deps.store.db
      .selectFrom('accounts')
      .selectAll()
      .where('email', '=', address)
      .executeTakeFirstOrThrow();
    expect(row.email_confirmed).toBe(0);
    expect(row.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(row.password_hash).not.toContain(PASSWORD);

    const link = lastLink(env.dataDir, address, 'confirm');
    expect((await client.get(link)).body).toContain('is confirmed');
    expect((await getAccount(env.deps.store.db, row.id)).emailConfirmed).toBe(true);
  });

  it('signing up with an address that has an account answers the same and mails the owner, creating nothing', async () => {
    const { email: taken } = await signedInClient('taken');
    const other = new ConsoleClient(env.app, '10.0.0.9');
    await other.get('/console/sign-up');
    const answer = await other.post('/console/sign-up', { email: taken, password: 'another password 2' });
    expect(answer.body).toContain('Check your mail');
    expect(outbox(env.dataDir, taken).at(-1)).toContain('already has a Quarry account');
    const rows = await env.deps.store.db
      .selectFrom('accounts')
      .select('id')
      .where('email', '=', taken)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('a short password is refused with the reason and no account is made', async () => {
    const client = new ConsoleClient(env.app);
    const address = email('short');
    await client.get('/console/sign-up');
    const answer = await client.post('/console/sign-up', { email: address, password: 'short' });
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('at least 10 characters');
    expect(
      await env.deps.store.db
        .selectFrom('accounts')
        .select('id')
        .where('email', '=', address)
        .executeTakeFirst(),
    ).toBeUndefined();
  });

  it('an altered or expired confirmation link is refused', async () => {
    const client = new ConsoleClient(env.app);
    const address = email('link');
    await client.get('/console/sign-up');
    await client.post('/console/sign-up', { email: address, password: PASSWORD });
    const link = lastLink(env.dataDir, address, 'confirm');
    // One character of the signature changed (to another character, whatever the link's own is).
    const altered = `${link.slice(0, -3)}${link.at(-3) === 'A' ? 'B' : 'A'}${link.slice(-2)}`;
    expect((await client.get(altered)).status).toBe(400);
    const saved = now;
    now = new Date(now.getTime() + 49 * 3_600_000);
    const expired = await client.get(link);
    now = saved;
    expect(expired.status).toBe(400);
    expect(expired.body).toContain('expired');
  });

  it('a wrong password is refused with 401 and no session cookie', async () => {
    const { email: address } = await signedInClient('wrong');
    const client = new ConsoleClient(env.app, '10.0.1.1');
    const answer = await client.signIn(address, 'not the password');
    expect(answer.status).toBe(401);
    expect(client.cookies.has('quarry_session')).toBe(false);
  });

  it('a password reset by mailed link works once, and ends the sessions open before it', async () => {
    const { client, email: address } = await signedInClient('reset');
    const other = new ConsoleClient(env.app, '10.0.2.2');
    await other.get('/console/reset');
    await other.post('/console/reset', { email: address });
    const link = lastLink(env.dataDir, address, 'reset/new');
    const form = await other.get(link);
    expect(form.body).toContain('Choose a new password');
    const token = new URLSearchParams(link.split('?')[1]).get('token') as string;
    const set = await other.post('/console/reset/new', { token, password: 'a brand new passphrase' });
    expect(set.location).toBe('/console/sign-in?notice=password-set');
    expect(
      (await other.post('/console/reset/new', { token, password: 'yet another passphrase' })).status,
    ).toBe(400);
    expect((await client.get('/console/overview')).location).toBe('/console/sign-in');
    expect((await other.signIn(address, 'a brand new passphrase')).location).toBe('/console/overview');
  });

  it('an account made by the CLI sets its first password by reset link', async () => {
    const account = await createAccount(env.deps, {
      email: email('cli'),
      plan: 'basic',
      emailConfirmed: true,
    });
    const client = new ConsoleClient(env.app, '10.0.3.3');
    expect((await client.signIn(account.email, PASSWORD)).status).toBe(401);
    await client.get('/console/reset');
    await client.post('/console/reset', { email: account.email });
    const token = new URLSearchParams(lastLink(env.dataDir, account.email, 'reset/new').split('?')[1]).get(
      'token',
    ) as string;
    await client.get('/console/reset');
    await client.post('/console/reset/new', { token, password: PASSWORD });
    expect((await client.signIn(account.email, PASSWORD)).location).toBe('/console/overview');
  });
});

describe('sessions and forms', () => {
  it('a form without its token, or with a wrong one, is refused with 403 and changes nothing', async () => {
    const client = new ConsoleClient(env.app);
    const address = email('csrf');
    await client.get('/console/sign-up');
    expect(
      (await client.post('/console/sign-up', { email: address, password: PASSWORD, _csrf: '' })).status,
    ).toBe(403);
    expect(
      (await client.post('/console/sign-up', { email: address, password: PASSWORD, _csrf: 'x'.repeat(43) }))
        .status,
    ).toBe(403);
    expect(
      await env.deps.store.db
        .selectFrom('accounts')
        .select('id')
        .where('email', '=', address)
        .executeTakeFirst(),
    ).toBeUndefined();

    const { client: owner, accountId } = await signedInClient('csrf-keys');
    await setPlan(env.deps, { accountId, plan: 'basic' });
    await owner.get('/console/keys');
    const forged = await owner.post('/console/keys', { api: 'datasets', _csrf: client.csrf });
    expect(forged.status).toBe(403);
    expect(
      await env.deps.store.db
        .selectFrom('api_keys')
        .select('id')
        .where('account_id', '=', accountId)
        .execute(),
    ).toHaveLength(0);
  });

  it('session fixation: a session cookie set before sign-in is replaced by a new one, and never becomes valid', async () => {
    const { email: address } = await signedInClient('fixation');
    const client = new ConsoleClient(env.app, '10.0.4.4');
    const planted = 'p'.repeat(43);
    client.cookies.set('quarry_session', planted);
    await client.signIn(address, PASSWORD);
    const issued = client.cookies.get('quarry_session');
    expect(issued).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(issued).not.toBe(planted);
    const attacker = new ConsoleClient(env.app, '10.0.4.5');
    attacker.cookies.set('quarry_session', planted);
    expect((await attacker.get('/console/overview')).location).toBe('/console/sign-in');
  });

  it('the session cookie is HttpOnly and SameSite, and a session ends after 12 hours', async () => {
    const { email: address } = await signedInClient('expiry');
    const client = new ConsoleClient(env.app, '10.0.5.5');
    const answer = await client.signIn(address, PASSWORD);
    const cookie = ([] as string[])
      .concat(answer.headers['set-cookie'] as string)
      .find((c) => c.startsWith('quarry_session='));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/);
    expect((await client.get('/console/overview')).status).toBe(200);
    const saved = now;
    now = new Date(now.getTime() + 12 * 3_600_000 + 1000);
    const later = await client.get('/console/overview');
    now = saved;
    expect(later.location).toBe('/console/sign-in');
  });

  it('signing out ends the session on the server, not just in the browser', async () => {
    const { client } = await signedInClient('signout');
    const token = client.cookies.get('quarry_session') as string;
    await client.get('/console/overview');
    expect((await client.post('/console/sign-out')).location).toBe('/console/sign-in?notice=signed-out');
    const replay = new ConsoleClient(env.app);
    replay.cookies.set('quarry_session', token);
    expect((await replay.get('/console/overview')).location).toBe('/console/sign-in');
  });

  it('brute force: the 11th sign-in attempt on one account in 15 minutes is refused, even with the right password', async () => {
    const { email: address } = await signedInClient('brute');
    for (let i = 0; i < 9; i += 1) {
      const client = new ConsoleClient(env.app, `10.1.0.${i + 1}`);
      expect((await client.signIn(address, `guess number ${i}`)).status).toBe(401);
    }
    const client = new ConsoleClient(env.app, '10.1.1.1');
    const refused = await client.signIn(address, PASSWORD);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.body).toContain('Too many sign-in attempts');
    expect(client.cookies.has('quarry_session')).toBe(false);
  });

  it('brute force: one address trying many accounts is refused after 50 attempts', async () => {
    const client = new ConsoleClient(env.app, '10.2.0.1');
    let status = 0;
    for (let i = 0; i < 51; i += 1)
      status = (await client.signIn(`nobody-${i}@example.com`, 'a guess at it')).status;
    expect(status).toBe(429);
  });

  it('the console pages send a strict content security policy and are never cached', async () => {
    const answer = await new ConsoleClient(env.app).get('/console/sign-in');
    expect(answer.headers['content-security-policy']).toContain("script-src 'self'");
    expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(answer.headers['cache-control']).toBe('no-store');
  });
});

describe('keys', () => {
  it('a datasets key is refused with the reason without a plan; a market key needs none', async () => {
    const { client, accountId } = await signedInClient('noplan');
    await client.get('/console/keys');
    const refused = await client.post('/console/keys', { api: 'datasets' });
    expect(refused.status).toBe(402);
    // Told as the owner needs it: what is missing and where to get it, not the operator's account id.
    expect(refused.body).toContain(
      'A datasets key needs an active plan, and this account has none yet. Choose a plan on the Overview page',
    );
    expect(refused.body).not.toContain(accountId);
    const market = await client.post('/console/keys', { api: 'market', access: 'market-data' });
    expect(market.status).toBe(200);
    expect(market.body).toMatch(/<code class="key" id="new-key">svc_mcp_[A-Za-z0-9]{33}<\/code>/);
    // On the free market-data plan the new key would be refused: the page says so at once.
    expect(market.body).toContain(
      'This account is on the free market-data plan: calls with this key are refused (402 plan_required)',
    );
    const keys = await env.deps.store.db
      .selectFrom('api_keys')
      .selectAll()
      .where('account_id', '=', accountId)
      .execute();
    expect(keys.map((k) => [k.api, k.access])).toEqual([['market', 'market-data']]);
  });

  it('the full key text is shown once, works, and is never shown again; only its hash is stored', async () => {
    const { client, accountId } = await signedInClient('once');
    await setPlan(env.deps, { accountId, plan: 'basic' });
    await client.get('/console/keys');
    const created = await client.post('/console/keys', { api: 'datasets' });
    const key = /id="new-key">(gds_[A-Za-z0-9]+)</.exec(created.body)?.[1] as string;
    expect(key).toMatch(/^gds_[A-Za-z0-9]{33}$/);
    expect(created.body).toContain('only time it is shown');
    expect((await client.get('/console/keys')).body).not.toContain(key);
    const stored = await env.deps.store.db
      .selectFrom('api_keys')
      .selectAll()
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(key.slice(4));
    const call = await env.app.inject({ url: '/v1/macro/cpi', headers: bearer(key) });
    expect(call.statusCode).toBe(200);
    const listed = (await client.get('/console/keys')).body;
    expect(listed).toMatch(
      new RegExp(
        `<code>${key.slice(0, 10)}…</code></td><td>datasets</td><td>—</td><td>2026-11-24 \\d\\d:\\d\\d</td><td>2026-11-24 \\d\\d:\\d\\d</td>`,
      ),
    );
  });

  it('an unconfirmed account can make keys that answer 403 key_disabled until the mailed link is followed', async () => {
    const client = new ConsoleClient(env.app, '10.3.0.1');
    const address = email('unconfirmed');
    await client.get('/console/sign-up');
    await client.post('/console/sign-up', { email: address, password: PASSWORD });
    expect((await client.signIn(address, PASSWORD)).location).toBe('/console/overview');
    expect((await client.get('/console/overview')).body).toContain('Confirm your email address');
    const { id } = await env.deps.store.db
      .selectFrom('accounts')
      .select('id')
      .where('email', '=', address)
      .executeTakeFirstOrThrow();
    await setPlan(env.deps, { accountId: id, plan: 'basic' });
    await client.get('/console/keys');
    const key = /id="new-key">(gds_[A-Za-z0-9]+)</.exec(
      (await client.post('/console/keys', { api: 'datasets' })).body,
    )?.[1] as string;
    const disabled = await env.app.inject({ url: '/v1/macro/cpi', headers: bearer(key) });
    expect([disabled.statusCode, disabled.json().error]).toEqual([403, 'key_disabled']);
    await client.get(lastLink(env.dataDir, address, 'confirm'));
    now = new Date(now.getTime() + 1500);
    expect((await env.app.inject({ url: '/v1/macro/cpi', headers: bearer(key) })).statusCode).toBe(200);
  });

  it('the plan key limit refuses one more key with the reason (basic: 5)', async () => {
    const { client, accountId } = await signedInClient('limit');
    await setPlan(env.deps, { accountId, plan: 'basic' });
    await client.get('/console/keys');
    for (let i = 0; i < 5; i += 1)
      expect((await client.post('/console/keys', { api: 'datasets' })).status).toBe(200);
    const sixth = await client.post('/console/keys', { api: 'datasets' });
    expect(sixth.status).toBe(403);
    expect(sixth.body).toContain('5 active datasets keys of the 5 allowed');
  });

  it("another account's key id cannot be revoked (404), and the key keeps working", async () => {
    const owner = await signedInClient('owner');
    await setPlan(env.deps, { accountId: owner.accountId, plan: 'basic' });
    const key = await createKey(env.deps, { accountId: owner.accountId, api: 'datasets' });
    const { client: intruder } = await signedInClient('intruder');
    expect((await intruder.get(`/console/keys/${key.id}/revoke`)).status).toBe(404);
    await intruder.get('/console/keys');
    expect((await intruder.post(`/console/keys/${key.id}/revoke`)).status).toBe(404);
    const row = await env.deps.store.db
      .selectFrom('api_keys')
      .select('revoked_at')
      .where('id', '=', key.id)
      .executeTakeFirstOrThrow();
    expect(row.revoked_at).toBeNull();
  });

  it('revoking asks first, then refuses the key; both actions are in the activity with who and from where', async () => {
    const { client, accountId, email: address } = await signedInClient('revoke', '192.0.2.44');
    await setPlan(env.deps, { accountId, plan: 'basic' });
    await client.get('/console/keys');
    const created = await client.post('/console/keys', { api: 'datasets' });
    const key = /id="new-key">(gds_[A-Za-z0-9]+)</.exec(created.body)?.[1] as string;
    const keyId = (
      await env.deps.store.db
        .selectFrom('api_keys')
        .select('id')
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow()
    ).id;
    const ask = await client.get(`/console/keys/${keyId}/revoke`);
    expect(ask.body).toContain('cannot be undone');
    const done = await client.post(`/console/keys/${keyId}/revoke`);
    expect(done.status).toBe(303);
    expect((await client.get(done.location as string)).body).toContain('is revoked');
    now = new Date(now.getTime() + 1500);
    const refused = await env.app.inject({ url: '/v1/macro/cpi', headers: bearer(key) });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error).toBe('invalid_key');
    const activity = (await client.get('/console/activity')).body;
    expect(activity).toMatch(
      new RegExp(
        `<td>${address.replace('.', '\\.')}</td><td>key created</td><td>${key.slice(0, 10)}… datasets</td><td>192\\.0\\.2\\.44</td>`,
      ),
    );
    expect(activity).toMatch(new RegExp(`<td>${address.replace('.', '\\.')}</td><td>key revoked</td>`));
  });
});

describe('overview and usage', () => {
  it('the overview shows plan, status, period, balance against allowance, per-minute limit and keys', async () => {
    const { client, accountId } = await signedInClient('overview');
    const before = (await client.get('/console/overview')).body;
    expect(before).toContain('<dt>Status</dt><dd>no plan');
    expect(before).toContain('Plans are set by the operator of this service');
    await setPlan(env.deps, { accountId, plan: 'desk' });
    await client.get('/console/keys');
    const key = /id="new-key">(gds_[A-Za-z0-9]+)</.exec(
      (await client.post('/console/keys', { api: 'datasets' })).body,
    )?.[1] as string;
    for (let i = 0; i < 3; i += 1) await env.app.inject({ url: '/v1/macro/cpi', headers: bearer(key) });
    const body = (await client.get('/console/overview')).body;
    expect(body).toContain('<dt>Plan</dt><dd>desk</dd>');
    expect(body).toContain('<dt>Status</dt><dd>active');
    expect(body).toContain('<dd>2026-11-24 to 2026-12-01');
    // desk: 1,000,000 credits a month, 1,200 a minute, 20 keys; three cpi.board calls at 1 credit each.
    expect(body).toContain('999,997 of 1,000,000 left');
    expect(body).toContain('<dt>Credits per minute</dt><dd>1,200</dd>');
    expect(body).toContain('1 of 20 in use');
  });

  it('the usage page and its CSV give credits by day and dataset, with call types, for the period', async () => {
    const { client, accountId } = await signedInClient('usage');
    await setPlan(env.deps, { accountId, plan: 'basic' });
    await client.get('/console/keys');
    const key = /id="new-key">(gds_[A-Za-z0-9]+)</.exec(
      (await client.post('/console/keys', { api: 'datasets' })).body,
    )?.[1] as string;
    for (let i = 0; i < 4; i += 1) await env.app.inject({ url: '/v1/macro/cpi', headers: bearer(key) });
    await env.app.inject({ url: '/v1/awards?query=roads', headers: bearer(key) });
    await env.deps.usage.flush();
    const page = (await client.get('/console/usage')).body;
    expect(page).toContain('<svg class="chart"');
    expect(page).toContain(
      '<td data-label="Day">2026-11-24</td><td class="num" data-label="awards">4</td><td class="num" data-label="cpi">4</td><td class="num" data-label="Total">8</td>',
    );
    expect(page).toContain(
      '<td data-label="Dataset">cpi</td><td data-label="Call type">lookup</td><td class="num" data-label="Calls">4</td><td class="num" data-label="Credits">4</td>',
    );
    expect(page).toContain(
      '<td data-label="Dataset">awards</td><td data-label="Call type">search</td><td class="num" data-label="Calls">1</td><td class="num" data-label="Credits">4</td>',
    );
    const csv = await client.get('/console/usage.csv');
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.body.trim().split('\r\n')).toEqual([
      'period_start,day,dataset,operation,calls,credits',
      expect.stringMatching(/^2026-11-24T.*,2026-11-24,awards,awards\.list,1,4$/),
      expect.stringMatching(/^2026-11-24T.*,2026-11-24,cpi,cpi\.board,4,4$/),
    ]);
  });

  it('market keys show their units this minute and today against 120 and 5,000', async () => {
    const { client, accountId } = await signedInClient('units');
    await env.deps.store.db
      .updateTable('accounts')
      .set({ market_plan: 'paid' })
      .where('id', '=', accountId)
      .execute();
    await client.get('/console/keys');
    const key = /id="new-key">(svc_mcp_[A-Za-z0-9]+)</.exec(
      (await client.post('/console/keys', { api: 'market', access: 'market-data' })).body,
    )?.[1] as string;
    // /v1/data with quote fields costs 1 unit per 20 tickers: three calls of two tickers are 3 units.
    for (let i = 0; i < 3; i += 1) {
      const fields = await env.app.inject({
        url: '/v1/data?tickers=AAPL,MSFT&fields=PX_LAST',
        headers: bearer(key),
      });
      expect(fields.headers['x-service-units']).toBe('1');
    }
    const body = (await client.get('/console/overview')).body;
    expect(body).toMatch(/<td class="num">3 \/ 120<\/td><td class="num">3 \/ 5,000<\/td>/);
    const keyId = (
      await env.deps.store.db
        .selectFrom('api_keys')
        .select('id')
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow()
    ).id;
    const prefix = (
      await env.deps.store.db
        .selectFrom('api_keys')
        .select('prefix')
        .where('id', '=', keyId)
        .executeTakeFirstOrThrow()
    ).prefix;
    expect(prefix).toMatch(/^svc_mcp_/);
    // The key as the Keys page names it, by the start of its text, never its internal id.
    const usage = (await client.get('/console/usage')).body;
    expect(usage).toContain(
      `<tr><td data-label="Day">2026-11-24</td><td data-label="Key"><code>${prefix}…</code></td><td data-label="Via">market</td><td class="num" data-label="Calls">3</td><td class="num" data-label="Units">3</td></tr>`,
    );
    expect(usage).not.toContain(keyId);
    // A paid plan gives no warning.
    const paid = await client.post('/console/keys', { api: 'market', access: 'market-data' });
    expect(paid.body).not.toContain('free market-data plan');
  });

  it('the previous period is named by its own start and end, to the second', async () => {
    const { client, accountId } = await signedInClient('periods');
    await setPlan(env.deps, { accountId, plan: 'basic' });
    const basicFrom = (await getAccount(env.deps.store.db, accountId)).periodStart;
    const was = now;
    try {
      now = new Date(now.getTime() + 20_000);
      await setPlan(env.deps, { accountId, plan: 'desk' });
      const deskFrom = (await getAccount(env.deps.store.db, accountId)).periodStart;
      const at = (iso: string) => iso.slice(0, 19).replace('T', ' ');
      expect(at(deskFrom)).not.toBe(at(basicFrom));
      const usage = (await client.get('/console/usage')).body;
      expect(usage).toContain(`Current period, from ${at(deskFrom)} UTC`);
      expect(usage).toContain(`Previous period, ${at(basicFrom)} to ${at(deskFrom)} UTC`);
    } finally {
      now = was;
    }
  });
});

describe('plans from Stripe events', () => {
  const post = (payload: string, signature: string) =>
    env.app.inject({
      method: 'POST',
      url: '/webhooks/stripe',
      payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    });
  const event = (id: string, type: string, object: object) => ({
    id,
    object: 'event',
    type,
    data: { object },
  });
  const grants = async (accountId: string) =>
    (
      await env.deps.store.db
        .selectFrom('ledger')
        .select('id')
        .where('account_id', '=', accountId)
        .where('kind', '=', 'grant')
        .execute()
    ).length;

  it('checkout.session.completed sets the plan named in its metadata on the account of client_reference_id, once per event id', async () => {
    const { accountId } = await signedInClient('checkout');
    const completed = event('evt_checkout_1', 'checkout.session.completed', {
      object: 'checkout.session',
      client_reference_id: accountId,
      customer: 'cus_A1',
      metadata: { plan: 'desk' },
    });
    const { payload, signature } = signedEvent(SECRET, completed);
    const first = await post(payload, signature);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true, outcome: 'applied' });
    const account = await getAccount(env.deps.store.db, accountId);
    expect([account.plan, account.allowance]).toEqual(['desk', 1_000_000]);
    const before = await grants(accountId);
    expect((await post(payload, signature)).json().outcome).toBe('duplicate');
    expect(await grants(accountId)).toBe(before);
  });

  it('a forged signature is refused with 400 and changes nothing', async () => {
    const { accountId } = await signedInClient('forged');
    const { payload } = signedEvent(
      SECRET,
      event('evt_forged', 'checkout.session.completed', {
        client_reference_id: accountId,
        metadata: { plan: 'desk' },
      }),
    );
    const { signature } = signedEvent('whsec_someone_else', JSON.parse(payload));
    const answer = await post(payload, signature);
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error).toBe('invalid_params');
    expect((await getAccount(env.deps.store.db, accountId)).plan).toBe('none');
    const tampered = signedEvent(
      SECRET,
      event('evt_tamper', 'checkout.session.completed', {
        client_reference_id: 'acct_x',
        metadata: { plan: 'basic' },
      }),
    );
    const swapped = tampered.payload.replace('acct_x', accountId);
    expect((await post(swapped, tampered.signature)).statusCode).toBe(400);
    expect((await getAccount(env.deps.store.db, accountId)).plan).toBe('none');
  });

  it('unknown event types are acknowledged and ignored; a missing signature header is a 400', async () => {
    const { payload, signature } = signedEvent(
      SECRET,
      event('evt_other', 'invoice.paid', { customer: 'cus_zz' }),
    );
    const answer = await post(payload, signature);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().outcome).toBe('ignored');
    const bare = await env.app.inject({
      method: 'POST',
      url: '/webhooks/stripe',
      payload,
      headers: { 'content-type': 'application/json' },
    });
    expect(bare.statusCode).toBe(400);
  });

  it('subscription updates find the account by customer, then by email; deletion ends the plan and keys get 402 plan_required', async () => {
    const { accountId, email: address } = await signedInClient('subscription');
    const byEmail = signedEvent(
      SECRET,
      event('evt_sub_1', 'checkout.session.completed', {
        customer: 'cus_B2',
        customer_details: { email: address.toUpperCase() },
        metadata: { plan: 'basic' },
      }),
    );
    expect((await post(byEmail.payload, byEmail.signature)).json().outcome).toBe('applied');
    expect((await getAccount(env.deps.store.db, accountId)).plan).toBe('basic');
    const key = await createKey(env.deps, { accountId, api: 'datasets' });
    const subscription = async (id: string, type: string, status: string) => {
      const object = { object: 'subscription', customer: 'cus_B2', status, metadata: { plan: 'desk' } };
      const { payload, signature } = signedEvent(SECRET, event(id, type, object));
      return (await post(payload, signature)).json().outcome;
    };
    expect(await subscription('evt_sub_2', 'customer.subscription.updated', 'active')).toBe('applied');
    expect((await getAccount(env.deps.store.db, accountId)).plan).toBe('desk');
    expect(await subscription('evt_sub_3', 'customer.subscription.deleted', 'canceled')).toBe('applied');
    now = new Date(now.getTime() + 1500);
    const call = await env.app.inject({ url: '/v1/macro/cpi', headers: bearer(key.key) });
    expect(call.statusCode).toBe(402);
    expect(call.json().error).toBe('plan_required');
    const activity = await env.deps.store.db
      .selectFrom('account_activity')
      .select(['actor', 'action'])
      .where('account_id', '=', accountId)
      .orderBy('id')
      .execute();
    expect(activity.filter((a) => a.actor === 'payment processor').map((a) => a.action)).toEqual([
      'plan set',
      'plan set',
      'plan ended',
    ]);
  });

  it('an event naming no known account is acknowledged as such and changes nothing', async () => {
    const { payload, signature } = signedEvent(
      SECRET,
      event('evt_nobody', 'checkout.session.completed', {
        client_reference_id: 'acct_missing',
        customer_details: { email: 'nobody@example.com' },
        metadata: { plan: 'desk' },
      }),
    );
    expect((await post(payload, signature)).json()).toEqual({ received: true, outcome: 'no account' });
  });
});

describe('operator view', () => {
  it('is refused to an account that is not an operator', async () => {
    const { client } = await signedInClient('plain');
    expect((await client.get('/console/admin')).status).toBe(403);
  });

  it('finds an account by email, sets its plan, adjusts its credits with a reason and revokes a key, each recorded', async () => {
    const target = await signedInClient('target');
    const key = await createKey(env.deps, {
      accountId: target.accountId,
      api: 'market',
      access: 'full',
    });
    const op = await signedInClient('operator', '198.51.100.7');
    await setAdmin(env.deps, { accountId: op.accountId, admin: true });
    const found = await op.client.get(`/console/admin?q=${encodeURIComponent(target.email)}`);
    expect(found.body).toContain(`/console/admin/accounts/${target.accountId}`);
    const base = `/console/admin/accounts/${target.accountId}`;
    await op.client.get(base);
    expect((await op.client.post(`${base}/plan`, { plan: 'basic' })).status).toBe(303);
    expect(
      (await op.client.post(`${base}/credits`, { delta: '250', reason: 'goodwill for outage' })).status,
    ).toBe(303);
    expect((await op.client.post(`${base}/credits`, { delta: '-999999', reason: 'too much' })).status).toBe(
      400,
    );
    expect((await op.client.post(`${base}/keys/${key.id}/revoke`)).status).toBe(303);
    const account = await getAccount(env.deps.store.db, target.accountId);
    expect([account.plan, account.balance, account.adjusted]).toEqual(['basic', 150_250, 250]);
    const adjustment = await env.deps.store.db
      .selectFrom('ledger')
      .selectAll()
      .where('account_id', '=', target.accountId)
      .where('kind', '=', 'adjustment')
      .executeTakeFirstOrThrow();
    expect([Number(adjustment.amount), adjustment.reason]).toEqual([250, 'goodwill for outage']);
    const page = (await op.client.get(base)).body;
    expect(page).toContain(
      `<td>operator ${op.email}</td><td>credits adjusted</td><td>+250: goodwill for outage</td><td>198.51.100.7</td>`,
    );
    expect(page).toContain(`<td>operator ${op.email}</td><td>key revoked</td>`);
    expect(page).toContain(`<td>operator ${op.email}</td><td>plan set</td><td>basic</td>`);
  });
});

describe('outside the APIs', () => {
  it('neither OpenAPI document describes the console or the webhook', async () => {
    for (const url of ['/v1/datasets/openapi.json', '/v1/openapi.json']) {
      const doc = await env.app.inject({ url });
      expect(doc.statusCode).toBe(200);
      const paths = Object.keys(doc.json().paths);
      expect(paths.length).toBeGreaterThan(3);
      expect(paths.filter((p) => p.startsWith('/console') || p.startsWith('/webhooks'))).toEqual([]);
    }
  });

  it('an unknown console page is an HTML 404, not a stack trace', async () => {
    const answer = await new ConsoleClient(env.app).get('/console/nothing-here');
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
    expect(answer.body).toContain('There is no console page /console/nothing-here.');
  });

  it('a form body that is not a form is refused with 400 (or 415), never a 500', async () => {
    const client = new ConsoleClient(env.app);
    await client.get('/console/sign-in');
    const json = await env.app.inject({
      method: 'POST',
      url: '/console/sign-in',
      payload: '{"email":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect([400, 403, 415]).toContain(json.statusCode);
    const huge = await client.post('/console/sign-in', { email: 'x'.repeat(20_000), password: 'y' });
    expect(huge.status).toBe(413);
  });
});
