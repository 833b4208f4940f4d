// cot derived figures on hand-worked numbers.
import { describe, expect, it } from 'vitest';
import {
  everyWeekHeld,
  net,
  netPercentOfOpenInterest,
  percentile,
  weeklyChange,
} from '../../../src/datasets/cot/derive.js';

describe('cot derive', () => {
  it('net is long minus short', () => {
    // WTI (067651) noncommercial, 2025-03-18: 316473 long, 149650 short.
    expect(net(316473, 149650)).toBe(166823);
  });

  it('net as a percent of open interest, two decimals', () => {
    // 166823 / 1768386 = 0.094336... -> 9.43 %
    expect(netPercentOfOpenInterest(166823, 1768386)).toBe(9.43);
    expect(netPercentOfOpenInterest(-500, 2000)).toBe(-25);
    expect(netPercentOfOpenInterest(10, 0)).toBeNull();
  });

  it('weekly change is the difference of nets, null without a previous report', () => {
    // 2025-03-11: 302868 - 138742 = 164126; 166823 - 164126 = 2697
    expect(weeklyChange(166823, '2025-03-18', { net: 164126, date: '2025-03-11' })).toBe(2697);
    expect(weeklyChange(5, '2025-03-18', null)).toBeNull();
    // The report before is three weeks earlier: no weekly change.
    expect(weeklyChange(166823, '2025-03-18', { net: 164126, date: '2025-02-25' })).toBeNull();
  });

  const weekly = (start: string, nets: number[]) =>
    nets.map((value, i) => ({
      date: new Date(Date.parse(`${start}T00:00:00Z`) + i * 7 * 86_400_000).toISOString().slice(0, 10),
      net: value,
    }));

  it('percentile of a short history: mid-rank, incomplete window', () => {
    // nets 10, 30, 20, 40, 30 (current 30): below = 2 (10, 20), equal = 2 -> (2 + 0.5) / 4 = 62.5
    const p = percentile(weekly('2025-01-07', [10, 30, 20, 40, 30]), 1);
    expect(p).toEqual({
      value: 62.5,
      rank: 3,
      sampleCount: 5,
      windowStart: '2024-02-13', // 2025-02-04 minus 51 weeks (357 days)
      windowEnd: '2025-02-04',
      historyStart: '2025-01-07',
      historyEnd: '2025-02-04',
      completeWindow: false,
      min: 10,
      max: 40,
      mean: 26,
    });
  });

  it('a full 52-week window drops older reports and is complete', () => {
    // 60 weekly nets 1..60; the 1-year window holds the last 52: 9..60, current 60 is the highest.
    const p = percentile(
      weekly(
        '2024-01-02',
        Array.from({ length: 60 }, (_, i) => i + 1),
      ),
      1,
    );
    expect(p.sampleCount).toBe(52);
    expect(p.value).toBe(100);
    expect(p.rank).toBe(52);
    expect(p.min).toBe(9);
    expect(p.max).toBe(60);
    expect(p.mean).toBe(34.5);
    expect(p.completeWindow).toBe(true);
  });

  it('a window with a week the store does not hold is not complete, however far back the history goes', () => {
    const nets = weekly(
      '2024-01-02',
      Array.from({ length: 60 }, (_, i) => i + 1),
    );
    const held = nets.map((p) => p.date);
    expect(percentile(nets, 1, undefined, held).completeWindow).toBe(true);
    // The report of 2024-06-04 (week 23) is not in the store.
    const gap = held.filter((d) => d !== '2024-06-04');
    const p = percentile(
      nets.filter((n) => n.date !== '2024-06-04'),
      1,
      '2024-01-02',
      gap,
    );
    expect(p).toMatchObject({ sampleCount: 51, completeWindow: false });
    // A holiday week reported as of Monday still counts as held.
    const monday = held.map((d) => (d === '2024-06-04' ? '2024-06-03' : d));
    expect(everyWeekHeld(monday, '2024-02-27', '2025-02-18')).toBe(true);
    expect(everyWeekHeld(gap, '2024-02-27', '2025-02-18')).toBe(false);
  });

  it('the lowest value is 0 and a single report has no percentile', () => {
    expect(percentile(weekly('2025-01-07', [5, 3, 1]), 1).value).toBe(0);
    const single = percentile(weekly('2025-01-07', [7]), 3);
    expect(single).toMatchObject({ value: null, rank: 1, sampleCount: 1, min: 7, max: 7, mean: 7 });
  });
});
