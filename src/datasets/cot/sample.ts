// Synthetic cot fixture: three rows in the board's shape. Figures are invented.
const pct = (value: number, rank: number) => ({
  value,
  rank,
  sampleCount: 52,
  windowStart: '2025-01-07',
  windowEnd: '2025-12-30',
  historyStart: '2023-01-03',
  historyEnd: '2025-12-30',
  completeWindow: true,
  min: -12000,
  max: 48000,
  mean: 15000,
});

const row = (contractCode: string, marketName: string, long: number, short: number, oi: number) => ({
  contractCode,
  marketName,
  exchangeCode: 'SMPL',
  commodityCode: contractCode.slice(0, 3),
  reportDate: '2025-12-30',
  openInterest: oi,
  position: {
    id: 'noncommercial',
    label: 'Noncommercial',
    long,
    short,
    spreading: 1000,
    net: long - short,
    netPercentOfOpenInterest: Math.round(((long - short) / oi) * 1000) / 10,
    longPercentOfOpenInterest: Math.round((long / oi) * 1000) / 10,
    shortPercentOfOpenInterest: Math.round((short / oi) * 1000) / 10,
    weeklyChange: 250,
    previousReportDate: '2025-12-23',
    percentile1Y: pct(61.5, 32),
    percentile3Y: pct(55.1, 86),
  },
  status: 'available',
});

export const cotSample = {
  source: 'cftc',
  scope: 'futures-only',
  reportFamily: 'legacy',
  generatedAt: '2026-01-02T12:00:00.000Z',
  asOf: '2025-12-30',
  fetchedAt: '2026-01-02T12:00:00.000Z',
  publishedAt: null,
  status: 'partial',
  gaps: ['sample: three contracts only'],
  classes: [
    { id: 'noncommercial', label: 'Noncommercial' },
    { id: 'commercial', label: 'Commercial' },
    { id: 'nonreportable', label: 'Nonreportable' },
  ],
  traderClass: 'noncommercial',
  rows: [
    row('SMPL01', 'SAMPLE CRUDE - SAMPLE EXCHANGE', 30000, 12000, 150000),
    row('SMPL02', 'SAMPLE WHEAT - SAMPLE EXCHANGE', 8000, 14000, 60000),
    row('SMPL0+', 'SAMPLE INDEX - SAMPLE EXCHANGE', 22000, 21000, 90000),
  ],
};
