// energy-inventories derived figures on hand-worked numbers.
import { describe, expect, it } from 'vitest';
import {
  fiveYearAverage,
  readLevel,
  readSeason,
  sameWeek,
  seasonalChange,
  weekChange,
  yearAgo,
} from '../../../src/datasets/energy/derive.js';

// Week-ending Fridays around early June, 2020-2025, and the week before each.
const history = [
  { weekEnding: '2020-05-29', value: 500 },
  { weekEnding: '2020-06-05', value: 510 },
  { weekEnding: '2021-05-28', value: 480 },
  { weekEnding: '2021-06-04', value: 470 },
  { weekEnding: '2022-05-27', value: 415 },
  { weekEnding: '2022-06-03', value: 420 },
  { weekEnding: '2023-05-26', value: 455 },
  { weekEnding: '2023-06-02', value: 450 },
  { weekEnding: '2024-05-31', value: 440 },
  { weekEnding: '2024-06-07', value: 445 },
  { weekEnding: '2025-05-30', value: 437 },
  { weekEnding: '2025-06-06', value: 432.415 },
  { weekEnding: '2026-05-29', value: 433.712 },
  { weekEnding: '2026-06-05', value: 426.485 },
];

describe('energy derive', () => {
  it('week change against the previous week (EIA table 1: 426.485 - 433.712 = -7.227)', () => {
    expect(weekChange(426.485, 433.712)).toBe(-7.227);
    expect(weekChange(1, null)).toBeNull();
  });

  it('the same week a year ago is the Friday within three days of the same date', () => {
    // 2026-06-05 -> 2025-06-05; the week ending 2025-06-06 is one day later (EIA's year-ago column).
    expect(sameWeek(history, '2026-06-05', 1)).toEqual({ weekEnding: '2025-06-06', value: 432.415 });
    expect(yearAgo(history, '2026-06-05')).toBe(432.415);
    // 2024-06-05 -> the week ending 2024-06-07 (two days later).
    expect(sameWeek(history, '2026-06-05', 2)?.weekEnding).toBe('2024-06-07');
    expect(yearAgo(history, '2020-06-05')).toBeNull();
  });

  it('five-year average of the same week: (432.415 + 445 + 450 + 420 + 470) / 5 = 443.483', () => {
    expect(fiveYearAverage(history, '2026-06-05')).toBe(443.483);
    // Only four earlier years for 2025: no average.
    expect(fiveYearAverage(history, '2025-06-06')).toBeNull();
  });

  it('seasonal norm: mean of the same week changes (-4.585, 5, -5, 5, -10) = -1.917', () => {
    expect(seasonalChange(history, '2026-06-05')).toBe(-1.917);
    expect(readSeason(-1.917)).toBe('seasonal draw');
    expect(readSeason(2)).toBe('seasonal build');
    expect(readSeason(null)).toBeNull();
  });

  it('reads the level against the five-year average', () => {
    // (426.485 - 443.483) / 443.483 = -3.83 % -> 3.8 % below
    expect(readLevel(426.485, 443.483)).toBe('3.8% below the five-year average');
    expect(readLevel(110, 100)).toBe('10% above the five-year average');
    expect(readLevel(5, null)).toBeNull();
  });
});
