// Spec, stored-datasets API: Plans table and the key rows of the Limits table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setContract, setPlan } from '../../src/accounts/accounts.js';
import { createKey, revokeKey } from '../../src/accounts/keys.js';
import { planLimits } from '../../src/accounts/plans.js';
import { AppError } from '../../src/kernel/errors.js';
import { bearer, customer, type TestEnv, testEnv } from '../helpers/env.js';

const NO_CONTRACT = { creditsPerMonth: null, creditsPerMinute: null, maxKeys: null };

describe('plans', () => {
  it('none: 0 credits per month, 0 per minute, 0 keys', () => {
    expect(planLimits('none', NO_CONTRACT)).toEqual({ creditsPerMonth: 0, creditsPerMinute: 0, maxKeys: 0 });
  });
  it('basic: 150000 credits per month, 300 per minute, 5 keys', () => {
    expect(planLimits('basic', NO_CONTRACT)).toEqual({
      creditsPerMonth: 150000,
      creditsPerMinute: 300,
      maxKeys: 5,
    });
  });
  it('desk: 1000000 credits per month, 1200 per minute, 20 keys', () => {
    expect(planLimits('desk', NO_CONTRACT)).toEqual({
      creditsPerMonth: 1000000,
      creditsPerMinute: 1200,
      maxKeys: 20,
    });
  });
  it('enterprise: by contract, 6000 per minute and 100 keys until a contract sets them', () => {
    expect(planLimits('enterprise', NO_CONTRACT)).toMatchObject({ creditsPerMinute: 6000, maxKeys: 100 });
    expect(
      planLimits('enterprise', { creditsPerMonth: 5_000_000, creditsPerMinute: 9000, maxKeys: 250 }),
    ).toEqual({
      creditsPerMonth: 5_000_000,
      creditsPerMinute: 9000,
      maxKeys: 250,
    });
  });

  describe('on the account route', () => {
    let env: TestEnv;
    beforeAll(async () => {
      env = await testEnv();
    });
    afterAll(() => env.close());

    const account = async (key: string) =>
      (await env.app.inject({ method: 'GET', url: '/v1/datasets/account', headers: bearer(key) })).json();

    for (const [plan, perMonth, perMinute, keys] of [
      ['basic', 150000, 300, 5],
      ['desk', 1000000, 1200, 20],
    ] as const) {
      it(`a ${plan} account is granted ${perMonth} credits for its period`, async () => {
        const user = await customer(env.deps, { plan });
        const view = await account(user.key);
        expect(view.plan).toBe(plan);
        expect(view.limits).toEqual({
          creditsPerMonth: perMonth,
          creditsPerMinute: perMinute,
          maxKeys: keys,
        });
        expect(view.credits).toEqual({
          allowance: perMonth,
          charged: 0,
          refunded: 0,
          adjusted: 0,
          balance: perMonth,
        });
        expect(view.keys).toEqual({ used: 1, allowed: keys });
        expect(Date.parse(view.period.end)).toBeGreaterThan(Date.parse(view.period.start));
        expect(view.period.end).toMatch(/-01T00:00:00\.000Z$/);
      });
    }

    it('an enterprise contract sets the monthly credits, rate and keys', async () => {
      const user = await customer(env.deps);
      await setPlan(env.deps, { accountId: user.accountId, plan: 'enterprise' });
      await setContract(env.deps, {
        accountId: user.accountId,
        change: { creditsPerMonth: 3_000_000, maxKeys: 150 },
      });
      // The account view is read from the store at each call: the contract shows at once.
      const view = await account(user.key);
      expect(view.limits).toEqual({ creditsPerMonth: 3_000_000, creditsPerMinute: 6000, maxKeys: 150 });
      expect(view.credits.balance).toBe(3_000_000);
    });

    it('basic allows 5 keys: the sixth is refused until one is revoked', async () => {
      const user = await customer(env.deps, { plan: 'basic' });
      const made = [];
      for (let i = 0; i < 4; i += 1)
        made.push(await createKey(env.deps, { accountId: user.accountId, api: 'datasets' }));
      await expect(createKey(env.deps, { accountId: user.accountId, api: 'datasets' })).rejects.toMatchObject(
        {
          code: 'key_limit_reached',
        },
      );
      await revokeKey(env.deps, { keyId: made[0]?.id as string });
      await expect(
        createKey(env.deps, { accountId: user.accountId, api: 'datasets' }),
      ).resolves.toMatchObject({
        api: 'datasets',
      });
    });

    it('creating a key without a plan is refused with plan_required (402)', async () => {
      const user = await customer(env.deps, { plan: 'none' });
      const error = await createKey(env.deps, { accountId: user.accountId, api: 'datasets' }).catch((e) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: 'plan_required', status: 402 });
    });

    it('a key carries at least 128 random bits and only its hash is stored', async () => {
      const user = await customer(env.deps);
      const key = await createKey(env.deps, { accountId: user.accountId, api: 'datasets' });
      const secret = key.key.slice('gds_'.length);
      expect(secret).toMatch(/^[A-Za-z0-9]+$/);
      expect(secret.length * Math.log2(62)).toBeGreaterThanOrEqual(128);
      const row = await env.deps.store.db
        .selectFrom('api_keys')
        .selectAll()
        .where('id', '=', key.id)
        .executeTakeFirstOrThrow();
      expect(JSON.stringify(row)).not.toContain(secret);
      expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(key.key.startsWith(row.prefix)).toBe(true);
      expect(row.prefix.length).toBeLessThan(12);
    });

    it('market keys carry their access; the default is market-data', async () => {
      const user = await customer(env.deps);
      expect(await createKey(env.deps, { accountId: user.accountId, api: 'market' })).toMatchObject({
        access: 'market-data',
      });
      const full = await createKey(env.deps, { accountId: user.accountId, api: 'market', access: 'full' });
      expect(full.key.startsWith('svc_mcp_')).toBe(true);
      expect(full.access).toBe('full');
    });
  });
});
