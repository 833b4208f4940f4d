// Synthetic exec-pay fixture: three proxy rows of one invented company.
const proxy = (proxyYear: number, total: number, prior: number | null) => ({
  id: `proxy-smpl-${proxyYear}`,
  ticker: 'SMPL',
  company: 'Sample Corp',
  proxyYear,
  fiscalYear: proxyYear - 1,
  fiscalYearLabel: `FY${proxyYear - 1}`,
  filedAt: `${proxyYear}-03-15T21:00:00.000Z`,
  meetingDate: `${proxyYear}-05-01`,
  updatedAt: `${proxyYear}-03-16T00:00:00.000Z`,
  ceoName: 'Pat Sample',
  ceoTitle: 'Chief Executive Officer',
  ceoTotal: total,
  ceoPriorYearTotal: prior,
  payRatio: Math.round(total / 80_000),
  medianEmployeePay: 80_000,
  source: 'filing',
});

export const execPaySample = {
  company: { ticker: 'SMPL', cik: '0000000000', name: 'Sample Corp', shortName: 'Sample' },
  proxies: [
    proxy(2025, 12_400_000, 11_900_000),
    proxy(2024, 11_900_000, 10_100_000),
    proxy(2023, 10_100_000, null),
  ],
};
