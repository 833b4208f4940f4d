// Synthetic events fixture: three 8-K rows of one invented company.
const event = (n: number, items: string[], headline: string, material: boolean) => ({
  id: `evt-smpl-${n}`,
  ticker: 'SMPL',
  company: 'Sample Corp',
  filedAt: `2025-12-0${n}T21:15:00.000Z`,
  filingDate: `2025-12-0${n}`,
  form: '8-K',
  docUrl: `https://example.invalid/filings/smpl-8k-${n}`,
  items,
  labels: items.map((item) => `Item ${item}`),
  kinds: material ? ['material'] : ['routine'],
  material,
  headline,
  summary: null,
  people: [],
  read: false,
});

export const eventsSample = {
  company: { ticker: 'SMPL', cik: '0000000000', name: 'Sample Corp', shortName: 'Sample' },
  events: [
    event(3, ['5.02'], 'Sample Corp names a new chief financial officer', true),
    event(2, ['2.02', '9.01'], 'Sample Corp reports quarterly results', true),
    event(1, ['8.01'], 'Sample Corp announces a facility opening', false),
  ],
};
