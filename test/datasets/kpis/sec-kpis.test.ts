// kpis from EDGAR's company facts: one series per metric under one concept per period, periods named by
// their own dates, restatements as revisions read at asOf dates on either side of the restating filing.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../../src/ingest/run.js';
import { FiscalCalendar, kindOf, sameUpToRounding } from '../../../src/ingest/xbrl/periods.js';
import { HISTORY } from '../../../src/market/history/index.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { bearer, customer, type TestEnv, testEnv } from '../../helpers/env.js';
import { asset } from '../../helpers/real-data.js';

const FACTS = asset('sec/companyfacts');
const AAPL = path.join(FACTS, 'CIK0000320193.json');
const NVDA = path.join(FACTS, 'CIK0001045810.json');
const TICKERS = asset('sec/company_tickers.json');

describe('periods of XBRL facts', () => {
  it('a period is a year (350–380 days), a quarter (80–100) or a point; year-to-date spans are none of them', () => {
    expect(kindOf('2025-01-27', '2026-01-25')).toBe('year');
    expect(kindOf('2025-01-27', '2025-04-27')).toBe('quarter');
    expect(kindOf(undefined, '2025-04-27')).toBe('point');
    expect(kindOf('2007-09-30', '2008-06-28')).toBeNull();
  });

  it('fiscal years and quarters come from the dates: NVIDIA ends in January, Apple in September', () => {
    const nvidia = FiscalCalendar.fromYearEnds(['2024-01-28', '2025-01-26', '2026-01-25']);
    expect(nvidia.endMonth).toBe(1);
    expect([nvidia.fiscalYear('2025-04-27'), nvidia.fiscalQuarter('2025-04-27')]).toEqual([2026, 1]);
    expect(nvidia.label('year', '2026-01-25')).toBe('FY2026');
    const apple = FiscalCalendar.fromYearEnds(['2022-09-24', '2023-09-30', '2024-09-28']);
    expect(apple.endMonth).toBe(9);
    expect(apple.label('quarter', '2023-12-30')).toBe('Q1 FY2024');
    expect(apple.label('point', '2024-09-28')).toBe('end of FY2024');
    // A 53-week year that ends in the first days of October is still a September year.
    expect(FiscalCalendar.fromYearEnds(['2022-10-01', '2023-09-30']).endMonth).toBe(9);
  });

  it('a figure only rounded is the same figure; a different one is a restatement', () => {
    expect(sameUpToRounding(4_130_162_000, 4_130_000_000)).toBe(true);
    expect(sameUpToRounding(4_834_000_000, 6_119_000_000)).toBe(false);
    expect(sameUpToRounding(11.93, 1.19)).toBe(false);
    // Trailing zeros by chance are not a rounding.
    expect(sameUpToRounding(215_000_000_000, 215_938_000_000)).toBe(false);
  });
});

describe('quarry ingest sec: company facts to kpis', () => {
  let env: TestEnv;
  let key: string;
  const sec = () => LOADERS.sec as NonNullable<typeof LOADERS.sec>;
  const kpis = async (symbol: string, query: string) => {
    const res = await env.app.inject({ url: `/v1/kpis/${symbol}?${query}`, headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    return res.json().data;
  };
  type Fact = {
    value: number;
    period: { label: string; kind: string };
    evidence: { quote: string; documentId: string }[];
    concept?: string | null;
  };
  const observation = (
    data: { series: { key: string; observations: Fact[] }[] },
    series: string,
    label: string,
  ) => data.series.find((s) => s.key === series)?.observations.find((o) => o.period.label === label);

  beforeAll(async () => {
    env = await testEnv();
    key = (await customer(env.deps)).key;
  });
  afterAll(() => env.close());

  it('a company facts file names no ticker: without the registrants it is refused, saying what to load', async () => {
    await expect(loadFile(env.deps, sec(), NVDA)).rejects.toThrow(
      /CIK 0001045810 \(NVIDIA CORP\) has no ticker in the store: load company_tickers\.json first, or give --ticker/,
    );
    const held = await env.deps.store.db.selectFrom('kpi_facts').select('id').executeTakeFirst();
    expect(held).toBeUndefined();
  });

  it('loads after company_tickers.json; the same file again changes nothing', async () => {
    await loadFile(env.deps, sec(), TICKERS);
    const first = await loadFile(env.deps, sec(), NVDA);
    // 1,257 facts read; 75 of them restate a period an earlier filing in the same file stated (a revision).
    expect(first).toMatchObject({ dataset: 'kpis-guidance', lines: 1257, inserted: 1182, revised: 75 });
    await loadFile(env.deps, sec(), AAPL);
    const again = await loadFile(env.deps, sec(), NVDA);
    expect(again).toMatchObject({ lines: 1257, inserted: 0, revised: 0, unchanged: 1257 });
  });

  it('NVIDIA fiscal 2026 revenue is 215,938 million, from its 10-K', async () => {
    const data = await kpis('NVDA', 'metric=revenue&from=2000-01-01');
    const fy2026 = observation(data, 'revenue:reported:frequency=annual', 'FY2026');
    expect(fy2026).toMatchObject({
      value: 215_938_000_000,
      unit: 'USD',
      currency: 'USD',
      basis: 'reported',
      period: { start: '2025-01-27', end: '2026-01-25', kind: 'year', fiscalYear: 2026, fiscalQuarter: null },
    });
    expect(fy2026?.evidence[0]).toMatchObject({
      documentId: '0001045810-26-000021',
      title: '10-K filed 2026-02-25',
      url: 'https://www.sec.gov/Archives/edgar/data/1045810/000104581026000021/0001045810-26-000021-index.htm',
    });
    // coverage says what the store holds for the company, whatever metric is asked for.
    const all = await kpis('NVDA', '');
    expect(data.coverage).toEqual(all.coverage);
    // The newest periodic report (a 10-Q); the 424B5 prospectus of 2026-06-17 is not one.
    expect(data.coverage).toMatchObject({
      sourceKinds: ['xbrl'],
      firstPeriod: '2007-01-28',
      lastPublishedAt: '2026-05-20T00:00:00.000Z',
    });
    // 30 series, 1,164 observations between them, cited from 68 filings; revenue alone: 19 years, 66 quarters.
    expect(all.series).toHaveLength(30);
    expect(data.coverage).toMatchObject({ observations: 1164, documents: 68 });
    expect(
      data.series.map((s: { key: string; observations: unknown[] }) => [s.key, s.observations.length]),
    ).toEqual([
      ['revenue:reported:frequency=annual', 19],
      ['revenue:reported:frequency=quarterly', 66],
    ]);
    const q1 = observation(data, 'revenue:reported:frequency=quarterly', 'Q1 FY2027');
    expect(q1).toMatchObject({ value: 81_615_000_000, period: { end: '2026-04-26', fiscalQuarter: 1 } });
  });

  it('without from or to, the three years to the newest period held; from reaches the whole history', async () => {
    const call = async (query: string) => {
      const res = await env.app.inject({ url: `/v1/kpis/NVDA?${query}`, headers: bearer(key) });
      expect(res.statusCode).toBe(200);
      return { data: res.json().data, bytes: res.body.length, credits: res.headers['x-credits-cost'] };
    };
    const recent = await call('metric=revenue');
    // NVIDIA's newest period held is Q1 FY2027, ended 2026-04-26.
    expect(recent.data.window).toEqual({ from: '2023-04-26', to: null, default: true });
    const count = (data: { series: { key: string; observations: unknown[] }[] }) =>
      data.series.map((s) => [s.key, s.observations.length]);
    // FY2024 to FY2026; Q1 FY2024 (ended 2023-04-30) to Q1 FY2027, but for the fourth quarters, which NVIDIA
    // reports only within its years: ten quarters.
    expect(count(recent.data)).toEqual([
      ['revenue:reported:frequency=annual', 3],
      ['revenue:reported:frequency=quarterly', 10],
    ]);
    const whole = await call('metric=revenue&from=1900-01-01');
    expect(whole.data.window).toEqual({ from: '1900-01-01', to: null, default: false });
    expect(count(whole.data)).toEqual([
      ['revenue:reported:frequency=annual', 19],
      ['revenue:reported:frequency=quarterly', 66],
    ]);
    // The spec's prices stay: 2 credits for the company, 4 when from or to is given.
    expect([recent.credits, whole.credits]).toEqual(['2', '4']);
    // Every metric: the default answer is a small part of the whole history.
    const [everything, lately] = [await call('from=1900-01-01'), await call('')];
    expect(lately.bytes * 4).toBeLessThan(everything.bytes);
    expect(lately.data.coverage).toEqual(everything.data.coverage);
  });

  it("Apple's revenue changes concept over the years, never within a period", async () => {
    const data = await kpis('AAPL', 'metric=revenue&from=2000-01-01');
    const year = (label: string) => observation(data, 'revenue:reported:frequency=annual', label);
    // Apple's published totals: 233,715 (FY2015), 229,234 (FY2017), 265,595 (FY2018), 260,174 (FY2019) million.
    expect([year('FY2015'), year('FY2017'), year('FY2018'), year('FY2019')].map((f) => f?.value)).toEqual([
      233_715_000_000, 229_234_000_000, 265_595_000_000, 260_174_000_000,
    ]);
    expect(year('FY2015')?.evidence[0]?.quote).toMatch(/^us-gaap:SalesRevenueNet = /);
    expect(year('FY2019')?.evidence[0]?.quote).toMatch(
      /^us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax = /,
    );
    // FY2017 was filed as SalesRevenueNet (2017), as Revenues (2018) and as RevenueFromContract… (2019): the
    // first concept of the order that has it, Revenues, states the period in every revision.
    expect(year('FY2017')?.evidence[0]?.quote).toMatch(/^us-gaap:Revenues = 229234000000 USD/);
    const rows = await env.deps.store.db
      .selectFrom('kpi_facts')
      .select(['fact_key', 'evidence'])
      .where('symbol', '=', 'AAPL')
      .where('metric_id', '=', 'revenue')
      .execute();
    const byPeriod = new Map<string, Set<string>>();
    for (const row of rows) {
      const concepts = byPeriod.get(row.fact_key) ?? new Set<string>();
      for (const e of JSON.parse(row.evidence)) concepts.add(e.quote.split(' ')[0]);
      byPeriod.set(row.fact_key, concepts);
    }
    // 84 periods of revenue, four of them revised by a later filing: 88 rows.
    expect([rows.length, byPeriod.size]).toEqual([88, 84]);
    for (const concepts of byPeriod.values()) expect(concepts.size).toBe(1);
  });

  it("each period from the first concept of the order that states it, a change of concept said: NVIDIA's fiscal 2019–2021", async () => {
    // NVIDIA tagged fiscal 2020's first three quarters and its year both as Revenues and as
    // RevenueFromContractWithCustomerExcludingAssessedTax, its fourth quarter only as the latter; fiscal 2019's
    // year only as the latter.
    const data = await kpis('NVDA', 'metric=revenue&from=2000-01-01');
    const labels = ['Q1 FY2020', 'Q2 FY2020', 'Q3 FY2020', 'Q4 FY2020'];
    const quarters = labels.map((l) => observation(data, 'revenue:reported:frequency=quarterly', l));
    // NVIDIA's published fiscal 2020: 2,220 + 2,579 + 3,014 + 3,105 = 10,918 million; fiscal 2019: 11,716 million.
    expect(quarters.map((q) => q?.value)).toEqual([
      2_220_000_000, 2_579_000_000, 3_014_000_000, 3_105_000_000,
    ]);
    const REVENUES = 'us-gaap:Revenues';
    const CONTRACTS = 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax';
    expect(quarters.map((q) => q?.concept)).toEqual([REVENUES, REVENUES, REVENUES, CONTRACTS]);
    expect(observation(data, 'revenue:reported:frequency=annual', 'FY2020')).toMatchObject({
      value: 10_918_000_000,
      concept: REVENUES,
    });
    expect(observation(data, 'revenue:reported:frequency=annual', 'FY2019')).toMatchObject({
      value: 11_716_000_000,
      concept: CONTRACTS,
    });
    const quarterly = data.series.find(
      (x: { key: string }) => x.key === 'revenue:reported:frequency=quarterly',
    ) as { conceptChanges: { periodEnd: string; from: string; to: string }[] };
    expect(quarterly.conceptChanges).toEqual(
      expect.arrayContaining([
        { periodEnd: '2020-01-26', from: REVENUES, to: CONTRACTS },
        { periodEnd: '2020-04-26', from: CONTRACTS, to: REVENUES },
      ]),
    );
    expect(data.coverage.conceptChanges).toBeGreaterThanOrEqual(2);
  });

  it('the documented order, not the concept with the most periods in a year, states each period', async () => {
    // The real file, with fiscal 2022's revenue repeated under RevenueFromContract… at other values (as a
    // company that changed its definition would), and Revenues' own second quarter taken out: the second
    // concept now states more of the year's periods than the first.
    const facts = JSON.parse(readFileSync(NVDA, 'utf8'));
    const gaap = facts.facts['us-gaap'];
    type F = { start?: string; end: string; val: number };
    const inFy2022 = (f: F) => (f.start ?? '') >= '2021-02-01' && f.end <= '2022-01-30';
    const revenues = gaap.Revenues.units.USD as F[];
    const repeated = revenues.filter(inFy2022).map((f) => ({ ...f, val: Math.round(f.val * 0.6) }));
    gaap.RevenueFromContractWithCustomerExcludingAssessedTax.units.USD.push(...repeated);
    gaap.Revenues.units.USD = revenues.filter((f) => !(f.start === '2021-05-03' && f.end === '2021-08-01'));
    const dir = mkdtempSync(path.join(tmpdir(), 'quarry-concepts-'));
    const copy = path.join(dir, 'CIK0001045810.json');
    writeFileSync(copy, JSON.stringify(facts));
    const other = await testEnv();
    try {
      await loadFile(other.deps, sec(), TICKERS);
      await loadFile(other.deps, sec(), copy);
      const user = await customer(other.deps);
      const res = await other.app.inject({
        url: '/v1/kpis/NVDA?metric=revenue&from=2000-01-01',
        headers: bearer(user.key),
      });
      const served = res.json().data;
      const q = (label: string) => observation(served, 'revenue:reported:frequency=quarterly', label);
      // Q1 FY2022 as NVIDIA filed it under Revenues: 5,661 million, not the repeated 3,397 million.
      expect(q('Q1 FY2022')).toMatchObject({ value: 5_661_000_000, concept: 'us-gaap:Revenues' });
      expect(q('Q2 FY2022')).toMatchObject({
        value: Math.round(6_507_000_000 * 0.6),
        concept: 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax',
      });
      expect(q('Q3 FY2022')).toMatchObject({ value: 7_103_000_000, concept: 'us-gaap:Revenues' });
      // The market's statements read the same file: no fourth quarter derived across two concepts.
      await loadFile(other.deps, LOADERS['sec-facts'] as NonNullable<(typeof LOADERS)['sec-facts']>, copy);
      const answer = JSON.parse(
        JSON.stringify(
          await HISTORY.run(other.deps, {
            tickers: ['NVDA'],
            fields: ['totalRevenue'],
            period: 'quarterly',
            start: '2020-12-01',
            end: '2022-02-28',
          }),
        ),
      ).items[0];
      expect(answer.rows.map((r: { date: string }) => r.date)).toEqual([
        '2021-01-31',
        '2021-05-02',
        '2021-08-01',
        '2021-10-31',
      ]);
      // Fiscal 2021's fourth quarter, all four figures under Revenues: 16,675 - 3,080 - 3,866 - 4,726 = 5,003.
      expect(answer.rows[0].totalRevenue).toBe(5_003_000_000);
      expect(answer.derived).toEqual(['2021-01-31']);
    } finally {
      await other.close();
    }
  });

  it("Apple's FY2008 net income: 4,834 million as first filed, 6,119 million after the 10-K/A of 2010-01-25", async () => {
    const series = 'net_income:reported:frequency=annual';
    const before = await kpis('AAPL', 'metric=net_income&asOf=2010-01-24');
    expect(observation(before, series, 'FY2008')).toMatchObject({ value: 4_834_000_000, revision: 1 });
    const after = await kpis('AAPL', 'metric=net_income&asOf=2010-01-25');
    expect(observation(after, series, 'FY2008')).toMatchObject({ value: 6_119_000_000, revision: 2 });
    const now = await kpis('AAPL', 'metric=net_income&from=2000-01-01');
    const current = observation(now, series, 'FY2008') as Fact & { id: string; supersedesId: string };
    expect(current).toMatchObject({ value: 6_119_000_000, current: true, asOf: '2010-01-25T00:00:00.000Z' });
    const earlier = now.revisions.find((r: { id: string }) => r.id === current.supersedesId);
    expect(earlier).toMatchObject({ value: 4_834_000_000, revision: 1, supersededBy: current.id });
    // Before its first 10-K the year's figure was not known at all.
    const sooner = await kpis('AAPL', 'metric=net_income&asOf=2009-10-26');
    expect(observation(sooner, series, 'FY2008')).toBeUndefined();
  });

  it("NVIDIA's FY2024 diluted EPS: 11.93 as filed, 1.19 once the 2024 ten-for-one split restated it", async () => {
    const series = 'diluted_eps:reported:frequency=annual';
    const before = await kpis('NVDA', 'metric=diluted_eps&asOf=2025-02-25');
    expect(observation(before, series, 'FY2024')).toMatchObject({ value: 11.93, unit: 'USD/share' });
    const after = await kpis('NVDA', 'metric=diluted_eps&asOf=2025-02-26');
    expect(observation(after, series, 'FY2024')).toMatchObject({ value: 1.19, revision: 2 });
  });

  it('a truncated company facts file is refused and nothing of it kept', async () => {
    const { readFileSync } = await import('node:fs');
    const cut = path.join(env.dataDir, 'CIK0000320193-cut.json');
    writeFileSync(cut, readFileSync(AAPL, 'utf8').slice(0, 200_000));
    const count = async () =>
      Number(
        (
          await env.deps.store.db
            .selectFrom('kpi_facts')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const held = await count();
    await expect(loadFile(env.deps, sec(), cut)).rejects.toThrow(/CIK0000320193-cut\.json: not JSON/);
    expect(await count()).toBe(held);
  });
});
