// The core verbs without any transport: admission, credits, units, the market verbs and a dataset operation,
// each called as verb(deps, input) on a real store.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAccount, getAccount, setBalance, setPlan } from '../../src/accounts/accounts.js';
import { admit, cacheOf } from '../../src/accounts/admit.js';
import { createKey, revokeKey } from '../../src/accounts/keys.js';
import {
  CreditRefusal,
  chargeCredits,
  chargeUnits,
  refundCredits,
  UNITS_PER_MINUTE,
} from '../../src/accounts/metering.js';
import { price } from '../../src/accounts/pricing.js';
import { cotImporter } from '../../src/datasets/cot/import.js';
import { estimateCost, operationInput } from '../../src/datasets/estimate.js';
import { OPERATION_BY_ID } from '../../src/datasets/registry.js';
import { importFile } from '../../src/ingest/import.js';
import { loadFile } from '../../src/ingest/run.js';
import { AppError } from '../../src/kernel/errors.js';
import { searchFields } from '../../src/market/fields/fields.js';
import { HISTORY } from '../../src/market/history/index.js';
import { QUOTES } from '../../src/market/quotes/index.js';
import { SHORT_INTEREST } from '../../src/market/short-interest/index.js';
import { LOADERS } from '../../src/runtime/loaders.js';
import { type TestEnv, testEnv } from '../helpers/env.js';
import { asset } from '../helpers/real-data.js';

/** The code of what `run` throws (synchronously or not). */
async function refusal(run: () => unknown): Promise<string> {
  try {
    await run();
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  return 'admitted';
}

describe('verbs without a transport', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await testEnv();
    await importFile(env.deps, cotImporter, path.resolve('test/fixtures/cot-legacy-2025-03.ndjson'));
    const yahoo = LOADERS.yahoo as NonNullable<typeof LOADERS.yahoo>;
    const prices = LOADERS.prices as NonNullable<typeof LOADERS.prices>;
    await loadFile(env.deps, yahoo, path.resolve('test/fixtures/market/quote-AAPL.json'));
    await loadFile(env.deps, prices, path.resolve('test/fixtures/market/BARC.L.csv'), { ticker: 'BARC.L' });
    await loadFile(env.deps, yahoo, asset('market/quoteSummary-defaultKeyStatistics-AAPL.json'));
  });
  afterAll(() => env.close());

  const account = async (options: {
    plan?: 'none' | 'desk';
    confirmed?: boolean;
    market?: 'free' | 'paid';
  }) =>
    createAccount(env.deps, {
      email: `verbs-${Math.random().toString(36).slice(2)}@example.com`,
      plan: options.plan ?? 'desk',
      marketPlan: options.market ?? 'paid',
      emailConfirmed: options.confirmed ?? true,
    });

  describe('admit', () => {
    it('each door takes its keys and refuses the others with their codes', async () => {
      const { id } = await account({});
      const gds = (await createKey(env.deps, { accountId: id, api: 'datasets' })).key;
      const narrow = (await createKey(env.deps, { accountId: id, api: 'market' })).key;
      const full = (await createKey(env.deps, { accountId: id, api: 'market', access: 'full' })).key;
      const news = (await createKey(env.deps, { accountId: id, api: 'news' })).key;
      const cases: [string | null, 'datasets' | 'market' | 'mcp', string][] = [
        [null, 'datasets', 'missing_key'],
        [gds, 'datasets', 'admitted'],
        [narrow, 'datasets', 'wrong_key'],
        [news, 'datasets', 'wrong_key'],
        ['gds_notakeynotakeynotakey', 'datasets', 'invalid_key'],
        [narrow, 'market', 'admitted'],
        [full, 'market', 'key_too_broad'],
        [gds, 'market', 'wrong_key'],
        [news, 'market', 'wrong_key'],
        ['anything', 'market', 'invalid_key'],
        [narrow, 'mcp', 'admitted'],
        [full, 'mcp', 'admitted'],
        [gds, 'mcp', 'admitted'],
        [news, 'mcp', 'wrong_key'],
        [null, 'mcp', 'missing_key'],
      ];
      for (const [text, door, expected] of cases) {
        expect([text, door, await refusal(() => admit(env.deps, text, door))]).toEqual([
          text,
          door,
          expected,
        ]);
      }
    });

    it('a key text longer than any real key is refused without being looked up or held', async () => {
      const before = cacheOf(env.deps).size;
      for (let i = 0; i < 50; i += 1) {
        const long = `gds_${String(i).padStart(4, '0')}${'x'.repeat(15_000)}`;
        expect(await refusal(() => admit(env.deps, long, 'datasets'))).toBe('invalid_key');
      }
      expect(cacheOf(env.deps).size).toBe(before);
      // A real-length unknown key is looked up and held (for a second) like any other.
      expect(await refusal(() => admit(env.deps, `gds_${'y'.repeat(33)}`, 'datasets'))).toBe('invalid_key');
      expect(cacheOf(env.deps).size).toBe(before + 1);
    });

    it('revoked keys, unconfirmed emails, free market plans and ended plans are refused', async () => {
      const unconfirmed = await account({ confirmed: false });
      const free = await account({ market: 'free' });
      const revoked = await createKey(env.deps, { accountId: (await account({})).id, api: 'market' });
      await revokeKey(env.deps, { keyId: revoked.id });
      const key = async (id: string, api: 'datasets' | 'market') =>
        (await createKey(env.deps, { accountId: id, api })).key;
      expect(await refusal(async () => admit(env.deps, await key(unconfirmed.id, 'datasets'), 'mcp'))).toBe(
        'key_disabled',
      );
      expect(await refusal(async () => admit(env.deps, await key(unconfirmed.id, 'market'), 'market'))).toBe(
        'key_disabled',
      );
      expect(await refusal(async () => admit(env.deps, await key(free.id, 'market'), 'mcp'))).toBe(
        'plan_required',
      );
      expect(await refusal(() => admit(env.deps, revoked.key, 'mcp'))).toBe('invalid_key');
      // A key made while the plan ran stops when the plan ends.
      const ended = await account({});
      const gds = await key(ended.id, 'datasets');
      await setPlan(env.deps, { accountId: ended.id, plan: 'none' });
      expect(await refusal(() => admit(env.deps, gds, 'datasets'))).toBe('plan_required');
    });
  });

  describe('credits and units', () => {
    it('a charge is a receipt; a refund gives it back; a charge beyond the balance is refused with the balance', async () => {
      const { id } = await account({});
      const db = env.deps.store.db;
      const principal = await admit(
        env.deps,
        (await createKey(env.deps, { accountId: id, api: 'datasets' })).key,
        'datasets',
      );
      await setBalance(env.deps, { accountId: id, balance: 7 });
      const call = { principal, price: price('history', 2), operation: 'test.op', requestId: 'req_verbs' };
      const receipt = await chargeCredits(env.deps, call);
      expect(receipt).toMatchObject({ cost: 4, balance: 3, callType: 'history', rate: { limit: 1200 } });
      await expect(Promise.resolve().then(() => chargeCredits(env.deps, call))).rejects.toSatisfy(
        (error) =>
          error instanceof CreditRefusal &&
          error.code === 'insufficient_credits' &&
          error.standing.balance === 3,
      );
      expect(await refundCredits(env.deps, call, receipt as NonNullable<typeof receipt>)).toBe(7);
      expect(await getAccount(db, id)).toMatchObject({ charged: 4, refunded: 4, balance: 7 });
      expect(await chargeCredits(env.deps, { ...call, price: price('lookup', 0) })).toBeNull();
    });

    it(`units: exactly ${UNITS_PER_MINUTE} a minute per key, then rate_limited with the seconds to wait`, async () => {
      const { id } = await account({});
      const principal = await admit(
        env.deps,
        (await createKey(env.deps, { accountId: id, api: 'market' })).key,
        'market',
      );
      // All three charges fall in one minute: the clock stands 20 s into a minute while they are made.
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(new Date('2026-03-02T15:00:20.000Z'));
        const first = await chargeUnits(env.deps, principal, 119, 'market');
        expect(first.minute).toMatchObject({ limit: 120, remaining: 1 });
        expect((await chargeUnits(env.deps, principal, 1, 'market')).minute.remaining).toBe(0);
        const refused = await chargeUnits(env.deps, principal, 1, 'market').catch((error: AppError) => error);
        expect(refused).toBeInstanceOf(AppError);
        expect((refused as AppError).code).toBe('rate_limited');
        expect((refused as AppError).retryAfterSeconds).toBe(40);
      } finally {
        vi.useRealTimers();
      }
    });
  });

  describe('market verbs', () => {
    it('quotes: answered item by item, one bad ticker never fails the call', async () => {
      const answer = await QUOTES.run(env.deps, { tickers: ['AAPL', 'AAPL', 'ZZZZ.XX'] });
      expect(answer.items).toHaveLength(2);
      expect(answer.items[0]).toMatchObject({ status: 'ok', quote: { price: 244.6, currency: 'USD' } });
      expect(answer.items[1]).toMatchObject({ status: 'error', error: { code: 'not_found' } });
    });

    it('history reads its default window from the clock it is given', async () => {
      const clock = () => new Date('2023-09-01T12:00:00Z');
      const answer = await HISTORY.run({ ...env.deps, clock }, { tickers: ['BARC.L'], fields: ['PX_LAST'] });
      expect([answer.start, answer.end]).toEqual(['2022-09-01', '2023-09-01']);
    });

    it('short interest is stale once its settlement date is more than 35 days old', async () => {
      // AAPL settled 2025-01-31: 35 days later is 2025-03-07.
      const on = (date: string) =>
        SHORT_INTEREST.run(
          { ...env.deps, clock: () => new Date(`${date}T12:00:00Z`) },
          { tickers: ['AAPL'] },
        );
      expect((await on('2025-03-07')).items[0]?.shortInterest?.stale).toBe(false);
      expect((await on('2025-03-08')).items[0]?.shortInterest?.stale).toBe(true);
    });

    it('field search narrows by words, asset type and history', () => {
      expect(searchFields({ query: 'eps estimate' }).fields.map((f) => f.id)).toEqual([
        'epsEstimateCurrentYear',
        'epsEstimateNextYear',
      ]);
      expect(searchFields({ query: 'GICS' }).notServed.map((n) => n.name)).toEqual([
        'GICS_SECTOR_NAME',
        'GICS_INDUSTRY_NAME',
      ]);
    });
  });

  describe('dataset operations', () => {
    it('an operation reads from one object of arguments, validated and refined as its route', async () => {
      const op = OPERATION_BY_ID.get('cot.contract');
      if (!op) throw new Error('cot.contract is not registered');
      const answer = (await op.read(env.deps, operationInput(op, { contractCode: '088691' }))) as {
        data: { rows: { reportDate: string; openInterest: number }[] };
      };
      // The fixture's gold reports: open interest 489,270, 511,276 and 533,566.
      expect(answer.data.rows.map((r) => r.openInterest)).toEqual([489_270, 511_276, 533_566]);
      expect(await refusal(() => operationInput(op, { contractCode: '088691', traderClass: 'swap' }))).toBe(
        'invalid_params',
      );
      expect(estimateCost({ endpoint: 'cot.contract', contractCode: '088691' })).toMatchObject({
        path: '/v1/cftc/cot/contracts/088691',
        credits: 2,
      });
    });
  });
});
