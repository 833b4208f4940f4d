// /v1/quotes on stored data: every ticker form, the minor-units rule both ways, per-item errors, limits,
// keys and units (spec: market-data Authentication, Errors, Limits), on each engine.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, setMarketPlan } from '../../../src/accounts/accounts.js';
import { createKey, revokeKey } from '../../../src/accounts/keys.js';
import { loadFile } from '../../../src/ingest/run.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { bearer, ENGINES, type TestEnv, testEnv } from '../../helpers/env.js';

const FIXTURES = path.resolve('test/fixtures/market');
/**
 * Monday 17 February 2025, 11:00 UTC: London has been open three hours (OCDO's quote is of 10:38), New York
 * not yet (AAPL's is Friday's close). BARC's bars end on 25 August 2023.
 */
const NOW = new Date('2025-02-17T11:00:00Z');
let n = 0;

for (const { engine, skip } of ENGINES) {
  describe.skipIf(skip)(`/v1/quotes on ${engine}`, () => {
    let env: TestEnv;
    let key: string;
    const marketKey = async (plan: 'free' | 'paid', access: 'market-data' | 'full' = 'market-data') => {
      n += 1;
      const account = await createAccount(env.deps, {
        email: `m${n}-${engine}@example.com`,
        marketPlan: plan,
        emailConfirmed: true,
      });
      return createKey(env.deps, { accountId: account.id, api: 'market', access });
    };
    // The clock starts at NOW and runs by the monotonic clock: the key cache and the unit minute see time
    // pass. `standAt` moves it to another instant, from which it runs on.
    let base = NOW.getTime();
    let started = performance.now();
    const standAt = (instant: string) => {
      base = Date.parse(instant);
      started = performance.now();
    };
    beforeAll(async () => {
      env = await testEnv({ engine, clock: () => new Date(base + (performance.now() - started)) });
      await loadFile(
        env.deps,
        LOADERS.yahoo as NonNullable<typeof LOADERS.yahoo>,
        path.join(FIXTURES, 'quote-AAPL.json'),
      );
      await loadFile(
        env.deps,
        LOADERS.yahoo as NonNullable<typeof LOADERS.yahoo>,
        path.join(FIXTURES, 'quote-OCDO.L.json'),
      );
      await loadFile(
        env.deps,
        LOADERS.prices as NonNullable<typeof LOADERS.prices>,
        path.join(FIXTURES, 'BARC.L.csv'),
        { ticker: 'BARC.L' },
      );
      key = (await marketKey('paid')).key;
    });
    afterAll(() => env.close());
    const get = (tickers: string, headers: Record<string, string> = bearer(key)) =>
      env.app.inject({ method: 'GET', url: `/v1/quotes?tickers=${encodeURIComponent(tickers)}`, headers });

    it('answers every form in one request, repeated tickers once, bad ones on their own item', async () => {
      const res = await get('AAPL,AAPL US Equity,OCDO.L,OCDO LN Equity,NOPE,ABC XX Equity,AAPL');
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-service-units']).toBe('1');
      const { access, items } = res.json();
      expect(access).toBe('market-data');
      expect(items.map((i: { input: string; status: string }) => [i.input, i.status])).toEqual([
        ['AAPL', 'ok'],
        ['AAPL US Equity', 'ok'],
        ['OCDO.L', 'ok'],
        ['OCDO LN Equity', 'ok'],
        ['NOPE', 'error'],
        ['ABC XX Equity', 'error'],
      ]);
      expect(items[0].quote).toEqual({
        symbol: 'AAPL',
        name: 'Apple Inc.',
        price: 244.6,
        currency: 'USD',
        changePercent: 1.2710667,
        previousClose: 241.53,
        volume: 40896227,
        marketCap: 3674405863424,
        marketState: 'CLOSED',
        asOf: '2025-02-14T21:00:00.000Z',
        // Loaded with quarry ingest yahoo: every value is the store's, from the recording loaded.
        source: 'stored',
        file: 'quote-AAPL.json',
      });
      expect(items[1].resolved).toMatchObject({ ticker: 'AAPL', dialect: 'terminal', name: 'Apple Inc.' });
      expect(items[4].error).toEqual({
        code: 'not_found',
        message:
          'No quote for NOPE (looked for NOPE in the stored data and the upstream). An operator loads one with "quarry ingest prices FILE --ticker NOPE" or "quarry ingest yahoo FILE".',
      });
      expect(items[5].error.code).toBe('not_found');
      expect(items[5].error.message).toMatch(/exchange code "XX"/);
    });

    it('the pence rule: terminal-form London in GBp with market cap in GBP; the suffixed form in pounds', async () => {
      const { items } = (await get('OCDO LN Equity,OCDO.L,OCDO:XLON')).json();
      // Yahoo quotes Ocado at 308.8 GBp, previous close 315.2 GBp, market cap 2,554,603,520 GBP.
      expect(items[0].resolved.currency).toBe('GBp');
      expect(items[0].quote).toMatchObject({
        price: 308.8,
        previousClose: 315.2,
        currency: 'GBp',
        marketCap: 2554603520,
        currencies: { marketCap: 'GBP' },
      });
      expect(items[1].quote).toMatchObject({
        price: 3.088,
        previousClose: 3.152,
        currency: 'GBP',
        marketCap: 2554603520,
      });
      expect(items[1].quote.currencies).toBeUndefined();
      expect(items[2].quote).toMatchObject({ symbol: 'OCDO:XLON', price: 3.088, currency: 'GBP' });
    });

    it('a quote built from stored daily bars when no quote was recorded, true at the session close', async () => {
      const { items } = (await get('BARC.L,BARC LN Equity')).json();
      // Last two bars: 144.539993 then 143.979996 pence; London closes at 16:30, 15:30 UTC in August.
      expect(items[0].quote).toMatchObject({
        price: 1.43979996,
        previousClose: 1.44539993,
        currency: 'GBP',
        asOf: '2023-08-25T15:30:00.000Z',
        marketState: 'CLOSED',
      });
      expect(items[0].quote.changePercent).toBeCloseTo(-0.3874, 3);
      expect(items[1].quote).toMatchObject({ price: 143.979996, previousClose: 144.539993, currency: 'GBp' });
    });

    it('an old quote says so: the sessions of its market opened since its time', async () => {
      const { items } = (await get('BARC.L,AAPL,OCDO.L')).json();
      // Weekdays from Monday 28 August 2023 to Monday 17 February 2025 (London open since 08:00): 386.
      expect(items[0].quote).toMatchObject({
        stale: true,
        staleReason: 'last price 2023-08-25 15:30 UTC; 386 sessions since',
      });
      // Friday's close before New York's Monday opening, and a London quote of this session: not old.
      expect(items[1].quote.stale).toBeUndefined();
      expect(items[2].quote.stale).toBeUndefined();
    });

    it('POST takes a JSON array', async () => {
      const res = await env.app.inject({
        method: 'POST',
        url: '/v1/quotes',
        headers: bearer(key),
        payload: { tickers: ['AAPL', 'OCDO.L'] },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().items).toHaveLength(2);
    });

    it('POST refuses query parameters, as GET refuses unknown ones, on every market route', async () => {
      for (const [url, payload] of [
        ['/v1/quotes?zzz=1', { tickers: ['AAPL'] }],
        ['/v1/data?tickers=AAPL', { tickers: ['AAPL'], fields: ['PX_LAST'] }],
        ['/v1/history?period=daily', { tickers: ['AAPL'], fields: ['PX_LAST'] }],
      ] as const) {
        const res = await env.app.inject({ method: 'POST', url, headers: bearer(key), payload });
        expect([url, res.statusCode, res.json().error]).toEqual([url, 400, 'invalid_params']);
        expect(res.headers['x-service-units']).toBe('0');
      }
    });

    it('up to 100 tickers; 1 unit per 20', async () => {
      const tickers = Array.from({ length: 100 }, (_, i) => `T${i}`);
      const ok = await env.app.inject({
        method: 'POST',
        url: '/v1/quotes',
        headers: bearer(key),
        payload: { tickers },
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['x-service-units']).toBe('5');
      const tooMany = await env.app.inject({
        method: 'POST',
        url: '/v1/quotes',
        headers: bearer(key),
        payload: { tickers: [...tickers, 'T100'] },
      });
      expect(tooMany.statusCode).toBe(400);
      expect(tooMany.json()).toMatchObject({
        error: 'invalid_params',
        message: expect.stringMatching(/up to 100/),
      });
    });

    it('malformed requests are 400 with a message', async () => {
      const noTickers = await env.app.inject({ method: 'GET', url: '/v1/quotes', headers: bearer(key) });
      expect(noTickers.statusCode).toBe(400);
      const badJson = await env.app.inject({
        method: 'POST',
        url: '/v1/quotes',
        headers: { ...bearer(key), 'content-type': 'application/json' },
        payload: '{"tickers": [',
      });
      expect(badJson.statusCode).toBe(400);
      expect(badJson.json().error).toBe('invalid_params');
    });

    it('keys: svc_mcp_ with market-data access and a paid plan only', async () => {
      const cases: [Record<string, string>, number, string][] = [
        [{}, 401, 'missing_key'],
        [bearer('gds_abcdefabcdefabcdef'), 401, 'wrong_key'],
        [bearer('svc_news_abcdefabcdef'), 401, 'wrong_key'],
        [bearer('svc_mcp_unknownunknownunknown'), 401, 'invalid_key'],
        [bearer((await marketKey('paid', 'full')).key), 403, 'key_too_broad'],
        [bearer((await marketKey('free')).key), 402, 'plan_required'],
      ];
      for (const [headers, status, code] of cases) {
        const res = await get('AAPL', headers);
        expect(res.statusCode, code).toBe(status);
        expect(res.json().error).toBe(code);
      }
      const revoked = await marketKey('paid');
      expect((await get('AAPL', bearer(revoked.key))).statusCode).toBe(200);
      await revokeKey(env.deps, { keyId: revoked.id });
      await expect
        .poll(async () => (await get('AAPL', bearer(revoked.key))).statusCode, { timeout: 2000 })
        .toBe(401);
    });

    it('a paid plan turned free is refused within 2 seconds', async () => {
      const k = await marketKey('paid');
      expect((await get('AAPL', bearer(k.key))).statusCode).toBe(200);
      await setMarketPlan(env.deps, { accountId: k.accountId, plan: 'free' });
      await expect
        .poll(async () => (await get('AAPL', bearer(k.key))).statusCode, { timeout: 2000 })
        .toBe(402);
    });

    it('120 units a minute per key, then 429 with Retry-After', async () => {
      const k = (await marketKey('paid')).key;
      const tickers = Array.from({ length: 100 }, (_, i) => `U${i}`);
      // Every call at one instant, 10 s into a minute: 100 tickers take 5 units, so exactly 24 calls fit in 120.
      try {
        standAt('2031-03-03T10:20:10.000Z');
        const call = () =>
          env.app.inject({ method: 'POST', url: '/v1/quotes', headers: bearer(k), payload: { tickers } });
        for (let i = 0; i < 24; i += 1) {
          const res = await call();
          expect([i, res.statusCode, res.headers['x-service-units']]).toEqual([i, 200, '5']);
        }
        const limited = await call();
        expect(limited.statusCode).toBe(429);
        expect(limited.json().error).toBe('rate_limited');
        expect(limited.headers['retry-after']).toBe('50');
        expect(limited.headers['x-service-units']).toBe('0');
        // Not one unit more: a call of a single ticker (1 unit) is refused too.
        const one = await env.app.inject({ url: '/v1/quotes?tickers=AAPL', headers: bearer(k) });
        expect(one.statusCode).toBe(429);
      } finally {
        standAt(NOW.toISOString());
      }
    });
  });
}
