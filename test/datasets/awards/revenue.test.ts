// An award to a listed company set against the company's revenue of the last fiscal year ended by the award
// date, where its kpis are held: NVIDIA's real revenue from its company facts.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awardId, awardsImporter } from '../../../src/datasets/awards/import.js';
import { importFile } from '../../../src/ingest/import.js';
import { loadFile } from '../../../src/ingest/run.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { bearer, customer, type TestEnv, testEnv } from '../../helpers/env.js';
import { asset } from '../../helpers/real-data.js';

const TICKERS = asset('sec/company_tickers.json');
const NVDA = asset('sec/companyfacts/CIK0001045810.json');

const award = (sourceAwardId: string, awardDate: string, currency: string) => ({
  source: 'usaspending',
  sourceAwardId,
  jurisdiction: 'US',
  awardType: 'prime',
  title: 'Accelerated computing systems',
  awardDate,
  currency,
  obligatedAmount: '1304970000.00',
  recipient: { name: 'NVIDIA CORPORATION' },
  agency: { name: 'Department of Energy' },
  sector: null,
  ticker: 'NVDA',
  parentSourceAwardId: null,
  sourceUrl: `https://www.usaspending.gov/award/${sourceAwardId}`,
  observedAt: '2026-11-23T00:00:00.000Z',
  entity: { ticker: 'NVDA', cik: '0001045810', name: 'NVIDIA CORP', matchedBy: 'recipient_name' },
  revenueComparison: null,
});

describe("awards against the recipient's revenue", () => {
  let env: TestEnv;
  let key: string;
  const detail = async (sourceAwardId: string) => {
    const res = await env.app.inject({
      url: `/v1/awards/${awardId('usaspending', sourceAwardId)}`,
      headers: bearer(key),
    });
    expect(res.statusCode).toBe(200);
    return res.json().data.award;
  };
  beforeAll(async () => {
    env = await testEnv();
    key = (await customer(env.deps)).key;
    const sec = LOADERS.sec as NonNullable<typeof LOADERS.sec>;
    await loadFile(env.deps, sec, TICKERS);
    await loadFile(env.deps, sec, NVDA);
    const file = path.join(env.dataDir, 'awards.ndjson');
    const records = [
      award('TEST-2025', '2025-06-01', 'USD'),
      award('TEST-2024', '2024-01-01', 'USD'),
      award('TEST-EUR', '2025-06-01', 'EUR'),
    ];
    writeFileSync(file, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    await importFile(env.deps, awardsImporter, file);
  });
  afterAll(() => env.close());

  it("the last fiscal year ended by the award date: FY2025's 130,497 million, FY2023's 26,974 million", async () => {
    expect((await detail('TEST-2025')).revenueComparison).toEqual({
      fiscalYear: 2025,
      periodEnd: '2025-01-26',
      revenue: '130497000000',
      currency: 'USD',
      share: 0.01,
    });
    expect((await detail('TEST-2024')).revenueComparison).toMatchObject({
      fiscalYear: 2023,
      revenue: '26974000000',
      share: 0.0483788,
    });
  });

  it('never across currencies', async () => {
    expect((await detail('TEST-EUR')).revenueComparison).toBeNull();
  });

  it('the listing compares the same way', async () => {
    const res = await env.app.inject({ url: '/v1/awards?ticker=NVDA&currency=USD', headers: bearer(key) });
    const rows = res.json().data.rows as {
      sourceAwardId: string;
      revenueComparison: { fiscalYear: number };
    }[];
    expect(rows.map((r) => [r.sourceAwardId, r.revenueComparison.fiscalYear])).toEqual([
      ['TEST-2025', 2025],
      ['TEST-2024', 2023],
    ]);
  });
});
