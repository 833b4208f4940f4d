// Sending a customer to Stripe Checkout: the session Quarry asks for names the account and the plan, which
// the webhook reads back. A local server stands in for api.stripe.com (QUARRY_STRIPE_URL).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleClient } from '../../helpers/console.js';
import { type TestEnv, testEnv } from '../../helpers/env.js';

describe('Stripe Checkout from the overview', () => {
  let env: TestEnv;
  let stripe: Server;
  const seen: { path: string; auth: string; form: URLSearchParams }[] = [];

  beforeAll(async () => {
    stripe = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        seen.push({
          path: request.url ?? '',
          auth: request.headers.authorization ?? '',
          form: new URLSearchParams(body),
        });
        response.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_local' });
        response.end(
          JSON.stringify({
            id: 'cs_test_local1',
            object: 'checkout.session',
            mode: 'subscription',
            // Checkout's page as the stand-in names it: on itself, so no real host appears anywhere.
            url: `http://127.0.0.1:${(stripe.address() as AddressInfo).port}/c/pay/cs_test_local1`,
          }),
        );
      });
    });
    await new Promise<void>((resolve) => stripe.listen(0, '127.0.0.1', resolve));
    env = await testEnv({
      env: {
        STRIPE_SECRET_KEY: 'sk_test_local',
        STRIPE_PRICE_DESK: 'price_desk_local',
        QUARRY_STRIPE_URL: `http://127.0.0.1:${(stripe.address() as AddressInfo).port}`,
      },
    });
  });
  afterAll(async () => {
    await env.close();
    await new Promise((resolve) => stripe.close(resolve));
  });

  it('offers the configured plans, and Continue sends the browser to the Checkout session made for this account', async () => {
    const client = new ConsoleClient(env.app, '10.50.0.1');
    await client.signUpAndIn(env.dataDir, 'buyer@example.com', 'buying passphrase 1');
    const overview = await client.get('/console/overview');
    expect(overview.body).toContain('value="desk"');
    expect(overview.body).not.toContain('value="basic"');
    const answer = await client.post('/console/checkout', { plan: 'desk' });
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(
      `http://127.0.0.1:${(stripe.address() as AddressInfo).port}/c/pay/cs_test_local1`,
    );
    const account = await env.deps.store.db
      .selectFrom('accounts')
      .select('id')
      .where('email', '=', 'buyer@example.com')
      .executeTakeFirstOrThrow();
    const call = seen.at(-1);
    expect(call?.path).toBe('/v1/checkout/sessions');
    expect(call?.auth).toBe('Bearer sk_test_local');
    expect(call?.form.get('client_reference_id')).toBe(account.id);
    expect(call?.form.get('metadata[plan]')).toBe('desk');
    expect(call?.form.get('subscription_data[metadata][account_id]')).toBe(account.id);
    expect(call?.form.get('line_items[0][price]')).toBe('price_desk_local');
    expect(call?.form.get('mode')).toBe('subscription');
  });

  it('a plan without a configured price is refused', async () => {
    const client = new ConsoleClient(env.app, '10.50.0.2');
    await client.signUpAndIn(env.dataDir, 'cheap@example.com', 'buying passphrase 2');
    const before = seen.length;
    expect((await client.post('/console/checkout', { plan: 'basic' })).status).toBe(400);
    expect(seen.length).toBe(before);
  });
});
