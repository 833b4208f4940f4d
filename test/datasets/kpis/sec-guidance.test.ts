// Guidance from an earnings release (EX-99.1): ranges, approximate and point figures of its outlook tables
// and sentences, with the period each guides and the quote at its offset. Checked on Adobe's Q1 FY2023 release.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { periodNamed, sentenceGuidance, valueIn } from '../../../src/datasets/kpis/load/guidance.js';
import { periodEnd } from '../../../src/datasets/kpis/load/release.js';
import { loadFile } from '../../../src/ingest/run.js';
import { plainText } from '../../../src/ingest/xbrl/inline.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { bearer, customer, type TestEnv, testEnv } from '../../helpers/env.js';
import { asset } from '../../helpers/real-data.js';

const RELEASE = asset('sec/8-K/0000796343-23-000044/adbeex991q123.htm');
const TICKERS = asset('sec/company_tickers.json');

describe('reading guidance', () => {
  it('names periods from captions and sentences', () => {
    expect(periodNamed('summarizes Adobe’s second quarter fiscal year 2023 targets:')).toEqual({
      kind: 'quarter',
      fiscalYear: 2023,
      fiscalQuarter: 2,
    });
    expect(periodNamed('updated fiscal year 2023 targets:')).toEqual({
      kind: 'year',
      fiscalYear: 2023,
      fiscalQuarter: null,
    });
    expect(periodNamed('for Q3 FY2026')).toEqual({ kind: 'quarter', fiscalYear: 2026, fiscalQuarter: 3 });
    expect(periodNamed('Thank you')).toBeNull();
  });

  it('reads ranges, approximate figures and a figure plus or minus a percentage', () => {
    expect(valueIn('$4.75 billion to $4.78 billion', false)).toMatchObject({
      low: 4_750_000_000,
      high: 4_780_000_000,
      value: 4_765_000_000,
      unit: 'USD',
    });
    expect(valueIn('$2.65 to $2.70', true)).toMatchObject({ low: 2.65, high: 2.7, unit: 'USD/share' });
    expect(valueIn('~21.5%', false)).toMatchObject({ low: null, high: null, value: 21.5, unit: 'percent' });
    expect(valueIn('$24.0 billion, plus or minus 2%', false)).toMatchObject({
      low: 23_520_000_000,
      high: 24_480_000_000,
      value: 24_000_000_000,
    });
  });

  it('finds guidance in outlook sentences, on the basis they name', () => {
    const q = { kind: 'quarter' as const, fiscalYear: 2025, fiscalQuarter: 1 };
    expect(sentenceGuidance('Revenue is expected to be $24.0 billion, plus or minus 2%.', q)).toMatchObject([
      { metricId: 'revenue', basis: 'reported', value: 24_000_000_000, period: q },
    ]);
    expect(
      sentenceGuidance('For fiscal 2026, we expect non-GAAP gross margins to be approximately 71.5%.', null),
    ).toMatchObject([
      {
        metricId: 'gross_margin',
        basis: 'adjusted',
        value: 71.5,
        period: { kind: 'year', fiscalYear: 2026 },
      },
    ]);
    expect(sentenceGuidance('Revenue was $22.1 billion, up 22% from the previous quarter.', q)).toEqual([]);
  });

  it('dates a guided period from the quarter the release reports: 13-week quarters, or month ends', () => {
    const adobe = periodEnd('results for its first quarter fiscal year 2023 ended March 3, 2023.');
    expect(adobe({ kind: 'quarter', fiscalYear: 2023, fiscalQuarter: 2 })).toBe('2023-06-02');
    expect(adobe({ kind: 'year', fiscalYear: 2023, fiscalQuarter: null })).toBe('2023-12-01');
    const calendar = periodEnd('for the second quarter of fiscal 2024 ended June 30, 2024');
    expect(calendar({ kind: 'quarter', fiscalYear: 2024, fiscalQuarter: 3 })).toBe('2024-09-30');
    expect(calendar({ kind: 'year', fiscalYear: 2024, fiscalQuarter: null })).toBe('2024-12-31');
  });
});

describe("quarry ingest sec: Adobe's Q1 FY2023 release", () => {
  let env: TestEnv;
  let key: string;
  const sec = () => LOADERS.sec as NonNullable<typeof LOADERS.sec>;
  type Fact = {
    metricId: string;
    basis: string;
    value: number;
    low: number | null;
    high: number | null;
    period: { label: string; end: string };
    evidence: {
      quote: string;
      quoteOffset: number;
      quoteSourceLength: number;
      quoteMatchMode: string;
      url: string;
    }[];
  };
  const guidance = async (): Promise<Fact[]> => {
    const res = await env.app.inject({ url: '/v1/guidance/ADBE', headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    return res.json().data.series.flatMap((s: { observations: Fact[] }) => s.observations);
  };
  beforeAll(async () => {
    env = await testEnv();
    key = (await customer(env.deps)).key;
    await loadFile(env.deps, sec(), TICKERS);
  });
  afterAll(() => env.close());

  it('total revenue guidance for Q2 FY2023 is $4.75 billion to $4.78 billion, quoted at its offset', async () => {
    const report = await loadFile(env.deps, sec(), RELEASE);
    expect(report).toMatchObject({ dataset: 'kpis-guidance', inserted: 12, notes: [] });
    const facts = await guidance();
    const revenue = facts.find((f) => f.metricId === 'revenue' && f.period.label === 'Q2 FY2023');
    expect(revenue).toMatchObject({
      low: 4_750_000_000,
      high: 4_780_000_000,
      value: 4_765_000_000,
      unit: 'USD',
      basis: 'reported',
      period: { end: '2023-06-02', kind: 'quarter', fiscalYear: 2023, fiscalQuarter: 2 },
    });
    const evidence = revenue?.evidence[0];
    expect(evidence).toMatchObject({
      quote: 'Total revenue $4.75 billion to $4.78 billion',
      quoteMatchMode: 'normalised_text',
      // The dateline's day, midnight US Eastern (EDT from March 12, 2023).
      publishedAt: '2023-03-15T04:00:00.000Z',
      url: 'https://www.sec.gov/Archives/edgar/data/796343/000079634323000044/adbeex991q123.htm',
    });
    const html = readFileSync(RELEASE, 'utf8');
    const text = plainText(html);
    expect(evidence?.quoteSourceLength).toBe(text.length);
    const at = evidence?.quoteOffset as number;
    expect(text.slice(at, at + (evidence?.quote.length as number))).toBe(evidence?.quote);
  });

  it('every figure PROVENANCE lists, each quoted where it stands, on its basis', async () => {
    const facts = await guidance();
    const pick = (metricId: string, label: string, basis = 'reported') =>
      facts.find((f) => f.metricId === metricId && f.period.label === label && f.basis === basis);
    expect(pick('digital_media_segment_revenue', 'Q2 FY2023')).toMatchObject({
      low: 3_450_000_000,
      high: 3_470_000_000,
    });
    expect(pick('eps', 'Q2 FY2023')).toMatchObject({ low: 2.65, high: 2.7, unit: 'USD/share' });
    expect(pick('eps', 'Q2 FY2023', 'adjusted')).toMatchObject({ low: 3.75, high: 3.8 });
    expect(pick('eps', 'FY2023')).toMatchObject({ low: 10.85, high: 11.15, period: { end: '2023-12-01' } });
    expect(pick('eps', 'FY2023', 'adjusted')).toMatchObject({ low: 15.3, high: 15.6 });
    expect(pick('digital_media_net_new_arr', 'FY2023')).toMatchObject({
      value: 1_700_000_000,
      low: null,
      high: null,
    });
    expect(pick('tax_rate', 'Q2 FY2023')).toMatchObject({ value: 21.5, unit: 'percent' });
    expect(pick('tax_rate', 'Q2 FY2023', 'adjusted')).toMatchObject({ value: 18.5 });
    const html = readFileSync(RELEASE, 'utf8');
    const text = plainText(html);
    for (const f of facts) {
      const e = f.evidence[0] as Fact['evidence'][number];
      const source = e.quoteMatchMode === 'exact_html' ? html : text;
      expect(source.slice(e.quoteOffset, e.quoteOffset + e.quote.length)).toBe(e.quote);
    }
    expect(await loadFile(env.deps, sec(), RELEASE)).toMatchObject({
      inserted: 0,
      revised: 0,
      unchanged: 12,
    });
  });

  it('a release whose company is not among the registrants is refused', async () => {
    const dir = path.join(env.dataDir, '0000000000-23-000001');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'ex991.htm');
    writeFileSync(
      file,
      '<html><body><p>Exhibit 99.1</p><p>Zed Corp (Nasdaq:ZZZQ) Reports Results</p></body></html>',
    );
    await expect(loadFile(env.deps, sec(), file)).rejects.toThrow(
      /names no listed company held among the registrants \(ZZZQ\)/,
    );
  });
});
