// Spec, stored-datasets API: Authentication and Errors tables, on each engine.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { confirmEmail, createAccount, setPlan } from '../../src/accounts/accounts.js';
import { createKey, revokeKey } from '../../src/accounts/keys.js';
import { bearer, type Customer, customer, ENGINES, type TestEnv, testEnv } from '../helpers/env.js';

for (const { engine, skip } of ENGINES) {
  // PostgreSQL rows run only where a server is reachable; the global setup prints why they were skipped.
  describe.skipIf(skip)(`authentication on ${engine}`, () => {
    let env: TestEnv;
    let user: Customer;
    beforeAll(async () => {
      env = await testEnv({ engine });
      user = await customer(env.deps);
    });
    afterAll(() => env.close());

    const get = (headers: Record<string, string>, url = '/v1/macro/cpi') =>
      env.app.inject({ method: 'GET', url, headers });

    /**
     * Runs `change`, moves the clock 1.001 s on (a key's account is held for at most a second) and returns the
     * next answer: a change must show on the first call after that, which is within the documented 2 seconds.
     */
    const afterASecond = async (key: string, change: () => Promise<unknown>) => {
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        expect((await get(bearer(key))).statusCode).toBe(200);
        await change();
        vi.setSystemTime(Date.now() + 1001);
        return await get(bearer(key));
      } finally {
        vi.useRealTimers();
      }
    };

    it('200 with Authorization: Bearer', async () => {
      const res = await get(bearer(user.key));
      expect(res.statusCode).toBe(200);
    });

    it('200 with x-api-key', async () => {
      const res = await get({ 'x-api-key': user.key });
      expect(res.statusCode).toBe(200);
    });

    it('reads Authorization before x-api-key when both are sent', async () => {
      const good = await get({ ...bearer(user.key), 'x-api-key': 'gds_nonsense' });
      expect(good.statusCode).toBe(200);
      const bad = await get({ ...bearer('gds_nonsense'), 'x-api-key': user.key });
      expect(bad.statusCode).toBe(401);
      expect(bad.json().error).toBe('invalid_key');
    });

    it('401 missing_key when no key is sent', async () => {
      const res = await get({});
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ error: 'missing_key' });
      expect(res.json().requestId).toBe(res.headers['x-request-id']);
    });

    it('401 wrong_key for a svc_mcp_ key', async () => {
      const market = await createKey(env.deps, { accountId: user.accountId, api: 'market' });
      const res = await get(bearer(market.key));
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe('wrong_key');
    });

    it('401 wrong_key for a svc_news_ key', async () => {
      const news = await createKey(env.deps, { accountId: user.accountId, api: 'news' });
      const res = await get({ 'x-api-key': news.key });
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe('wrong_key');
    });

    it('401 wrong_key for svc_mcp_ text that is no key at all', async () => {
      const res = await get(bearer('svc_mcp_madeup'));
      expect(res.json().error).toBe('wrong_key');
    });

    it('401 invalid_key for other key text', async () => {
      for (const text of ['hello', 'sk_live_abc', 'gds_unknownunknownunknown']) {
        const res = await get(bearer(text));
        expect(res.statusCode).toBe(401);
        expect(res.json().error).toBe('invalid_key');
      }
    });

    it('402 plan_required for an account without a plan', async () => {
      const other = await customer(env.deps, { plan: 'none' });
      const res = await get(bearer(other.key));
      expect(res.statusCode).toBe(402);
      expect(res.json().error).toBe('plan_required');
    });

    it('402 plan_required when the plan has ended', async () => {
      const other = await customer(env.deps);
      await setPlan(env.deps, {
        accountId: other.accountId,
        plan: 'basic',
        endsAt: '2020-01-01T00:00:00.000Z',
      });
      const res = await get(bearer(other.key));
      expect(res.statusCode).toBe(402);
      expect(res.json().error).toBe('plan_required');
    });

    it('403 key_disabled while the email is not confirmed, usable once confirmed', async () => {
      const account = await createAccount(env.deps, {
        email: `unconfirmed-${engine}@example.com`,
        plan: 'basic',
      });
      const key = await createKey(env.deps, { accountId: account.id, api: 'datasets' });
      const before = await get(bearer(key.key));
      expect(before.statusCode).toBe(403);
      expect(before.json().error).toBe('key_disabled');
      await confirmEmail(env.deps, { accountId: account.id });
      await expect.poll(async () => (await get(bearer(key.key))).statusCode, { timeout: 2000 }).toBe(200);
    });

    it('401 invalid_key for a revoked key, within 2 seconds of the revocation', async () => {
      const other = await customer(env.deps);
      const res = await afterASecond(other.key, () => revokeKey(env.deps, { keyId: other.keyId }));
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe('invalid_key');
    });

    it('a plan change takes effect within 2 seconds', async () => {
      const other = await customer(env.deps);
      const res = await afterASecond(other.key, () =>
        setPlan(env.deps, { accountId: other.accountId, plan: 'none' }),
      );
      expect(res.json().error).toBe('plan_required');
    });

    it('a gds_ key of one account cannot be guessed from its display prefix', async () => {
      const res = await get(bearer(user.key.slice(0, 10)));
      expect(res.json().error).toBe('invalid_key');
    });
  });
}
