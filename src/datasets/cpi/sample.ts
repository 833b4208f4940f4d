// Synthetic cpi fixture: three component rows. Figures are invented.
const row = (
  code: string,
  label: string,
  depth: number,
  parent: string | null,
  weight: number,
  change: number,
) => ({
  id: `SAMPLE${code}`,
  code,
  label,
  depth,
  parent,
  pinned: depth === 0,
  derived: false,
  weight,
  change,
  annualized3m: change * 12,
  annualized6m: change * 11,
  yoy: change * 10,
  contribution: Math.round(weight * change) / 100,
  contributionYoy: Math.round(weight * change * 10) / 100,
  read: change > 0.3 ? 'hot' : 'cool',
  history: [
    ['2025-10', change - 0.1, change * 10 - 0.2],
    ['2025-11', change, change * 10 - 0.1],
    ['2025-12', change, change * 10],
  ] as [string, number, number][],
});

export const cpiSample = {
  source: 'bls',
  generatedAt: '2026-01-14T13:30:00.000Z',
  retrievedAt: '2026-01-14T13:31:00.000Z',
  status: 'partial',
  gaps: ['sample: three components only'],
  release: {
    period: '2025-12',
    releasedAt: '2026-01-14T13:30:00.000Z',
    weightsPeriod: '2024-12',
    nextPeriod: '2026-01',
    nextReleaseAt: '2026-02-11T13:30:00.000Z',
  },
  rows: [
    row('SA0', 'Sample all items', 0, null, 100, 0.3),
    row('SAF1', 'Sample food', 1, 'SA0', 13.5, 0.2),
    row('SA0E', 'Sample energy', 1, 'SA0', 6.4, 0.5),
  ],
};
