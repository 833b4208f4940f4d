// CPI derived figures on hand-worked numbers.
import { describe, expect, it } from 'vitest';
import {
  annualized,
  contribution,
  monthsBefore,
  percentChange,
  readPace,
  weightAt,
} from '../../../src/datasets/cpi/derive.js';

// All items, not seasonally adjusted (BLS CPI-U, CUUR0000SA0): Dec 2023 306.746, Dec 2024 315.605.
const allItems = new Map([
  ['2023-12', 306.746],
  ['2024-06', 314.175],
  ['2024-09', 315.301],
  ['2024-11', 315.493],
  ['2024-12', 315.605],
]);

describe('cpi derive', () => {
  it('steps back across year ends', () => {
    expect(monthsBefore('2024-01', 1)).toBe('2023-12');
    expect(monthsBefore('2024-12', 12)).toBe('2023-12');
    expect(monthsBefore('2024-03', 6)).toBe('2023-09');
  });

  it('percent changes, one decimal', () => {
    // 315.605 / 306.746 = 1.02888... -> 2.9 %
    expect(percentChange(allItems, '2024-12', 12)).toBe(2.9);
    // 315.605 / 315.493 = 1.000355 -> 0.0 %
    expect(percentChange(allItems, '2024-12', 1)).toBe(0);
    expect(percentChange(allItems, '2024-10', 1)).toBeNull();
  });

  it('annualized rates compound the span to a year', () => {
    // 3 months: (315.605 / 315.301)^4 = 1.003861 -> 0.4 %; 6 months: (315.605 / 314.175)^2 = 1.009117 -> 0.9 %
    expect(annualized(allItems, '2024-12', 3)).toBe(0.4);
    expect(annualized(allItems, '2024-12', 6)).toBe(0.9);
  });

  it('relative importance moves with the relative price', () => {
    const food = new Map([
      ['2023-12', 100],
      ['2024-12', 110],
    ]);
    // 13.531 x (110 / 100) / (315.605 / 306.746) = 14.8841 / 1.028881 = 14.4663
    expect(weightAt(13.531, '2023-12', '2024-12', food, allItems)).toBeCloseTo(14.4663, 3);
    expect(weightAt(13.531, '2023-12', '2024-05', food, allItems)).toBe(13.531);
  });

  it('contribution is weight x change in percentage points', () => {
    // 13.531 % of the basket rising 2.5 % adds 0.338 points.
    expect(contribution(13.531, 2.5)).toBe(0.338);
    expect(contribution(null, 2.5)).toBeNull();
  });

  it('reads the pace', () => {
    expect(readPace(4.2, 3.1)).toMatch(/^accelerating/);
    expect(readPace(2.0, 3.1)).toMatch(/^cooling/);
    expect(readPace(3.0, 3.1)).toMatch(/^steady/);
    expect(readPace(null, 3)).toBeNull();
  });
});
