// Statements from SEC company facts: the NVIDIA file, read through /v1/history and /v1/data.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../../src/ingest/run.js';
import { HISTORY } from '../../../src/market/history/index.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { bearer, marketKey, type TestEnv, testEnv } from '../../helpers/env.js';
import { asset } from '../../helpers/real-data.js';

const NVDA = asset('sec/companyfacts/CIK0001045810.json');
const TICKERS = asset('sec/company_tickers.json');

describe('statements from SEC company facts', () => {
  let env: TestEnv;
  let key: string;
  beforeAll(async () => {
    env = await testEnv();
    await loadFile(env.deps, LOADERS['sec-facts'] as NonNullable<(typeof LOADERS)['sec-facts']>, NVDA, {
      ticker: 'NVDA',
    });
    key = await marketKey(env.deps);
  });
  afterAll(() => env.close());
  const get = async (url: string) => {
    const res = await env.app.inject({ method: 'GET', url, headers: bearer(key) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('fiscal 2026 Q4 revenue is 68,127 million USD, derived as the full year less Q1 to Q3', async () => {
    const body = await get(
      '/v1/history?tickers=NVDA&fields=SALES_REV_TURN,totalRevenue&period=quarterly&start=2025-02-01&end=2026-02-01',
    );
    const item = body.items[0];
    expect(item.rows).toEqual([
      { date: '2025-04-27', SALES_REV_TURN: 44062, totalRevenue: 44062000000 },
      { date: '2025-07-27', SALES_REV_TURN: 46743, totalRevenue: 46743000000 },
      { date: '2025-10-26', SALES_REV_TURN: 57006, totalRevenue: 57006000000 },
      { date: '2026-01-25', SALES_REV_TURN: 68127, totalRevenue: 68127000000 },
    ]);
    expect(item.derived).toEqual(['2026-01-25']);
    // Statement periods: one unit per five tickers.
  });

  it('an annual balance is a fiscal year end, whatever a filing tagged it', async () => {
    // The real file, with the 10-Q balance of 2025-10-26 re-tagged as a 10-K's full-year figure, as filings
    // sometimes tag a balance: it stays out of the annual series, which holds fiscal year ends only.
    const facts = JSON.parse(readFileSync(NVDA, 'utf8'));
    const assets = facts.facts['us-gaap'].Assets.units.USD as { end: string; fp: string; form: string }[];
    const quarterEnd = assets.find((f) => f.end === '2025-10-26') as { fp: string; form: string };
    Object.assign(quarterEnd, { fp: 'FY', form: '10-K' });
    const copy = path.join(mkdtempSync(path.join(tmpdir(), 'quarry-facts-')), 'CIK0001045810.json');
    writeFileSync(copy, JSON.stringify(facts));
    const other = await testEnv();
    try {
      await loadFile(other.deps, LOADERS['sec-facts'] as NonNullable<(typeof LOADERS)['sec-facts']>, copy, {
        ticker: 'NVDA',
      });
      const answer = await HISTORY.run(other.deps, {
        tickers: ['NVDA'],
        fields: ['totalAssets'],
        period: 'annual',
        start: '2024-01-01',
        end: '2026-12-31',
      });
      // NVIDIA's balance sheets: 65,728, 111,601 and 206,803 million at its fiscal 2024–2026 year ends.
      expect(JSON.parse(JSON.stringify(answer.items[0])).rows).toEqual([
        { date: '2024-01-28', totalAssets: 65728000000 },
        { date: '2025-01-26', totalAssets: 111601000000 },
        { date: '2026-01-25', totalAssets: 206803000000 },
      ]);
    } finally {
      await other.close();
    }
  });

  it('without --ticker the file finds its ticker by CIK among the registrants, after company_tickers.json', async () => {
    const other = await testEnv();
    const facts = LOADERS['sec-facts'] as NonNullable<(typeof LOADERS)['sec-facts']>;
    try {
      await expect(loadFile(other.deps, facts, NVDA)).rejects.toThrow(
        'CIK 0001045810 (NVIDIA CORP) has no ticker in the store: load company_tickers.json first, or give --ticker',
      );
      await loadFile(other.deps, LOADERS.sec as NonNullable<typeof LOADERS.sec>, TICKERS);
      await loadFile(other.deps, facts, NVDA);
      const answer = await HISTORY.run(other.deps, {
        tickers: ['NVDA'],
        fields: ['totalRevenue'],
        period: 'annual',
        start: '2025-06-01',
        end: '2026-06-01',
      });
      // NVIDIA's fiscal 2026 revenue, as its 10-K of 2026-02-25 states it: 215,938 million USD.
      expect(JSON.parse(JSON.stringify(answer.items[0])).rows).toEqual([
        { date: '2026-01-25', totalRevenue: 215938000000 },
      ]);
    } finally {
      await other.close();
    }
  });

  it('annual statements dated at fiscal year end; the latest in /v1/data with its period', async () => {
    const history = await get(
      '/v1/history?tickers=NVDA&fields=totalRevenue&period=annual&start=2024-01-01&end=2026-12-31',
    );
    expect(history.items[0].rows).toEqual([
      { date: '2024-01-28', totalRevenue: 60922000000 },
      { date: '2025-01-26', totalRevenue: 130497000000 },
      { date: '2026-01-25', totalRevenue: 215938000000 },
    ]);
    const data = await get('/v1/data?tickers=NVDA&fields=SALES_REV_TURN,BS_TOT_ASSET');
    expect(data.items[0]).toMatchObject({
      values: { SALES_REV_TURN: 215938 },
      periods: { SALES_REV_TURN: '2026-01-25', BS_TOT_ASSET: '2026-01-25' },
    });
  });
});
