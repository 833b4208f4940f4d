// Recorded fundamentals time series become statements, read through /v1/history and /v1/data.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../../src/ingest/run.js';
import { periodStart } from '../../../src/market/load/yahoo-timeseries.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { bearer, marketKey, type TestEnv, testEnv } from '../../helpers/env.js';

const FIXTURES = path.resolve('test/fixtures/market');
const yahoo = LOADERS.yahoo as NonNullable<typeof LOADERS.yahoo>;

describe('period starts for series that give only the period end', () => {
  it('the day after the same date 12 or 3 months earlier, clamped to the month end', () => {
    expect(periodStart('2024-09-30', 12)).toBe('2023-10-01');
    expect(periodStart('2024-12-31', 3)).toBe('2024-10-01');
    expect(periodStart('2024-06-30', 3)).toBe('2024-03-31');
    expect(periodStart('2024-05-31', 3)).toBe('2024-03-01');
  });
});

describe('Yahoo fundamentals time-series recordings', () => {
  let env: TestEnv;
  let key: string;
  beforeAll(async () => {
    env = await testEnv();
    for (const f of [
      'fundamentalsTimeSeries-AAPL-all-annual.json',
      'fundamentalsTimeSeries-AAPL-all-quarterly.json',
    ])
      await loadFile(env.deps, yahoo, path.join(FIXTURES, f));
    key = await marketKey(env.deps);
  });
  afterAll(() => env.close());
  const get = async (url: string) => {
    const res = await env.app.inject({ method: 'GET', url, headers: bearer(key) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('annual figures as Apple published them (fiscal 2022 to 2024, in millions)', async () => {
    const body = await get(
      '/v1/history?tickers=AAPL&fields=SALES_REV_TURN,BS_TOT_ASSET,CF_CAP_EXPEND_PRPTY_ADD&period=annual&start=2022-01-01&end=2024-12-31',
    );
    expect(body.items[0].rows).toEqual([
      { date: '2022-09-30', SALES_REV_TURN: 394328, BS_TOT_ASSET: 352755, CF_CAP_EXPEND_PRPTY_ADD: -10708 },
      { date: '2023-09-30', SALES_REV_TURN: 383285, BS_TOT_ASSET: 352583, CF_CAP_EXPEND_PRPTY_ADD: -10959 },
      { date: '2024-09-30', SALES_REV_TURN: 391035, BS_TOT_ASSET: 364980, CF_CAP_EXPEND_PRPTY_ADD: -9447 },
    ]);
  });

  it('quarterly figures, none derived; the latest quarter in /v1/data with period=quarterly, the latest year without', async () => {
    const body = await get(
      '/v1/history?tickers=AAPL&fields=totalRevenue&period=quarterly&start=2024-01-01&end=2024-12-31',
    );
    expect(body.items[0].rows).toEqual([
      { date: '2024-03-31', totalRevenue: 90753000000 },
      { date: '2024-06-30', totalRevenue: 85777000000 },
      { date: '2024-09-30', totalRevenue: 94930000000 },
      { date: '2024-12-31', totalRevenue: 124300000000 },
    ]);
    expect(body.items[0].derived ?? []).toEqual([]);
    const quarter = await get('/v1/data?tickers=AAPL&fields=SALES_REV_TURN,BS_TOT_ASSET&period=quarterly');
    expect(quarter.period).toBe('quarterly');
    // The December 2024 quarter in the recording: revenue 124,300 and total assets 344,085 (millions).
    expect(quarter.items[0].values).toEqual({ SALES_REV_TURN: 124300, BS_TOT_ASSET: 344085 });
    expect(quarter.items[0].periods).toEqual({ SALES_REV_TURN: '2024-12-31', BS_TOT_ASSET: '2024-12-31' });
    const year = await get('/v1/data?tickers=AAPL&fields=SALES_REV_TURN,BS_TOT_ASSET');
    expect(year.items[0].periods).toEqual({ SALES_REV_TURN: '2024-09-30', BS_TOT_ASSET: '2024-09-30' });
  });
});
