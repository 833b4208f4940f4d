// Synthetic treasury-rates fixture: a short curve. Figures are invented.
const tenor = (name: string, years: number, value: number, day: number) => ({
  tenor: name,
  years,
  yield: value,
  changeBp: { day, week: day * 2, month: day * 3, year: null },
});

export const ratesSample = {
  source: 'treasury',
  status: 'available' as const,
  gaps: [],
  date: '2025-01-02',
  previous: { day: '2024-12-31', week: '2024-12-26', month: '2024-12-02', year: null },
  spreads: {
    '2s10s': { long: '10Y', short: '2Y', bp: -10, inverted: true },
    '3m10y': { long: '10Y', short: '3M', bp: 5, inverted: false },
  },
  tenors: [tenor('3M', 0.25, 4.0, 1), tenor('2Y', 2, 4.15, -2), tenor('10Y', 10, 4.05, 3)],
};
