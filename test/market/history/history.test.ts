// /v1/history on stored daily bars: periods, defaults, fields keyed as sent, per-field errors, units, limits.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadFile } from '../../../src/ingest/run.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { bearer, marketKey, type TestEnv, testEnv } from '../../helpers/env.js';

const FIXTURES = path.resolve('test/fixtures/market');

describe('/v1/history', () => {
  let env: TestEnv;
  let key: string;
  beforeAll(async () => {
    env = await testEnv();
    const prices = LOADERS.prices as NonNullable<typeof LOADERS.prices>;
    await loadFile(env.deps, prices, path.join(FIXTURES, 'AAPL.csv'), { ticker: 'AAPL US Equity' });
    await loadFile(env.deps, prices, path.join(FIXTURES, 'BARC.L.csv'), { ticker: 'BARC.L' });
    key = await marketKey(env.deps);
  });
  afterAll(() => env.close());
  const get = (query: string) =>
    env.app.inject({ method: 'GET', url: `/v1/history?${query}`, headers: bearer(key) });

  it('daily rows oldest first, fields keyed as sent in any letter case', async () => {
    const res = await get('tickers=AAPL&fields=PX_LAST,volume,Px_Open&start=2021-01-04&end=2021-01-06');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-service-units']).toBe('1');
    const body = res.json();
    expect(body).toMatchObject({ period: 'daily', start: '2021-01-04', end: '2021-01-06' });
    expect(body.fields).toEqual([
      { input: 'PX_LAST', id: 'price', alias: 'PX_LAST', unit: 'price currency' },
      { input: 'volume', id: 'volume', alias: null, unit: 'shares or contracts' },
      { input: 'Px_Open', id: 'open', alias: 'PX_OPEN', unit: 'price currency' },
    ]);
    expect(body.items[0].rows).toEqual([
      { date: '2021-01-04', PX_LAST: 129.410004, volume: 143301900, Px_Open: 133.520004 },
      { date: '2021-01-05', PX_LAST: 131.009995, volume: 97664900, Px_Open: 128.889999 },
      { date: '2021-01-06', PX_LAST: 126.599998, volume: 155088000, Px_Open: 127.720001 },
    ]);
  });

  it('weekly and monthly rows dated on the last trading day of the period', async () => {
    const weekly = (
      await get('tickers=AAPL&fields=price,high,low&start=2021-01-04&end=2021-01-15&period=weekly')
    ).json();
    expect(weekly.items[0].rows.map((r: { date: string }) => r.date)).toEqual(['2021-01-08', '2021-01-15']);
    expect(weekly.items[0].rows[0]).toMatchObject({ price: 132.050003, high: 133.610001, low: 126.379997 });
    const monthly = (
      await get('tickers=AAPL&fields=price&start=2021-01-01&end=2021-03-31&period=monthly')
    ).json();
    expect(monthly.items[0].rows.map((r: { date: string }) => r.date)).toEqual([
      '2021-01-29',
      '2021-02-26',
      '2021-03-31',
    ]);
  });

  it('the pence rule in history: BARC LN Equity in GBp, BARC.L in pounds', async () => {
    const body = (
      await get('tickers=BARC%20LN%20Equity,BARC.L&fields=price&start=2023-08-25&end=2023-08-25')
    ).json();
    expect(body.items[0].rows).toEqual([{ date: '2023-08-25', price: 143.979996 }]);
    expect(body.items[1].rows).toEqual([{ date: '2023-08-25', price: 1.43979996 }]);
  });

  it('per-field and per-item errors: one bad part never fails the request', async () => {
    const body = (
      await get(
        'tickers=AAPL,NOPE,ABC%20XX%20Equity&fields=price,trailingPE,SHORT_INT,nosuch,totalRevenue&start=2021-01-04&end=2021-01-04',
      )
    ).json();
    const [aapl, nope, xx] = body.items;
    expect(aapl.status).toBe('partial');
    expect(aapl.rows).toEqual([{ date: '2021-01-04', price: 129.410004 }]);
    expect(aapl.errors).toEqual({
      trailingPE: { code: 'not_applicable', message: 'trailingPE is not served in history' },
      SHORT_INT: {
        code: 'not_applicable',
        message: 'SHORT_INT: served by the MCP tool market.short_interest',
      },
      nosuch: { code: 'not_found', message: 'no field "nosuch"' },
      totalRevenue: { code: 'not_applicable', message: 'totalRevenue comes quarterly or annually' },
    });
    expect(nope).toMatchObject({ status: 'error', error: { code: 'not_found' } });
    expect(xx).toMatchObject({ status: 'error', error: { code: 'not_found' } });
  });

  it('defaults: end today, start one year before; a range past 20 years keeps the newest and says so', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      for (const [today, start] of [
        ['2025-11-23', '2024-11-23'],
        ['2024-02-29', '2023-02-28'],
        ['2025-03-01', '2024-03-01'],
      ]) {
        vi.setSystemTime(new Date(`${today}T15:00:00Z`));
        const defaults = (await get('tickers=AAPL&fields=price')).json();
        expect([defaults.start, defaults.end]).toEqual([start, today]);
      }
      vi.setSystemTime(new Date('2024-02-29T15:00:00Z'));
      const statements = (await get('tickers=AAPL&fields=totalRevenue&period=annual')).json();
      expect([statements.start, statements.end]).toEqual(['2019-02-28', '2024-02-29']);
    } finally {
      vi.useRealTimers();
    }
    const long = await get('tickers=AAPL&fields=price&start=1990-01-01&end=2023-08-25');
    expect(long.json().start).toBe('2003-08-25');
    expect(long.json().items[0].truncated).toEqual({ requestedStart: '1990-01-01', start: '2003-08-25' });
    // 33.6 years asked, 20 served: one unit per ticker for each five years served, 4 (not 7 for the years asked).
    expect(long.headers['x-service-units']).toBe('4');
    // From year 1500: still the 20 newest years, still 4 units (it was 106, and past 120 a 429 for ever).
    const ancient = await get('tickers=AAPL&fields=price&start=1500-01-01&end=2023-08-25');
    expect(ancient.statusCode).toBe(200);
    expect(ancient.headers['x-service-units']).toBe('4');
    const older = await get('tickers=AAPL&fields=price&start=1400-01-01&end=2023-08-25');
    expect(older.statusCode).toBe(200);
  });

  it('limits: 10 tickers, 5 fields; start after end is refused', async () => {
    const tickers = Array.from({ length: 11 }, (_, i) => `T${i}`).join(',');
    expect((await get(`tickers=${tickers}&fields=price`)).json().message).toMatch(/up to 10 tickers/);
    expect((await get('tickers=AAPL&fields=price,open,high,low,volume,change')).json().message).toMatch(
      /up to 5 fields/,
    );
    expect((await get('tickers=AAPL&fields=price&start=2022-01-02&end=2022-01-01')).statusCode).toBe(400);
    const post = await env.app.inject({
      method: 'POST',
      url: '/v1/history',
      headers: bearer(key),
      payload: { tickers: ['AAPL'], fields: ['price'], start: '2021-01-04', end: '2021-01-05' },
    });
    expect(post.statusCode).toBe(200);
    expect(post.json().items[0].rows).toHaveLength(2);
  });

  it('rows written once per series follow a load that changes the bars', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'quarry-history-'));
    const prices = LOADERS.prices as NonNullable<typeof LOADERS.prices>;
    const load = async (name: string, rows: string) => {
      const file = path.join(dir, name);
      writeFileSync(file, `Date,Open,High,Low,Close,Adj Close,Volume\n${rows}`);
      await loadFile(env.deps, prices, file, { ticker: 'QRYT' });
    };
    await load('v1.csv', '2021-01-04,10,11,9,10.5,10.5,1000\n2021-01-05,10.5,12,10,11.25,11.25,2000\n');
    const query = 'tickers=QRYT&fields=price,Volume&start=2021-01-04&end=2021-01-05';
    expect((await get(query)).json().items[0].rows).toEqual([
      { date: '2021-01-04', price: 10.5, Volume: 1000 },
      { date: '2021-01-05', price: 11.25, Volume: 2000 },
    ]);
    // A corrected close for 2021-01-05.
    await load('v2.csv', '2021-01-05,10.5,12,10,11.5,11.5,2000\n');
    expect((await get(query)).json().items[0].rows).toEqual([
      { date: '2021-01-04', price: 10.5, Volume: 1000 },
      { date: '2021-01-05', price: 11.5, Volume: 2000 },
    ]);
  });

  it('answers carry an ETag; If-None-Match with it is 304 and charged; a new request or a load changes it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'quarry-etag-'));
    const prices = LOADERS.prices as NonNullable<typeof LOADERS.prices>;
    const load = async (name: string, rows: string) => {
      const file = path.join(dir, name);
      writeFileSync(file, `Date,Open,High,Low,Close,Adj Close,Volume\n${rows}`);
      await loadFile(env.deps, prices, file, { ticker: 'QRYE' });
    };
    await load('v1.csv', '2021-01-04,10,11,9,10.5,10.5,1000\n2021-01-05,10.5,12,10,11.25,11.25,2000\n');
    const query = 'tickers=QRYE,AAPL&fields=price&start=2021-01-04&end=2021-01-05';
    const first = await get(query);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect((await get(query)).headers.etag).toBe(etag);

    const again = await env.app.inject({
      method: 'GET',
      url: `/v1/history?${query}`,
      headers: { ...bearer(key), 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers['x-service-units']).toBe('2');

    const posted = await env.app.inject({
      method: 'POST',
      url: '/v1/history',
      headers: bearer(key),
      payload: { tickers: ['QRYE', 'AAPL'], fields: ['price'], start: '2021-01-04', end: '2021-01-05' },
    });
    expect(posted.headers.etag).toBe(etag);
    const others = [
      'tickers=QRYE,AAPL&fields=PX_LAST&start=2021-01-04&end=2021-01-05',
      'tickers=QRYE,AAPL&fields=price&start=2021-01-05&end=2021-01-05',
      'tickers=AAPL,QRYE&fields=price&start=2021-01-04&end=2021-01-05',
    ];
    for (const other of others) expect((await get(other)).headers.etag, other).not.toBe(etag);

    await load('v2.csv', '2021-01-05,10.5,12,10,11.5,11.5,2000\n');
    const changed = await env.app.inject({
      method: 'GET',
      url: `/v1/history?${query}`,
      headers: { ...bearer(key), 'if-none-match': etag },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.json().items[0].rows[1]).toEqual({ date: '2021-01-05', price: 11.5 });
  });
});
