import { describe, expect, it } from 'vitest';
import { rollUp, weekOf } from '../../../src/market/compute/periods.js';

const bar = (date: string, open: number, high: number, low: number, close: number, volume: number) => ({
  date,
  open,
  high,
  low,
  close,
  volume,
});
// Apple, first days of 2021 (Yahoo daily bars): Mon 4 Jan to Fri 8 Jan, then Mon 11 Jan.
const BARS = [
  bar('2021-01-04', 133.52, 133.61, 126.76, 129.41, 143301900),
  bar('2021-01-05', 128.89, 131.74, 128.43, 131.01, 97664900),
  bar('2021-01-06', 127.72, 131.05, 126.38, 126.6, 155088000),
  bar('2021-01-07', 128.36, 131.63, 127.86, 130.92, 109578200),
  bar('2021-01-08', 132.43, 132.63, 130.23, 132.05, 105158200),
  bar('2021-01-11', 129.19, 130.17, 128.5, 128.98, 100384500),
];

describe('weekly and monthly bars from daily bars', () => {
  it('weeks run Monday to Sunday', () => {
    expect(weekOf('2021-01-04')).toBe('2021-01-04');
    expect(weekOf('2021-01-10')).toBe('2021-01-04');
    expect(weekOf('2021-01-11')).toBe('2021-01-11');
  });

  it('a week: first open, highest high, lowest low, last close, summed volume, dated on its last trading day', () => {
    expect(rollUp(BARS, 'weekly')).toEqual([
      // 143301900 + 97664900 + 155088000 + 109578200 + 105158200 = 610791200
      { date: '2021-01-08', open: 133.52, high: 133.61, low: 126.38, close: 132.05, volume: 610791200 },
      // the week in progress, as it stands
      { date: '2021-01-11', open: 129.19, high: 130.17, low: 128.5, close: 128.98, volume: 100384500 },
    ]);
  });

  it('a month, and daily bars unchanged', () => {
    expect(rollUp(BARS, 'monthly')).toEqual([
      { date: '2021-01-11', open: 133.52, high: 133.61, low: 126.38, close: 128.98, volume: 711175700 },
    ]);
    expect(rollUp(BARS, 'daily')).toEqual(BARS);
  });
});
