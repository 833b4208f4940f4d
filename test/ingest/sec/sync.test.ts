// quarry sync sec: EDGAR's files for a watch list, from a local stand-in for www.sec.gov and data.sec.gov
// serving the recorded real files; paced to at most ten requests in any second, named by the operator's
// contact, and incremental (a filing fetched once is not fetched again).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextRelease } from '../../../src/ingest/calendar.js';
import { SEC_EDGAR } from '../../../src/ingest/sec/calendar.js';
import { syncSec } from '../../../src/ingest/sec/sync.js';
import { ConfigError } from '../../../src/kernel/config.js';
import { collectionJobs } from '../../../src/runtime/collector.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { MockAgency } from '../../helpers/agency.js';
import { bearer, customer, redisUrl, type TestEnv, testEnv } from '../../helpers/env.js';
import { asset } from '../../helpers/real-data.js';

const TICKERS = asset('sec/company_tickers.json');
const SUBMISSIONS = asset('sec/submissions/CIK0001045810.json');
const FACTS = asset('sec/companyfacts/CIK0001045810.json');
const FILING = asset('sec/8-K/0001045810-26-000024/0001045810-26-000024.txt');
const FILING_PATH = '/Archives/edgar/data/1045810/000104581026000024/0001045810-26-000024.txt';

/**
 * NVIDIA's submissions as EDGAR serves them after 2026-03-06: the recorded file (it ends 2026-03-04) with the
 * row of the 8-K filed that day put first, its values read from that filing's SEC header.
 */
function submissionsWithMarch6(): Buffer {
  const body = JSON.parse(readFileSync(SUBMISSIONS, 'utf8'));
  const recent = body.filings.recent as Record<string, unknown[]>;
  const row: Record<string, unknown> = {
    accessionNumber: '0001045810-26-000024',
    filingDate: '2026-03-06',
    reportDate: '2026-03-02',
    acceptanceDateTime: '2026-03-06T16:11:25.000Z',
    act: '34',
    form: '8-K',
    fileNumber: '000-23985',
    filmNumber: '',
    items: '5.02,9.01',
    core_type: '8-K',
    size: 165811,
    isXBRL: 1,
    isInlineXBRL: 1,
    primaryDocument: 'nvda-20260302.htm',
    primaryDocDescription: '8-K',
  };
  for (const [column, values] of Object.entries(recent)) values.unshift(row[column] ?? '');
  return Buffer.from(JSON.stringify(body));
}

describe('quarry sync sec', () => {
  const edgar = new MockAgency();
  let env: TestEnv;
  const sync = (tickers: string[]) =>
    syncSec(env.deps, tickers, LOADERS.sec as NonNullable<typeof LOADERS.sec>);

  beforeAll(async () => {
    await edgar.start();
    edgar.serve('/files/company_tickers.json', TICKERS);
    edgar.serve('/submissions/CIK0001045810.json', submissionsWithMarch6());
    edgar.serve('/api/xbrl/companyfacts/CIK0001045810.json', FACTS);
    edgar.serve(FILING_PATH, FILING);
    env = await testEnv({ env: edgar.env() });
  });
  afterAll(async () => {
    await env.close();
    await edgar.stop();
  });

  it('fetches the registrants, the submissions, the facts and each new 8-K, and loads them', async () => {
    const report = await sync(['NVDA', 'ZZZQ']);
    const outcome = (name: string) => report.files.find((f) => f.name === name)?.outcome;
    expect(outcome('company_tickers.json')).toBe('loaded');
    expect(outcome('CIK0001045810.json')).toBe('loaded');
    expect(report.files.filter((f) => f.name === 'CIK0001045810.json')).toHaveLength(2);
    expect(outcome('0001045810-26-000024.txt')).toBe('loaded');
    expect(report.files.find((f) => f.name === 'ZZZQ')).toMatchObject({
      outcome: 'not_published',
      reason: 'no such ticker among EDGAR registrants',
    });
    // The other 8-Ks of the twenty newest are not on the stand-in: reported, and nothing fails.
    const filings = report.files.filter((f) => f.name.endsWith('.txt'));
    expect(filings).toHaveLength(20);
    expect(filings.filter((f) => f.outcome === 'not_published')).toHaveLength(19);
    expect(report.files.some((f) => f.outcome === 'failed')).toBe(false);

    const key = (await customer(env.deps)).key;
    const events = await env.app.inject({ url: '/v1/events/NVDA?limit=100', headers: bearer(key) });
    const filed = events.json().data.events.find((e: { id: string }) => e.id === '0001045810-26-000024');
    expect(filed).toMatchObject({
      filedAt: '2026-03-06T21:11:25.000Z',
      headline: 'Adoption of Fiscal Year 2027 Variable Compensation Plan',
    });
    expect(filed.people).toHaveLength(5);
    const kpis = await env.app.inject({
      url: '/v1/kpis/NVDA?metric=revenue&from=2000-01-01',
      headers: bearer(key),
    });
    // NVIDIA's revenue from its company facts: 19 fiscal years (FY2008 to FY2026) and 66 quarters.
    expect(
      kpis
        .json()
        .data.series.map((s: { key: string; observations: unknown[] }) => [s.key, s.observations.length]),
    ).toEqual([
      ['revenue:reported:frequency=annual', 19],
      ['revenue:reported:frequency=quarterly', 66],
    ]);
  });

  it("every request names the operator's contact, and no second holds more than ten", () => {
    // The registrants, NVIDIA's submissions and facts, the twenty newest 8-Ks and its newest inline proxy
    // (nvda-20250512.htm): 24 requests.
    expect(edgar.requests).toHaveLength(24);
    for (const r of edgar.requests) expect(r.headers['user-agent']).toContain('ops@quarry.example');
    const times = edgar.requests.map((r) => r.at).sort((a, b) => a - b);
    const busiest = Math.max(...times.map((t, i) => times.filter((u, j) => j >= i && u < t + 1000).length));
    expect(busiest).toBeLessThanOrEqual(10);
  });

  it('again: unchanged files are asked for conditionally, and a filing fetched once is not fetched again', async () => {
    const before = edgar.requests.length;
    const report = await sync(['NVDA']);
    const outcome = (name: string) => report.files.filter((f) => f.name === name).map((f) => f.outcome);
    expect(outcome('company_tickers.json')).toEqual(['unchanged']);
    expect(outcome('CIK0001045810.json')).toEqual(['unchanged', 'unchanged']);
    expect(outcome('0001045810-26-000024.txt')).toEqual([]);
    const again = edgar.requests.slice(before);
    expect(again.filter((r) => r.path === FILING_PATH)).toEqual([]);
    expect(again.filter((r) => r.path === '/files/company_tickers.json').map((r) => r.status)).toEqual([304]);
  });

  it.skipIf(redisUrl() === null)(
    'two instances sharing Redis keep the pace together',
    async () => {
      const a = await testEnv({ redis: true, env: edgar.env() });
      const b = await testEnv({ redis: true, env: edgar.env() });
      try {
        const before = edgar.requests.length;
        const loaders = LOADERS.sec as NonNullable<typeof LOADERS.sec>;
        await Promise.all([syncSec(a.deps, ['NVDA'], loaders), syncSec(b.deps, ['NVDA'], loaders)]);
        const times = edgar.requests
          .slice(before)
          .map((r) => r.at)
          .sort((x, y) => x - y);
        // Each instance's store is new: each asks for the same 24 files.
        expect(times).toHaveLength(48);
        const busiest = Math.max(
          ...times.map((t, i) => times.filter((u, j) => j >= i && u < t + 1000).length),
        );
        expect(busiest).toBeLessThanOrEqual(10);
      } finally {
        await a.close();
        await b.close();
      }
    },
    30_000,
  );

  it('without QUARRY_CONTACT EDGAR is not asked at all', async () => {
    const bare = await testEnv({ env: { ...edgar.env(), QUARRY_CONTACT: '' } });
    try {
      const before = edgar.requests.length;
      await expect(
        syncSec(bare.deps, ['NVDA'], LOADERS.sec as NonNullable<typeof LOADERS.sec>),
      ).rejects.toThrow(ConfigError);
      expect(edgar.requests.length).toBe(before);
    } finally {
      await bare.close();
    }
  });
});

describe('the EDGAR watch list in the collection schedule', () => {
  it('is a job only when QUARRY_SEC_TICKERS names companies, run after EDGAR closes on business days', async () => {
    const without = await testEnv();
    const watching = await testEnv({ env: { QUARRY_SEC_TICKERS: 'aapl, NVDA' } });
    try {
      expect(collectionJobs(without.deps).map((j) => j.name)).not.toContain('sec-watch-list');
      expect(watching.config.secTickers).toEqual(['AAPL', 'NVDA']);
      expect(collectionJobs(watching.deps).find((j) => j.name === 'sec-watch-list')?.calendar).toBe(
        SEC_EDGAR,
      );
    } finally {
      await without.close();
      await watching.close();
    }
    // Friday 2026-11-27 (the day after Thanksgiving) is a business day; the Saturday and Sunday are not.
    expect(nextRelease(SEC_EDGAR, new Date('2026-11-27T12:00:00Z')).toISOString()).toBe(
      '2026-11-28T03:15:00.000Z',
    );
    expect(nextRelease(SEC_EDGAR, new Date('2026-11-28T04:00:00Z')).toISOString()).toBe(
      '2026-12-01T03:15:00.000Z',
    );
    await expect(testEnv({ env: { QUARRY_SEC_TICKERS: 'AAPL,no good' } })).rejects.toThrow(
      /QUARRY_SEC_TICKERS: "NO GOOD" is not a ticker/,
    );
  });
});
