// Spec, market-data API: "Unit costs (reported in the response header X-Service-Units)", worked by hand for
// each row and at each edge, over real HTTP. Every case takes a fresh key, so the 120 units a minute never
// refuse one. The rule for years is the calendar's: a daily range whose start is on or after the same date
// five years before its end is one span (29 February stepping back to the 28th), each five years further back
// one more, and a range longer than 20 years is served and charged as exactly 20.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, ENGINES, marketKey, type TestEnv, testEnv } from '../../helpers/env.js';
import { callTool, connect } from '../../mcp/client.js';

/** `n` distinct tickers; none is stored, so each answers an item error, but the call is priced all the same. */
const tickers = (n: number) => Array.from({ length: n }, (_, i) => `Q${i + 1}`).join(',');

describe('X-Service-Units', () => {
  let env: TestEnv;
  let url: string;
  beforeAll(async () => {
    env = await testEnv({ clock: () => new Date('2026-11-18T10:00:05.000Z') });
    url = await env.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => env.close());

  async function units(path: string): Promise<string | undefined> {
    const key = await marketKey(env.deps);
    const res = await env.app.inject({ method: 'GET', url: path, headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    return res.headers['x-service-units'] as string | undefined;
  }

  // [what, tickers, start, end, units]
  const DAILY: [string, number, string, string, number][] = [
    ['one day', 1, '2025-03-03', '2025-03-03', 1],
    ['just under five years', 1, '2020-03-02', '2025-03-01', 1],
    ['exactly five calendar years, a leap day among them', 1, '2020-03-01', '2025-03-01', 1],
    ['five years from New Year, two leap days in 1,827 days', 1, '2020-01-01', '2025-01-01', 1],
    ['just over five years', 1, '2020-02-29', '2025-03-01', 2],
    ['five years back from 29 February is 28 February', 1, '2019-02-28', '2024-02-29', 1],
    ['a day before that', 1, '2019-02-27', '2024-02-29', 2],
    ['seven years', 1, '2018-03-01', '2025-03-01', 2],
    ['ten years', 1, '2015-03-01', '2025-03-01', 2],
    ['ten years and a day', 1, '2015-02-28', '2025-03-01', 3],
    ['twenty years', 1, '2005-03-01', '2025-03-01', 4],
    ['twenty-five years, served as twenty', 1, '2000-03-01', '2025-03-01', 4],
    ['fifty years, served as twenty', 1, '1975-03-01', '2025-03-01', 4],
    ['ten tickers, one day', 10, '2025-03-03', '2025-03-03', 10],
    ['ten tickers, seven years', 10, '2018-03-01', '2025-03-01', 20],
    ['ten tickers, twenty-five years', 10, '2000-03-01', '2025-03-01', 40],
  ];
  for (const [what, n, start, end, expected] of DAILY) {
    it(`history, daily: ${what} (${n} ticker${n > 1 ? 's' : ''}, ${start} to ${end}) is ${expected}`, async () => {
      const path = `/v1/history?tickers=${tickers(n)}&fields=PX_LAST&start=${start}&end=${end}`;
      expect(await units(path)).toBe(String(expected));
    });
  }

  for (const [n, expected] of [
    [1, 1],
    [5, 1],
    [6, 2],
    [10, 2],
  ] as const) {
    it(`history, statement periods: ${n} tickers are ${expected}, over any range`, async () => {
      for (const period of ['quarterly', 'annual']) {
        const path = `/v1/history?tickers=${tickers(n)}&fields=SALES_REV_TURN&period=${period}&start=2000-01-01&end=2025-12-31`;
        expect(await units(path)).toBe(String(expected));
      }
    });
  }

  for (const [n, expected] of [
    [1, 1],
    [20, 1],
    [21, 2],
    [100, 5],
  ] as const) {
    it(`quotes: ${n} tickers are ${expected}`, async () => {
      expect(await units(`/v1/quotes?tickers=${tickers(n)}`)).toBe(String(expected));
    });
  }

  // [tickers, quote fields only, a field beyond the quote]
  for (const [n, quoteOnly, mixed] of [
    [5, 1, 1],
    [6, 1, 2],
    [20, 1, 4],
    [21, 2, 5],
    [50, 3, 10],
  ] as const) {
    it(`data: ${n} tickers are ${quoteOnly} with quote fields only, ${mixed} with a computed field`, async () => {
      expect(await units(`/v1/data?tickers=${tickers(n)}&fields=PX_LAST,CUR_MKT_CAP,NAME`)).toBe(
        String(quoteOnly),
      );
      expect(await units(`/v1/data?tickers=${tickers(n)}&fields=PX_LAST,VOLATILITY_30D`)).toBe(String(mixed));
    });
  }

  it('an MCP tool call is one unit, whatever its size: 119 of them leave one unit of the minute', async () => {
    const key = await marketKey(env.deps);
    const client = await connect(url, key);
    try {
      const heavy = {
        tickers: tickers(10).split(','),
        fields: ['PX_LAST'],
        start: '2000-01-01',
        end: '2025-03-01',
      };
      for (let i = 0; i < 119; i += 1) {
        const result = await callTool(client, i % 2 ? 'market.history' : 'market.quotes', {
          ...(i % 2 ? heavy : { tickers: tickers(100).split(',') }),
        });
        expect(result.isError).toBeFalsy();
      }
    } finally {
      await client.close();
    }
    const last = await env.app.inject({ method: 'GET', url: `/v1/quotes?tickers=Q1`, headers: bearer(key) });
    expect([last.statusCode, last.headers['x-service-units']]).toEqual([200, '1']);
    const over = await env.app.inject({ method: 'GET', url: `/v1/quotes?tickers=Q1`, headers: bearer(key) });
    expect(over.statusCode).toBe(429);
  });
});

for (const { engine, skip } of ENGINES) {
  describe.skipIf(skip)(`units given back on a server error, on ${engine}`, () => {
    let env: TestEnv;
    let url: string;
    beforeAll(async () => {
      env = await testEnv({ engine, clock: () => new Date('2026-11-18T10:00:05.000Z') });
      url = await env.app.listen({ port: 0, host: '127.0.0.1' });
      // Search reads the stored quotes: without their table it fails on our side.
      await sql`DROP TABLE market_quotes`.execute(env.deps.store.db);
    });
    afterAll(() => env.close());

    it('a REST call and a tool call that fail on our side take nothing from the minute or the day', async () => {
      const key = await marketKey(env.deps);
      const rest = await env.app.inject({ url: '/v1/search?q=barclays', headers: bearer(key) });
      expect(rest.statusCode).toBe(500);
      expect(rest.json()).toMatchObject({
        error: 'internal_error',
        message: 'The request failed on our side; any credits or units charged were given back.',
      });
      expect(rest.headers['x-service-units']).toBe('0');
      const client = await connect(url, key);
      try {
        const tool = await callTool(client, 'market.search', { q: 'barclays' });
        expect(tool.isError).toBe(true);
        expect(tool._meta).toMatchObject({ units: { used: 0, refunded: 1 } });
      } finally {
        await client.close();
      }
      // Had either kept its unit, the third of these 40-unit calls would pass the minute's 120.
      const history = `/v1/history?tickers=${tickers(10)}&fields=PX_LAST&start=2000-01-01&end=2025-03-01`;
      for (let i = 0; i < 3; i += 1) {
        const res = await env.app.inject({ url: history, headers: bearer(key) });
        expect([res.statusCode, res.headers['x-service-units']]).toEqual([200, '40']);
      }
      const over = await env.app.inject({ url: '/v1/quotes?tickers=Q1', headers: bearer(key) });
      expect(over.statusCode).toBe(429);
      // The day's usage nets the failed calls out: three calls, 120 units.
      await env.deps.usage.flush();
      const rows = await env.deps.store.db.selectFrom('unit_usage').selectAll().execute();
      const mine = rows.filter((r) => r.day === '2026-11-18');
      expect(mine.reduce((n, r) => n + Number(r.calls), 0)).toBe(3);
      expect(mine.reduce((n, r) => n + Number(r.units), 0)).toBe(120);
    });
  });
}
