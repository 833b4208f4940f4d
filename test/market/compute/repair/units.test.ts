// Yahoo's 100× unit slips on minor-unit listings, found in a real file: the BARC.L daily history (in pence) has
// one day, 2022-06-14, at 1.5676 among days near 156. Served repaired and noted; nothing else in the file
// (over two years of bars) is touched, and a listing in main units is never repaired.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../../../src/ingest/run.js';
import type { Bar } from '../../../../src/kernel/market-provider.js';
import { repairUnitSlips } from '../../../../src/market/compute/repair/units.js';
import { HISTORY } from '../../../../src/market/history/index.js';
import { instrumentOf } from '../../../../src/market/instrument/instrument.js';
import { LOADERS } from '../../../../src/runtime/loaders.js';
import { splitLine } from '../../../helpers/csv.js';
import { type TestEnv, testEnv } from '../../../helpers/env.js';
import { asset } from '../../../helpers/real-data.js';

const FIXTURES = path.resolve('test/fixtures/market');
const SLIPPED = expect.stringContaining('sent in the other unit');

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
      { date: '2022-06-14', field: 'open', from: 0.015766, to: 1.5766, reason: SLIPPED },
      { date: '2022-06-14', field: 'high', from: 0.015934, to: 1.5934, reason: SLIPPED },
      { date: '2022-06-14', field: 'low', from: 0.015426, to: 1.5426, reason: SLIPPED },
      { date: '2022-06-14', field: 'close', from: 0.015676, to: 1.5676, reason: SLIPPED },
    ]);
  });

  it('repairs nothing else in the whole file', async () => {
    const barc = instrumentOf('BARC.L');
    const { repairs } = await env.deps.market.listing(barc);
    expect(repairs.map((r) => r.date)).toEqual(['2022-06-14', '2022-06-14', '2022-06-14', '2022-06-14']);
    const bars = await env.deps.market.series(barc);
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
      { date: '2024-01-03', field: 'close', from: 10_150, to: 101.5, reason: SLIPPED },
    ]);
    expect(repairUnitSlips(bars.filter((b) => b.date !== '2024-01-03')).repairs).toEqual([]);
  });
});

// Vodafone in London (pence), as yfinance saved it: Price,Adj Close,Close,High,Low,Open,Volume after three
// header rows. Runs of its real days are divided by 100, as Yahoo sends a run of days in pounds.
const VOD = asset('market/Imman-dot-quant-pairs-trading/VOD.L.csv');

function vodBars(from: string, to: string): Bar[] {
  return readFileSync(VOD, 'utf8')
    .split('\n')
    .slice(3)
    .map(splitLine)
    .filter(([date]) => date !== undefined && date >= from && date <= to)
    .map(([date, , close, high, low, open, volume]) => ({
      date: date as string,
      open: Number(open),
      high: Number(high),
      low: Number(low),
      close: Number(close),
      volume: Number(volume),
    }));
}

const inPounds = (bar: Bar): Bar => ({
  ...bar,
  open: (bar.open as number) / 100,
  high: (bar.high as number) / 100,
  low: (bar.low as number) / 100,
  close: bar.close / 100,
});

describe('runs of slipped days', () => {
  // 2023-01-03 to 2023-06-30: 124 trading days.
  const real = vodBars('2023-01-03', '2023-06-30');
  const closes = (bars: readonly Bar[]) => bars.map((b) => b.close);

  for (const length of [1, 5, 25]) {
    for (const [where, first] of [
      ['start', 0],
      ['middle', 50],
      ['end', real.length - length],
    ] as const) {
      it(`a run of ${length} day(s) at the ${where} is scaled back, every field, and nothing else`, () => {
        const run = real.slice(first, first + length).map((b) => b.date);
        const slipped = real.map((b, i) => (i >= first && i < first + length ? inPounds(b) : b));
        const { bars, repairs } = repairUnitSlips(slipped);
        expect(real).toHaveLength(124);
        bars.forEach((bar, i) => {
          for (const field of ['open', 'high', 'low', 'close'] as const)
            expect(bar[field]).toBeCloseTo((real[i] as Bar)[field] as number, 5);
        });
        expect(repairs).toHaveLength(4 * length);
        expect([...new Set(repairs.map((r) => r.date))]).toEqual(run);
        expect(repairUnitSlips(real).repairs).toEqual([]);
      });
    }
  }

  it("a month in the other unit beside a month in the listing's own: the minor unit (pence) wins", () => {
    // May 2023 in pounds (20 days), June in pence (22 days): neither is a slip among the other by count.
    const may = vodBars('2023-05-01', '2023-05-31');
    const june = vodBars('2023-06-01', '2023-06-30');
    const { bars, repairs } = repairUnitSlips([...may.map(inPounds), ...june]);
    expect(closes(bars).map((c) => Math.round(c * 1000))).toEqual(
      closes([...may, ...june]).map((c) => Math.round(c * 1000)),
    );
    expect(repairs.filter((r) => r.field === 'close').map((r) => r.date)).toEqual(may.map((b) => b.date));
  });

  it('through /v1/history, a window starting inside the run is served repaired and says so', async () => {
    const env = await testEnv();
    try {
      const lines = readFileSync(VOD, 'utf8').split('\n');
      // Days 50 to 74 of 2023 (2023-03-15 to 2023-04-20 in the file) in pounds.
      const run = new Set(real.slice(50, 75).map((b) => b.date));
      const scaled = lines.map((line) => {
        const f = splitLine(line);
        if (!run.has(f[0] as string)) return line;
        return [f[0], ...f.slice(1, 6).map((v) => String(Number(v) / 100)), f[6]].join(',');
      });
      const file = path.join(env.dataDir, 'VOD.L.csv');
      writeFileSync(file, scaled.join('\n'));
      await loadFile(env.deps, LOADERS.prices as NonNullable<typeof LOADERS.prices>, file, {
        ticker: 'VOD.L',
      });
      const start = real[60]?.date as string;
      const end = real[80]?.date as string;
      const answer = JSON.parse(
        JSON.stringify(
          await HISTORY.run(env.deps, { tickers: ['VOD LN Equity'], fields: ['PX_LAST'], start, end }),
        ),
      );
      const item = answer.items[0];
      expect(item.rows.map((r: { PX_LAST: number }) => Math.round(r.PX_LAST * 1000))).toEqual(
        closes(real.slice(60, 81)).map((c) => Math.round(c * 1000)),
      );
      expect(new Set(item.repaired.map((r: { date: string }) => r.date))).toEqual(
        new Set(real.slice(60, 75).map((b) => b.date)),
      );
    } finally {
      await env.close();
    }
  });
});
