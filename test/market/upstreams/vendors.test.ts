// The licensed vendors beside Yahoo, against a stand-in replaying their recorded answers (Yahoo off): each
// vendor's AAPL daily bars are what Quarry serves for those days, its quote and its dividends too, each value
// naming its vendor; the order the operator gives decides who answers, and a 429 from one makes the next answer.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusCommand } from '../../../src/cli/status.js';
import { loadConfig } from '../../../src/runtime/config.js';
import {
  bearer,
  ENGINES,
  freshPostgres,
  marketKey,
  pgUrl,
  redisUrl,
  type TestEnv,
  testEnv,
} from '../../helpers/env.js';
import { recorded, VendorStandIn } from '../../helpers/vendors.js';
import { MockYahoo } from '../../helpers/yahoo.js';

type Row = Record<string, unknown>;
const WINDOW = { start: '2023-01-03', end: '2023-01-10' };

/** Yahoo's recorded quote of a symbol, read from the recording here. */
function yahooQuote(symbol: string): Row {
  const file = path.resolve(`test/fixtures/market/quote-${symbol}.json`);
  return JSON.parse(readFileSync(file, 'utf8')).response.bodyJson.quoteResponse.result[0];
}

/** The vendor's recorded closes and volumes by date, read from its answer here (not by Quarry's client). */
function expectedBars(vendor: 'polygon' | 'tiingo' | 'fmp'): Map<string, { close: number; volume: number }> {
  const out = new Map<string, { close: number; volume: number }>();
  if (vendor === 'polygon')
    for (const r of (recorded('polygon-aapl-daily') as { results: Row[] }).results)
      out.set(new Date((r.t as number) + 12 * 3_600_000).toISOString().slice(0, 10), {
        close: r.c as number,
        volume: r.v as number,
      });
  // AAPL had no split in 2023: Tiingo's prices as traded are its prices in today's shares.
  if (vendor === 'tiingo')
    for (const r of recorded('tiingo-aapl-daily') as Row[])
      out.set(String(r.date).slice(0, 10), { close: r.close as number, volume: r.volume as number });
  if (vendor === 'fmp')
    for (const r of recorded('fmp-aapl-daily') as Row[])
      out.set(String(r.date), { close: r.close as number, volume: r.volume as number });
  return out;
}

for (const { engine, skip } of ENGINES)
  describe.skipIf(skip)(`the licensed vendors, Yahoo off, on ${engine}`, () => {
    const standIn = new VendorStandIn();
    const envs: TestEnv[] = [];
    beforeAll(async () => {
      await standIn.start();
    });
    afterAll(async () => {
      for (const env of envs) await env.close();
      await standIn.stop();
    });

    async function serving(order: string[], clock?: () => Date) {
      const env = await testEnv({ engine, env: standIn.env(order), ...(clock ? { clock } : {}) });
      envs.push(env);
      const key = await marketKey(env.deps);
      const post = async (route: string, payload: object) =>
        (await env.app.inject({ method: 'POST', url: route, headers: bearer(key), payload })).json();
      return { env, post };
    }

    it.each(['polygon', 'tiingo', 'fmp'] as const)(
      '%s first: its AAPL daily bars are served, each value naming it',
      async (vendor) => {
        const { post } = await serving([vendor, ...['polygon', 'tiingo', 'fmp'].filter((v) => v !== vendor)]);
        const body = await post('/v1/history', {
          tickers: ['AAPL'],
          fields: ['PX_LAST', 'PX_VOLUME'],
          ...WINDOW,
        });
        const item = body.items[0];
        const expected = expectedBars(vendor);
        const days = [...expected.keys()].filter((d) => d >= WINDOW.start && d <= WINDOW.end).sort();
        expect(days.length).toBe(6);
        expect(item.rows).toEqual(
          days.map((date) => ({
            date,
            PX_LAST: expected.get(date)?.close,
            PX_VOLUME: expected.get(date)?.volume,
          })),
        );
        expect(item.source).toBe(vendor);
        expect(item.sources).toBeUndefined();
      },
    );

    it("FMP's quote, the one vendor here that quotes, named as its source", async () => {
      const { post } = await serving(['polygon', 'tiingo', 'fmp']);
      const body = await post('/v1/quotes', { tickers: ['AAPL'] });
      const [row] = recorded('fmp-aapl-quote') as Row[];
      expect(body.items[0].quote).toMatchObject({
        price: row?.price,
        previousClose: row?.previousClose,
        volume: row?.volume,
        asOf: new Date((row?.timestamp as number) * 1000).toISOString(),
        source: 'fmp',
      });
    });

    it("Polygon's newest bid and ask, its quote's only fields, named as Polygon's and timed as it sent them", async () => {
      const { post } = await serving(['polygon', 'fmp']);
      const body = await post('/v1/data', { tickers: ['SPY'], fields: ['PX_BID', 'PX_ASK'] });
      const results = (recorded('polygon-spy-quotes') as { results: Row[] }).results;
      const newest = results.reduce((a, b) =>
        (a.sip_timestamp as number) > (b.sip_timestamp as number) ? a : b,
      );
      const item = body.items[0];
      expect(item.values).toEqual({ PX_BID: newest.bid_price, PX_ASK: newest.ask_price });
      expect(item.source).toBe('polygon');
      // 2023-10-26 20:00:00.094 in New York: the SIP's nanoseconds to the millisecond.
      expect(item.asOf.PX_BID).toBe(
        new Date(Math.floor((newest.sip_timestamp as number) / 1e6)).toISOString(),
      );
    });

    it('per field: each field from the first upstream in the order whose quote carries it', async () => {
      const yahoo = await new MockYahoo().start();
      try {
        // Polygon's quote has a bid and an ask but knows no AAPL; FMP quotes AAPL's price but no bid or ask;
        // Yahoo's quote has them.
        const order = ['polygon', 'fmp', 'yahoo'];
        const env = await testEnv({ engine, env: { ...standIn.env(order), ...yahoo.env() } });
        envs.push(env);
        const key = await marketKey(env.deps);
        const ask = async () =>
          (
            await env.app.inject({
              method: 'POST',
              url: '/v1/data',
              headers: bearer(key),
              payload: { tickers: ['AAPL'], fields: ['PX_LAST', 'PX_BID', 'PX_ASK'] },
            })
          ).json().items[0];
        const polygonBefore = standIn.calls.polygon ?? 0;
        const item = await ask();
        const [fmp] = recorded('fmp-aapl-quote') as Row[];
        const sent = yahooQuote('AAPL');
        expect(item.values).toEqual({ PX_LAST: fmp?.price, PX_BID: sent.bid, PX_ASK: sent.ask });
        expect(item.source).toBe('fmp');
        expect(item.sources).toEqual({ PX_BID: 'yahoo', PX_ASK: 'yahoo' });
        // Polygon was asked for AAPL's bid and ask first, and had none.
        expect(standIn.calls.polygon).toBe(polygonBefore + 1);
        // Asked again while the quote is fresh: no upstream is called.
        const calls = [standIn.calls.polygon, standIn.calls.fmp, yahoo.dataCalls('/v7/finance/quote').length];
        expect(calls[2]).toBe(1);
        await ask();
        expect([
          standIn.calls.polygon,
          standIn.calls.fmp,
          yahoo.dataCalls('/v7/finance/quote').length,
        ]).toEqual(calls);
      } finally {
        await yahoo.stop();
      }
    });

    it("per field in the summary: FMP's profile gives the sector, Yahoo's summary the float it lacks", async () => {
      const yahoo = await new MockYahoo().start();
      try {
        const env = await testEnv({ engine, env: { ...standIn.env(['fmp', 'yahoo']), ...yahoo.env() } });
        envs.push(env);
        const key = await marketKey(env.deps);
        const res = await env.app.inject({
          method: 'POST',
          url: '/v1/data',
          headers: bearer(key),
          payload: { tickers: ['AAPL'], fields: ['sector', 'floatShares'] },
        });
        const item = res.json().items[0];
        const [profile] = recorded('fmp-aapl-profile') as Row[];
        const file = path.resolve('test/fixtures/market/quoteSummary-all-AAPL.json');
        const summary = JSON.parse(readFileSync(file, 'utf8')).response.bodyJson.quoteSummary.result[0];
        expect(item.values).toEqual({
          sector: profile?.sector,
          floatShares: summary.defaultKeyStatistics.floatShares,
        });
        expect(item.source).toBe('fmp');
        expect(item.sources).toEqual({ floatShares: 'yahoo' });
      } finally {
        await yahoo.stop();
      }
    });

    it('/v1/data: the item names the quote’s vendor, and the values measured on another vendor’s bars', async () => {
      // A day after Tiingo's recording ends: the volatility's closes are the last it holds.
      const { post } = await serving(['tiingo', 'fmp'], () => new Date('2023-06-07T12:00:00Z'));
      const body = await post('/v1/data', { tickers: ['AAPL'], fields: ['PX_LAST', 'VOLATILITY_10D'] });
      const item = body.items[0];
      expect(item.values.PX_LAST).toBe((recorded('fmp-aapl-quote') as Row[])[0]?.price);
      expect(item.source).toBe('fmp');
      expect(item.sources).toEqual({ VOLATILITY_10D: 'tiingo' });
    });

    it("Tiingo's dividends of 2023, as actions from tiingo, and the total return they make", async () => {
      const { post } = await serving(['tiingo', 'polygon', 'fmp']);
      const body = await post('/v1/actions', { tickers: ['AAPL'], start: '2023-01-01', end: '2023-06-06' });
      const paid = (recorded('tiingo-aapl-daily') as Row[])
        .filter((r) => (r.divCash as number) > 0)
        .map((r) => ({ date: String(r.date).slice(0, 10), amount: r.divCash }));
      expect(paid.length).toBe(2);
      expect(body.items[0].actions.map((a: Row) => ({ date: a.date, amount: a.amount }))).toEqual(paid);
      expect(body.items[0].source).toBe('tiingo');
    });

    it('a 429 from the first vendor: the next answers, says so, and the first is left alone for its pause', async () => {
      standIn.allowance.polygon = 0;
      try {
        const { env, post } = await serving(['polygon', 'tiingo']);
        const before = standIn.calls.polygon ?? 0;
        const body = await post('/v1/history', { tickers: ['AAPL'], fields: ['PX_LAST'], ...WINDOW });
        expect(body.items[0].source).toBe('tiingo');
        expect(standIn.refused.polygon).toBeGreaterThan(0);
        const called = standIn.calls.polygon ?? 0;
        expect(called).toBe(before + 1);
        // Another listing's bars while polygon is paused: it is not asked again.
        await post('/v1/history', { tickers: ['MSFT'], fields: ['PX_LAST'], ...WINDOW });
        expect(standIn.calls.polygon).toBe(called);
        // /metrics counts each upstream's calls by outcome in this process.
        const metrics = (await env.app.inject({ method: 'GET', url: '/metrics' })).body;
        const count = (outcome: string) =>
          Number(
            new RegExp(
              `quarry_upstream_calls_total\\{upstream="polygon",outcome="${outcome}"\\} (\\d+)`,
            ).exec(metrics)?.[1],
          );
        expect(count('too_many')).toBeGreaterThan(0);
        expect(count('paused')).toBeGreaterThan(0);
        // …and when the pause it knows of ends: the 30 s the stand-in asked, from now (the real clock here).
        const ends = /quarry_upstream_pause_end_timestamp_seconds\{upstream="polygon"\} ([\d.e+]+)/.exec(
          metrics,
        );
        expect(Number(ends?.[1])).toBeGreaterThan(Date.now() / 1000 + 20);
      } finally {
        delete standIn.allowance.polygon;
      }
    });

    it('a second opinion: a close two vendors answer differently is served with the other’s, and counted', async () => {
      // FMP's recorded close of 2023-01-05, 125.02, answered as 125.5 here: Tiingo's stays the recorded 125.02.
      standIn.closes.fmp = { '2023-01-05': 125.5 };
      try {
        const env = await testEnv({
          env: { ...standIn.env(['fmp', 'tiingo']), QUARRY_SECOND_OPINION_DAYS: '5' },
        });
        envs.push(env);
        const key = await marketKey(env.deps);
        const history = { tickers: ['AAPL'], fields: ['PX_LAST'], ...WINDOW };
        const res = await env.app.inject({
          method: 'POST',
          url: '/v1/history',
          headers: bearer(key),
          payload: history,
        });
        const item = res.json().items[0];
        const tiingo = (recorded('tiingo-aapl-daily') as Row[]).find((r) =>
          String(r.date).startsWith('2023-01-05'),
        );
        // The other four days sampled agree between the two real recordings: only the changed one is disputed.
        expect(item.disputed).toEqual([
          { date: '2023-01-05', field: 'close', source: 'tiingo', value: tiingo?.close },
        ]);
        expect(item.rows.find((r: Row) => r.date === '2023-01-05').PX_LAST).toBe(125.5);
        expect(item.source).toBe('fmp');
        expect((await statusCommand(env.deps, [])).market).toEqual({
          disputes: [{ source: 'fmp', other: 'tiingo', disputes: 1 }],
        });
      } finally {
        delete standIn.closes.fmp;
      }
    });

    it('the order is the configuration: vendors with a key first by default, a listed vendor without its key refused', () => {
      const keys = { POLYGON_API_KEY: 'k', FMP_API_KEY: 'k' };
      expect(loadConfig(keys).market.upstreams.map((u) => u.name)).toEqual(['polygon', 'fmp', 'yahoo']);
      expect(loadConfig({}).market.upstreams.map((u) => u.name)).toEqual(['yahoo']);
      expect(() => loadConfig({ QUARRY_MARKET_UPSTREAMS: 'tiingo,yahoo' })).toThrow(
        /tiingo is listed, and TIINGO_API_KEY is not set/,
      );
      expect(() => loadConfig({ QUARRY_MARKET_UPSTREAMS: 'bloomberg' })).toThrow(
        /"bloomberg" is not an upstream/,
      );
    });
  });

describe.runIf(pgUrl() !== null && redisUrl() !== null)('one allowance across instances', () => {
  const standIn = new VendorStandIn();
  const envs: TestEnv[] = [];
  let database: Awaited<ReturnType<typeof freshPostgres>>;
  beforeAll(async () => {
    await standIn.start();
    database = await freshPostgres();
  });
  afterAll(async () => {
    for (const env of envs) await env.close();
    await standIn.stop();
    await database.drop();
  });

  it('three instances over PostgreSQL and Redis send Tiingo no more than its allowance: no 429 in a burst', async () => {
    const allowance = 3;
    standIn.allowance.tiingo = allowance;
    for (let i = 0; i < 3; i += 1)
      envs.push(
        await testEnv({
          env: {
            ...standIn.env(['tiingo']),
            DATABASE_URL: database.url,
            REDIS_URL: redisUrl() ?? '',
            QUARRY_TIINGO_PER_MINUTE: String(allowance),
          },
        }),
      );
    const keys = await Promise.all(envs.map((env) => marketKey(env.deps)));
    // Twelve listings at once, four to each instance: each listing's bars are a call of their own.
    const tickers = [
      'AAPL',
      'MSFT',
      'NVDA',
      'AMZN',
      'META',
      'GOOG',
      'TSLA',
      'AVGO',
      'JPM',
      'V',
      'WMT',
      'XOM',
    ];
    const answers = await Promise.all(
      tickers.map((ticker, i) =>
        envs[i % 3]?.app.inject({
          method: 'POST',
          url: '/v1/history',
          headers: bearer(keys[i % 3] as string),
          payload: { tickers: [ticker], fields: ['PX_LAST'], ...WINDOW },
        }),
      ),
    );
    expect(answers.every((a) => a?.statusCode === 200)).toBe(true);
    expect(standIn.refused.tiingo).toBe(0);
    expect(standIn.calls.tiingo).toBeLessThanOrEqual(allowance);
    expect(standIn.calls.tiingo).toBeGreaterThan(0);
  });
});
