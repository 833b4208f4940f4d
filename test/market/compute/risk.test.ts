import { describe, expect, it } from 'vitest';
import { betaAdjusted, betaRaw, logReturns, slope, volatility } from '../../../src/market/compute/risk.js';

describe('volatility and beta', () => {
  it('log returns', () => {
    // ln(110/100) = 0.0953102, ln(99/110) = -0.1053605
    const r = logReturns([100, 110, 99]);
    expect(r[0]).toBeCloseTo(0.0953102, 6);
    expect(r[1]).toBeCloseTo(-0.1053605, 6);
  });

  it('volatility of the last N log returns, annualised with sqrt(260), in percent', () => {
    // Returns +0.0953102 and -0.1053605: mean -0.0050252, sample variance
    // ((0.1003354)^2 + (0.1003353)^2) / 1 = 0.0201344, sd 0.1418958; x sqrt(260) = 2.2880; x 100 = 228.80
    expect(volatility([100, 110, 99], 2)).toBeCloseTo(228.8, 1);
    // Only the last N+1 closes count.
    expect(volatility([1, 2, 100, 110, 99], 2)).toBeCloseTo(228.8, 1);
    expect(volatility([100, 110], 2)).toBeNull();
  });

  it('slope and beta', () => {
    expect(slope([1, 2, 3], [2, 4, 6])).toBe(2);
    expect(slope([1, 1], [2, 3])).toBeNull();
    // A stock that moves exactly twice as far as its index, week by week, has beta 2.
    const index = [100];
    const stock = [50];
    for (let i = 1; i <= 104; i += 1) {
      const r = (i % 3) - 1 === 0 ? 0.01 : (i % 3) - 1 > 0 ? 0.02 : -0.015;
      index.push((index[i - 1] as number) * (1 + r));
      stock.push((stock[i - 1] as number) * (1 + 2 * r));
    }
    // Fridays from 2024-01-05, one a week.
    const friday = (i: number) => new Date(Date.UTC(2024, 0, 5 + 7 * i)).toISOString().slice(0, 10);
    const dated = (closes: number[], from = 0) =>
      closes.map((close, i) => ({ date: friday(i + from), close }));
    expect(betaRaw(dated(stock), dated(index))).toEqual({
      raw: expect.closeTo(2, 10),
      from: '2024-01-05',
      to: friday(104),
    });
    expect(betaAdjusted(2)).toBeCloseTo(1.67, 10);
    expect(betaRaw(dated(stock.slice(1), 1), dated(index))).toBeNull();
  });

  it('beta pairs the weeks both series hold, not the last closes of each', () => {
    // The index runs eight weeks past the stock's last close: its last 105 closes are not the stock's weeks.
    const index = [100];
    const stock = [50];
    for (let i = 1; i <= 112; i += 1) {
      const r = i % 2 ? 0.02 : -0.01;
      index.push((index[i - 1] as number) * (1 + r));
      stock.push((stock[i - 1] as number) * (1 + 1.5 * r));
    }
    const friday = (i: number) => new Date(Date.UTC(2024, 0, 5 + 7 * i)).toISOString().slice(0, 10);
    const dated = (closes: number[]) => closes.map((close, i) => ({ date: friday(i), close }));
    const beta = betaRaw(dated(stock.slice(0, 105)), dated(index));
    expect(beta?.raw).toBeCloseTo(1.5, 10);
    expect(beta?.to).toBe(friday(104));
    // A week the stock closed on Thursday (a holiday Friday) is paired with the index's Friday; dated Thursday.
    const thursday = dated(stock.slice(0, 105)).map((c, i) =>
      i === 104 ? { ...c, date: new Date(Date.UTC(2024, 0, 4 + 7 * i)).toISOString().slice(0, 10) } : c,
    );
    expect(betaRaw(thursday, dated(index))?.to).toBe(
      new Date(Date.UTC(2024, 0, 4 + 7 * 104)).toISOString().slice(0, 10),
    );
    // A week missing from the stock's closes is left out of both series.
    const gap = dated(stock.slice(0, 106)).filter((_, i) => i !== 50);
    expect(betaRaw(gap, dated(index))?.from).toBe(friday(0));
  });
});
