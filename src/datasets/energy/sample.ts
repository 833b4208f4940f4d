// Synthetic energy-inventories fixture: three series. Figures are invented.
const series = (key: string, label: string, value: number, weekChange: number, fiveYear: number) => ({
  id: `SAMPLE.${key}.W`,
  key,
  report: 'wpsr-2026-01-02',
  tab: 'petroleum',
  label,
  unit: 'thousand barrels',
  weekEnding: '2025-12-26',
  value,
  previousWeekEnding: '2025-12-19',
  weekChange,
  yearAgo: value - 5000,
  fiveYear,
  read: value > fiveYear ? 'above five-year average' : 'below five-year average',
  seasonal: 'draw season',
});

export const energySample = {
  source: 'eia',
  generatedAt: '2026-01-02T12:00:00.000Z',
  status: 'partial',
  gaps: ['sample: three series only'],
  reports: [
    {
      id: 'wpsr-2026-01-02',
      weekEnding: '2025-12-26',
      releasedAt: '2026-01-02T15:30:00.000Z',
      releaseHoliday: true,
      nextWeekEnding: '2026-01-02',
      nextReleaseAt: '2026-01-07T15:30:00.000Z',
      nextReleaseHoliday: false,
    },
  ],
  series: [
    series('crude', 'Sample commercial crude oil', 420000, -1800, 430000),
    series('gasoline', 'Sample motor gasoline', 230000, 2100, 228000),
    series('distillate', 'Sample distillate fuel oil', 118000, 900, 125000),
  ],
};
