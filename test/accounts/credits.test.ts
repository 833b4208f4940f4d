// Spec, stored-datasets API: Credit call types, dataset route costs, Limits (credits, headers), on each engine.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setBalance, setContract, setPlan } from '../../src/accounts/accounts.js';
import { fixed } from '../../src/accounts/pricing.js';
import { bearer, type Customer, customer, ENGINES, type TestEnv, testEnv } from '../helpers/env.js';

const A = 'a'.repeat(40);

// Each keyed route with a valid call and the credits the spec's table prices it at. The store is empty, so
// the lookups of a contract, an award or a company answer 404 — calls that were made and are charged like
// any other.
const ROUTES: [string, string, number, number?][] = [
  ['cpi.board', '/v1/macro/cpi', 1],
  ['energy.inventories', '/v1/energy/inventories', 1],
  ['cot.board', '/v1/cftc/cot?report=disaggregated&traderClass=swap', 1],
  ['cot.contract', '/v1/cftc/cot/contracts/067651', 2, 404],
  ['awards.list', '/v1/awards?query=roads&limit=10', 4],
  ['awards.detail', `/v1/awards/${A}`, 10, 404],
  ['kpis.company', '/v1/kpis/AAPL?metric=revenue', 2, 404],
  ['kpis.company with from', '/v1/kpis/AAPL?from=2024-01-01', 4, 404],
  ['kpis.company with to', '/v1/kpis/AAPL?to=2024-01-01', 4, 404],
  ['guidance.company', '/v1/guidance/msft', 2, 404],
  ['guidance.company with from and to', '/v1/guidance/msft?from=2023-01-01&to=2024-01-01', 4, 404],
  ['exec-pay.list', '/v1/exec-pay/AAPL', 2, 404],
  ['exec-pay.year', '/v1/exec-pay/AAPL/2024', 10, 404],
  ['events.list', '/v1/events/AAPL?limit=5', 2, 404],
];

for (const { engine, skip } of ENGINES) {
  describe.skipIf(skip)(`credits on ${engine}`, () => {
    let env: TestEnv;
    // The clock the app reads: half past the minute of a day in the middle of a month, unless a test moves it.
    const START = new Date('2026-11-18T10:00:30.000Z');
    let now = START;
    beforeEach(() => {
      now = START;
    });
    beforeAll(async () => {
      env = await testEnv({
        engine,
        clock: () => now,
        extend(app) {
          // A keyed route whose handler fails, to see the refund of a server error end to end.
          app.get('/v1/test/fails', {
            config: {
              meta: {
                doc: 'none',
                operationId: 'test.fails',
                summary: 'fails',
                key: 'datasets',
                price: fixed('search', 2),
              },
            },
            handler: async () => {
              throw new Error('connection string postgres://secret@db/internal failed');
            },
          });
        },
      });
    });
    afterAll(() => env.close());

    const get = (user: Customer, url: string) =>
      env.app.inject({ method: 'GET', url, headers: bearer(user.key) });
    const account = async (user: Customer) => (await get(user, '/v1/datasets/account')).json();

    for (const [name, url, credits, status = 200] of ROUTES) {
      it(`${name} costs ${credits} credits`, async () => {
        const user = await customer(env.deps);
        const res = await get(user, url);
        expect(res.statusCode).toBe(status);
        expect(res.headers['x-credits-cost']).toBe(String(credits));
        expect(res.headers['x-credits-remaining']).toBe(String(1_000_000 - credits));
        expect(res.headers['x-plan']).toBe('desk');
        expect(res.headers['x-request-id']).toMatch(/^req_/);
        expect((await account(user)).credits).toMatchObject({
          charged: credits,
          balance: 1_000_000 - credits,
        });
      });
    }

    it('account and usage routes cost 0 and carry the credit headers', async () => {
      const user = await customer(env.deps);
      for (const url of ['/v1/datasets/account', '/v1/datasets/usage']) {
        const res = await get(user, url);
        expect(res.statusCode).toBe(200);
        expect(res.headers['x-credits-cost']).toBe('0');
        expect(res.headers['x-credits-remaining']).toBe('1000000');
        expect(res.headers['x-plan']).toBe('desk');
      }
    });

    it('402 insufficient_credits when the balance is short, never below zero', async () => {
      const user = await customer(env.deps);
      await setBalance(env.deps, { accountId: user.accountId, balance: 5 });
      expect((await get(user, '/v1/awards')).statusCode).toBe(200);
      const refused = await get(user, '/v1/awards');
      expect(refused.statusCode).toBe(402);
      expect(refused.json().error).toBe('insufficient_credits');
      expect(refused.headers['x-credits-cost']).toBe('0');
      expect(refused.headers['x-credits-remaining']).toBe('1');
      expect((await get(user, '/v1/macro/cpi')).statusCode).toBe(200);
      expect((await get(user, '/v1/macro/cpi')).statusCode).toBe(402);
      expect((await account(user)).credits.balance).toBe(0);
    });

    it('error responses carry the credit headers too', async () => {
      const user = await customer(env.deps);
      const res = await get(user, '/v1/awards?limit=0');
      expect(res.statusCode).toBe(400);
      expect(res.headers).toMatchObject({
        'x-credits-cost': '0',
        'x-credits-remaining': '1000000',
        'x-plan': 'desk',
      });
      const anonymous = await env.app.inject({ method: 'GET', url: '/v1/awards' });
      expect(anonymous.headers['x-credits-cost']).toBe('0');
      expect(anonymous.headers['x-request-id']).toBe(anonymous.json().requestId);
    });

    it('an invalid call is not charged', async () => {
      const user = await customer(env.deps);
      for (const url of [
        '/v1/awards?limit=201',
        '/v1/awards?bogus=1',
        '/v1/kpis/AAPL?from=2024-02-01&to=2024-01-01',
      ]) {
        expect((await get(user, url)).statusCode).toBe(400);
      }
      expect((await account(user)).credits.charged).toBe(0);
    });

    it('429 rate_limited past the plan credits per minute, with Retry-After and RateLimit headers', async () => {
      const user = await customer(env.deps);
      await setPlan(env.deps, { accountId: user.accountId, plan: 'enterprise' });
      await setContract(env.deps, {
        accountId: user.accountId,
        change: { creditsPerMonth: 1000, creditsPerMinute: 20 },
      });
      // 20 credits a minute admit exactly two 10-credit calls in the minute 10:00; the award does not exist, so
      // each answers 404, charged like any answered call.
      const first = await get(user, `/v1/awards/${A}`);
      expect(first.statusCode).toBe(404);
      expect(first.headers.ratelimit).toBe('"credits";r=10;t=30');
      expect((await get(user, `/v1/awards/${A}`)).statusCode).toBe(404);
      now = new Date('2026-11-18T10:00:59.000Z');
      const limited = await get(user, `/v1/awards/${A}`);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error).toBe('rate_limited');
      expect(limited.headers['retry-after']).toBe('1');
      expect(limited.headers['ratelimit-policy']).toBe('"credits";q=20;w=60');
      expect(limited.headers.ratelimit).toBe('"credits";r=0;t=1');
      expect(limited.headers['x-credits-cost']).toBe('0');
      expect((await account(user)).credits).toMatchObject({ charged: 20, balance: 980 });
      // The next minute admits two more.
      now = new Date('2026-11-18T10:01:00.000Z');
      expect((await get(user, `/v1/awards/${A}`)).statusCode).toBe(404);
      expect((await get(user, `/v1/awards/${A}`)).statusCode).toBe(404);
      expect((await get(user, `/v1/awards/${A}`)).statusCode).toBe(429);
      expect((await account(user)).credits).toMatchObject({ charged: 40, balance: 960 });
    });

    it('a call that fails with a server error is refunded and leaks nothing', async () => {
      const user = await customer(env.deps);
      const res = await get(user, '/v1/test/fails');
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({
        error: 'internal_error',
        message: expect.any(String),
        requestId: res.headers['x-request-id'],
      });
      expect(res.body).not.toMatch(/secret|postgres|at .*\.ts|Error:/);
      expect(res.headers['x-credits-cost']).toBe('0');
      expect(res.headers['x-credits-remaining']).toBe('1000000');
      const after = await account(user);
      expect(after.credits).toMatchObject({ charged: 4, refunded: 4, balance: 1_000_000 });
      const rows = await env.deps.store.db
        .selectFrom('ledger')
        .select(['kind', 'amount'])
        .where('account_id', '=', user.accountId)
        .where('kind', 'in', ['charge', 'refund'])
        .orderBy('id')
        .execute();
      expect(rows.map((r) => [r.kind, Number(r.amount)])).toEqual([
        ['charge', -4],
        ['refund', 4],
      ]);
    });

    it('concurrent calls never take the balance below zero, and each charge is one ledger row', async () => {
      const user = await customer(env.deps);
      await setBalance(env.deps, { accountId: user.accountId, balance: 40 });
      const results = await Promise.all(Array.from({ length: 30 }, () => get(user, '/v1/awards')));
      const codes = results.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 200)).toHaveLength(10);
      expect(codes.filter((c) => c === 402)).toHaveLength(20);
      const charges = await env.deps.store.db
        .selectFrom('ledger')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('account_id', '=', user.accountId)
        .where('kind', '=', 'charge')
        .executeTakeFirstOrThrow();
      expect(Number(charges.n)).toBe(10);
      expect((await account(user)).credits.balance).toBe(0);
    });

    it('charges taken together write one ledger row each, with the balance after it, per account in arrival order', async () => {
      const [first, second] = [await customer(env.deps), await customer(env.deps)];
      // A call each (their keys are then known), six calls on one account (groups of one account), then six
      // alternating between the two (groups of both).
      for (const user of [first, second]) await get(user, '/v1/awards');
      await Promise.all(Array.from({ length: 6 }, () => get(first, '/v1/awards')));
      await Promise.all(Array.from({ length: 6 }, (_, i) => get(i % 2 ? second : first, '/v1/awards')));
      for (const [user, calls] of [
        [first, 10],
        [second, 4],
      ] as const) {
        const rows = await env.deps.store.db
          .selectFrom('ledger')
          .select(['amount', 'balance_after'])
          .where('account_id', '=', user.accountId)
          .where('kind', '=', 'charge')
          .orderBy('id')
          .execute();
        expect(rows.map((r) => [Number(r.amount), Number(r.balance_after)])).toEqual(
          Array.from({ length: calls }, (_, i) => [-4, 1_000_000 - 4 * (i + 1)]),
        );
        expect((await account(user)).credits).toMatchObject({
          charged: 4 * calls,
          balance: 1_000_000 - 4 * calls,
        });
      }
    });

    it('a charge after the period has ended opens the next period with the plan credits and is taken there', async () => {
      const user = await customer(env.deps);
      {
        now = new Date('2031-05-20T10:00:00Z');
        expect((await get(user, '/v1/awards')).headers['x-credits-remaining']).toBe(String(1_000_000 - 4));
        now = new Date('2031-06-02T10:00:00Z');
        // Several charges at once: the first group finds the period ended, opens June, charges there.
        const results = await Promise.all([1, 2, 3].map(() => get(user, '/v1/awards')));
        expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
        const view = await account(user);
        expect(view.period).toEqual({ start: '2031-06-01T00:00:00.000Z', end: '2031-07-01T00:00:00.000Z' });
        expect(view.credits).toMatchObject({ allowance: 1_000_000, charged: 12, balance: 1_000_000 - 12 });
        const ledger = await env.deps.store.db
          .selectFrom('ledger')
          .select(['kind', 'amount', 'period_start'])
          .where('account_id', '=', user.accountId)
          .where('period_start', '=', '2031-06-01T00:00:00.000Z')
          .orderBy('id')
          .execute();
        expect(ledger.map((r) => [r.kind, Number(r.amount)])).toEqual([
          ['grant', 1_000_000],
          ['charge', -4],
          ['charge', -4],
          ['charge', -4],
        ]);
      }
    });

    it('usage counts calls and credits by dataset and call type', async () => {
      const user = await customer(env.deps);
      await get(user, '/v1/awards');
      await get(user, '/v1/awards');
      await get(user, '/v1/kpis/AAPL?from=2024-01-01');
      await get(user, '/v1/kpis/AAPL');
      await env.deps.usage.flush();
      const usage = (await get(user, '/v1/datasets/usage')).json();
      expect(usage.totals).toEqual({ calls: 4, credits: 14 });
      expect(usage.datasets).toEqual([
        {
          dataset: 'awards',
          calls: 2,
          credits: 8,
          callTypes: [{ callType: 'search', calls: 2, credits: 8 }],
        },
        {
          dataset: 'kpis-guidance',
          calls: 2,
          credits: 6,
          callTypes: [
            { callType: 'history', calls: 1, credits: 4 },
            { callType: 'lookup', calls: 1, credits: 2 },
          ],
        },
      ]);
    });
  });
}
