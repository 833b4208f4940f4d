// Yahoo's 100× unit slips on minor-unit listings, found in a real file: the BARC.L daily history (in pence) has
// one day, 2022-06-14, at 1.5676 among days near 156. Served repaired and noted; nothing else in the file
// (over two years of bars) is touched, and a listing in main units is never repaired.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../src/ingest/run.js';
import { repairUnitSlips } from '../../src/market/compute/repair.js';
import { HISTORY } from '../../src/market/verbs.js';
import { LOADERS } from '../../src/runtime/loaders.js';
import { type TestEnv, testEnv } from '../helpers/env.js';

const FIXTURES = path.resolve('test/fixtures/market');

describe('100× unit slips', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await testEnv();
    const prices = LOADERS.prices as NonNullable<typeof LOADERS.prices>;
    await loadFile(env.deps, prices, path.join(FIXTURES, 'BARC.L.csv'), { ticker: 'BARC.L' });
  });
  afterAll(() => env.close());

  it('serves the slipped BARC.L day in scale and says what was repaired', async () => {
    const answer = await HISTORY.run(env.deps, {
      tickers: ['BARC LN Equity', 'BARC.L'],
      fields: ['PX_OPEN', 'PX_HIGH', 'PX_LOW', 'PX_LAST'],
      start: '2022-06-13',
      end: '2022-06-15',
    });
    const [pence, pounds] = JSON.parse(JSON.stringify(answer.items));
    // The file's own figures for the day, 1.5766 / 1.5934 / 1.5426 / 1.5676, read as pence ×100.
    expect(pence.rows[1]).toEqual({
      date: '2022-06-14',
      PX_OPEN: 157.66,
      PX_HIGH: 159.34,
      PX_LOW: 154.26,
      PX_LAST: 156.76,
    });
    expect(pounds.rows[1]).toMatchObject({ date: '2022-06-14', PX_LAST: 1.5676 });
    expect(pounds.repaired).toEqual([
      { date: '2022-06-14', field: 'open', from: 0.015766, to: 1.5766 },
      { date: '2022-06-14', field: 'high', from: 0.015934, to: 1.5934 },
      { date: '2022-06-14', field: 'low', from: 0.015426, to: 1.5426 },
      { date: '2022-06-14', field: 'close', from: 0.015676, to: 1.5676 },
    ]);
  });

  it('repairs nothing else in the whole file', async () => {
    const repairs = await env.deps.market.repairs?.('BARC.L');
    expect(repairs?.map((r) => r.date)).toEqual(['2022-06-14', '2022-06-14', '2022-06-14', '2022-06-14']);
    const bars = await env.deps.market.series('BARC.L');
    // BARC.L.csv has 667 daily rows; 2022-03-08 is all null (no trade): 666 bars.
    expect(bars).toHaveLength(666);
  });

  it('leaves a real move alone and scales a day 100 times too large', () => {
    const day = (date: string, close: number) => ({
      date,
      open: close,
      high: close,
      low: close,
      close,
      volume: 1,
    });
    const bars = [
      day('2024-01-01', 100),
      day('2024-01-02', 101),
      day('2024-01-03', 10_150),
      day('2024-01-04', 102),
      day('2024-01-05', 60),
      day('2024-01-08', 61),
    ];
    const { bars: fixed, repairs } = repairUnitSlips(bars);
    expect(fixed.map((b) => b.close)).toEqual([100, 101, 101.5, 102, 60, 61]);
    expect(repairs.filter((r) => r.field === 'close')).toEqual([
      { date: '2024-01-03', field: 'close', from: 10_150, to: 101.5 },
    ]);
    expect(repairUnitSlips(bars.filter((b) => b.date !== '2024-01-03')).repairs).toEqual([]);
  });
});
