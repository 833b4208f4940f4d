// kpis-guidance: facts with evidence, series, revisions, and reads as known on a date; on each engine.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kpisImporter } from '../../../src/datasets/kpis/import.js';
import { importFile } from '../../../src/ingest/import.js';
import { bearer, type Customer, customer, ENGINES, type TestEnv, testEnv } from '../../helpers/env.js';

const ADOBE = { ticker: 'ADBE', cik: '0000796343', companyName: 'Adobe Inc.', companyShortName: 'Adobe' };
const RELEASE_URL = 'https://www.sec.gov/Archives/edgar/data/796343/000079634323000044/adbeex991q123.htm';
// Accepted 2023-03-15 16:06:36 Eastern (EDT) = 20:06:36 UTC.
const PUBLISHED = '2023-03-15T20:06:36.000Z';
const evidence = (quote: string, offset: number) => ({
  id: `adbe-q1fy23-${offset}`,
  documentId: '0000796343-23-000044',
  sourceId: 'sec-edgar',
  sourceKind: 'earnings-release',
  url: RELEASE_URL,
  title: 'Adobe Reports Record Q1 FY2023 Revenue',
  publishedAt: PUBLISHED,
  country: 'US',
  language: 'en',
  quote,
  quoteOffset: offset,
  quoteSourceLength: 232826,
  quoteMatchMode: 'exact',
  confidence: 0.98,
});
const Q1 = {
  start: '2022-12-03',
  end: '2023-03-03',
  kind: 'quarter',
  fiscalYear: 2023,
  fiscalQuarter: 1,
  label: 'Q1 FY2023',
};
const Q2 = {
  start: '2023-03-04',
  end: '2023-06-02',
  kind: 'quarter',
  fiscalYear: 2023,
  fiscalQuarter: 2,
  label: 'Q2 FY2023',
};
const fact = (over: object) => ({
  type: 'fact',
  kind: 'kpi',
  ...ADOBE,
  unit: 'USD',
  currency: 'USD',
  basis: 'reported',
  dimensions: {},
  confidence: 0.98,
  asOf: PUBLISHED,
  conflict: false,
  ...over,
});

const RECORDS = [
  {
    type: 'metric',
    id: 'revenue',
    name: 'Revenue',
    sector: 'all',
    unit: 'USD',
    definition: 'Total revenue for the period.',
    aliases: { 'us-gaap': ['Revenues'] },
    favorable: 'higher',
  },
  fact({
    metricId: 'revenue',
    period: Q1,
    value: 4.66e9,
    evidence: [evidence('revenue of $4.66 billion', 4555)],
  }),
  fact({
    metricId: 'digital_media_arr',
    period: { ...Q1, start: null, kind: 'point' },
    value: 13.67e9,
    evidence: [evidence('Digital Media ARR of $13.67 billion', 7922)],
  }),
  fact({
    kind: 'guidance',
    metricId: 'revenue',
    period: Q2,
    value: 4.75e9,
    dimensions: { bound: 'low' },
    evidence: [evidence('$4.75 billion to $4.78 billion', 0)],
  }),
  fact({
    kind: 'guidance',
    metricId: 'revenue',
    period: Q2,
    value: 4.78e9,
    dimensions: { bound: 'high' },
    evidence: [evidence('$4.75 billion to $4.78 billion', 0)],
  }),
];

for (const { engine, skip } of ENGINES) {
  describe.skipIf(skip)(`kpis-guidance on ${engine}`, () => {
    let env: TestEnv;
    let user: Customer;
    const load = async (name: string, records: object[]) => {
      const file = path.join(env.dataDir, name);
      writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n'));
      return importFile(env.deps, kpisImporter, file);
    };
    beforeAll(async () => {
      env = await testEnv({ engine });
      user = await customer(env.deps);
      expect(await load('adbe.ndjson', RECORDS)).toMatchObject({ inserted: 5 });
    });
    afterAll(() => env.close());
    const get = async (url: string) => {
      const res = await env.app.inject({ method: 'GET', url, headers: bearer(user.key) });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };

    it('reported KPIs as series with their evidence and the metric dictionary', async () => {
      const { data, meta } = await get('/v1/kpis/adbe');
      expect(data.symbol).toBe('ADBE');
      expect(data.series.map((s: { key: string }) => s.key)).toEqual([
        'digital_media_arr:reported',
        'revenue:reported',
      ]);
      const revenue = data.series[1];
      expect(revenue).toMatchObject({
        metric: 'Revenue',
        unit: 'USD',
        currency: 'USD',
        basis: 'reported',
        dimensions: {},
      });
      expect(revenue.latest).toMatchObject({
        symbol: 'ADBE',
        metricId: 'revenue',
        value: 4660000000,
        period: { end: '2023-03-03', fiscalQuarter: 1, label: 'Q1 FY2023' },
        revision: 1,
        current: true,
        supersedesId: null,
        asOf: PUBLISHED,
      });
      expect(revenue.latest.evidence[0]).toMatchObject({
        quote: 'revenue of $4.66 billion',
        quoteOffset: 4555,
      });
      expect(data.dictionary).toEqual([
        {
          id: 'revenue',
          name: 'Revenue',
          sector: 'all',
          unit: 'USD',
          definition: 'Total revenue for the period.',
          aliases: { 'us-gaap': ['Revenues'] },
          favorable: 'higher',
        },
      ]);
      expect(data.coverage).toMatchObject({
        country: 'US',
        languages: ['en'],
        documents: 1,
        observations: 2,
        guidance: 0,
      });
      expect(meta).toMatchObject({ dataset: 'kpis-guidance', asOf: PUBLISHED, historyStarts: '2023-03-03' });
    });

    it('guidance ranges as low and high series', async () => {
      const { data } = await get('/v1/guidance/ADBE');
      expect(
        data.series.map((s: { key: string; latest: { value: number } }) => [s.key, s.latest.value]),
      ).toEqual([
        ['revenue:reported:bound=high', 4780000000],
        ['revenue:reported:bound=low', 4750000000],
      ]);
      expect(data.coverage.guidance).toBe(2);
    });

    it('a restatement supersedes the fact; asOf reads what was known on a date', async () => {
      await load('restated.ndjson', [
        fact({
          metricId: 'revenue',
          period: Q1,
          value: 4.655e9,
          asOf: '2023-06-15T20:00:00.000Z',
          evidence: [
            {
              ...evidence('revenue of $4.655 billion', 100),
              publishedAt: '2023-06-15T20:00:00.000Z',
              documentId: 'later',
            },
          ],
        }),
      ]);
      const now = (await get('/v1/kpis/ADBE?metric=revenue')).data;
      const latest = now.series[0].latest;
      expect(latest).toMatchObject({ value: 4655000000, revision: 2, current: true });
      expect(now.revisions).toEqual([
        {
          id: expect.any(String),
          seriesKey: 'revenue:reported',
          periodEnd: '2023-03-03',
          revision: 1,
          value: 4660000000,
          asOf: PUBLISHED,
          supersededBy: latest.id,
        },
      ]);
      expect(latest.supersedesId).toBe(now.revisions[0].id);

      const then = (await get('/v1/kpis/ADBE?metric=revenue&asOf=2023-03-20')).data;
      expect(then.series[0].latest).toMatchObject({ value: 4660000000, revision: 1, current: false });
      expect(then.revisions).toEqual([]);
      const before = (await get('/v1/kpis/ADBE?asOf=2023-03-14')).data;
      expect(before.series).toEqual([]);
      expect(before.asOf).toBeNull();
    });

    it('metric, basis, from and to narrow the facts; a known symbol with none answers empty', async () => {
      expect((await get('/v1/kpis/ADBE?from=2023-03-04')).data.series).toEqual([]);
      expect((await get('/v1/kpis/ADBE?to=2023-03-03&metric=digital_media_arr')).data.series).toHaveLength(1);
      expect((await get('/v1/kpis/ADBE?basis=organic')).data.series).toEqual([]);
    });

    it('404 not_found for a symbol with no facts anywhere', async () => {
      const res = await env.app.inject({
        method: 'GET',
        url: '/v1/guidance/NOPE',
        headers: bearer(user.key),
      });
      expect(res.statusCode).toBe(404);
    });
  });
}
