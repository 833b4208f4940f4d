import { describe, expect, it } from 'vitest';
import { type Fact, statementSeries } from '../../../src/market/compute/statements.js';

const d = (start: string, end: string, value: number, fp: string): Fact => ({
  kind: 'duration',
  start,
  end,
  value,
  fp,
});

// NVIDIA revenue, fiscal 2026 (SEC company facts, millions of USD): Q1 44,062; Q2 46,743; Q3 57,006; full year
// 215,938; plus the year-to-date facts the 10-Qs also report.
const REVENUE: Fact[] = [
  d('2025-01-27', '2025-04-27', 44062, 'Q1'),
  d('2025-01-27', '2025-07-27', 90805, 'Q2'),
  d('2025-04-28', '2025-07-27', 46743, 'Q2'),
  d('2025-01-27', '2025-10-26', 147811, 'Q3'),
  d('2025-07-28', '2025-10-26', 57006, 'Q3'),
  d('2025-01-27', '2026-01-25', 215938, 'FY'),
];

describe('statement series', () => {
  it('a missing fiscal Q4 is the full year less Q1 to Q3: 215,938 - 147,811 = 68,127', () => {
    expect(statementSeries('totalRevenue', REVENUE, 'quarterly')).toEqual([
      { end: '2025-04-27', value: 44062, derived: false },
      { end: '2025-07-27', value: 46743, derived: false },
      { end: '2025-10-26', value: 57006, derived: false },
      { end: '2026-01-25', value: 68127, derived: true },
    ]);
  });

  it('annual periods are the full years; year-to-date facts are never mistaken for quarters', () => {
    expect(statementSeries('totalRevenue', REVENUE, 'annual')).toEqual([
      { end: '2026-01-25', value: 215938, derived: false },
    ]);
  });

  it('average share counts get no derived Q4', () => {
    expect(statementSeries('dilutedShares', REVENUE, 'quarterly').map((p) => p.end)).toEqual([
      '2025-04-27',
      '2025-07-27',
      '2025-10-26',
    ]);
  });

  it('balance-sheet fields: quarter ends, and the year-end figure for the year', () => {
    const assets: Fact[] = [
      { kind: 'instant', start: '', end: '2025-10-26', value: 161148, fp: 'Q3' },
      { kind: 'instant', start: '', end: '2026-01-25', value: 206803, fp: 'FY' },
    ];
    expect(statementSeries('totalAssets', assets, 'quarterly').map((p) => [p.end, p.derived])).toEqual([
      ['2025-10-26', false],
      ['2026-01-25', false],
    ]);
    expect(statementSeries('totalAssets', assets, 'annual')).toEqual([
      { end: '2026-01-25', value: 206803, derived: false },
    ]);
  });
});
