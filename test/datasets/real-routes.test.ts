// The boards served from real loaded data: the bundled CFTC, EIA and BLS files (as npm start loads them) and
// the shared disaggregated CFTC file, through the HTTP routes.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundledData } from '../../src/cli/bundled.js';
import { loadFile } from '../../src/ingest/run.js';
import { LOADERS } from '../../src/runtime/loaders.js';
import { bearer, type Customer, customer, type TestEnv, testEnv } from '../helpers/env.js';
import { haveShared } from '../helpers/shared.js';

const DISAGG = path.resolve('../shared/data/cftc/fut_disagg_txt_2021_f_year.txt');

describe('boards on real data', () => {
  let env: TestEnv;
  let user: Customer;
  beforeAll(async () => {
    env = await testEnv();
    user = await customer(env.deps);
    await loadBundledData(env.deps, () => {});
    if (existsSync(DISAGG))
      await loadFile(env.deps.store.db, LOADERS.cftc as NonNullable<typeof LOADERS.cftc>, DISAGG);
  }, 60_000);
  afterAll(() => env.close());
  const get = async (url: string) => {
    const res = await env.app.inject({ method: 'GET', url, headers: bearer(user.key) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  for (const traderClass of ['noncommercial', 'commercial', 'nonreportable']) {
    it(`cot board, legacy / ${traderClass}: every market of the latest report`, async () => {
      const { data, meta } = await get(`/v1/cftc/cot?traderClass=${traderClass}`);
      expect(data).toMatchObject({
        reportFamily: 'legacy',
        traderClass,
        asOf: '2025-03-18',
        status: 'available',
      });
      expect(data.rows.length).toBeGreaterThan(300);
      const wti = data.rows.find((r: { contractCode: string }) => r.contractCode === '067651');
      expect(wti.position.percentile1Y).toMatchObject({
        sampleCount: 11,
        completeWindow: false,
        historyStart: '2025-01-07',
      });
      expect(meta.historyStarts).toBe('2025-01-07');
    });
  }

  for (const traderClass of ['managed-money', 'producer', 'swap', 'other-reportable', 'nonreportable']) {
    it.skipIf(!haveShared(DISAGG))(`cot board, disaggregated / ${traderClass}`, async () => {
      const { data } = await get(`/v1/cftc/cot?report=disaggregated&traderClass=${traderClass}`);
      expect(data).toMatchObject({ reportFamily: 'disaggregated', traderClass, asOf: '2021-03-16' });
      expect(data.rows.length).toBeGreaterThan(150);
    });
  }

  it("one contract's history with percentiles over an incomplete window", async () => {
    const { data } = await get('/v1/cftc/cot/contracts/088691');
    expect(data.rows).toHaveLength(11);
    const last = data.rows.at(-1);
    expect(last.position.percentile3Y).toMatchObject({ completeWindow: false, sampleCount: 11 });
    expect(last.position.percentile1Y.value).toBeGreaterThanOrEqual(0);
    expect(last.position.percentile1Y.value).toBeLessThanOrEqual(100);
  });

  it('energy board of the latest reports, with five-year averages', async () => {
    const { data } = await get('/v1/energy/inventories');
    expect(data.reports.map((r: { id: string }) => r.id).sort()).toEqual([
      'wngsr-2021-05-28',
      'wpsr-2026-06-05',
    ]);
    const crude = data.series.find((s: { id: string }) => s.id === 'WCESTUS1');
    // Week ending 2026-06-05 from table1.csv; the five prior years' same week from psw01.xls.
    expect(crude).toMatchObject({ weekEnding: '2026-06-05', value: 426485, yearAgo: 432415 });
    expect(crude.fiveYear).toBeGreaterThan(400000);
    const gas = data.series.find((s: { id: string }) => s.id === 'NW2_EPG0_SWO_R48_BCF');
    expect(gas).toMatchObject({ weekEnding: '2021-05-28', value: 2313, weekChange: 98 });
    expect(gas.fiveYear).not.toBeNull();
  });

  it('cpi board of the latest release, with weights and contributions', async () => {
    const { data, meta } = await get('/v1/macro/cpi');
    expect(data.release).toMatchObject({ period: '2023-11', weightsPeriod: '2022-12' });
    const shelter = data.rows.find((r: { code: string }) => r.code === 'SAH1');
    expect(shelter).toMatchObject({ weight: 34.413, change: 0.4, yoy: 6.5 });
    expect(shelter.contribution).toBeGreaterThan(0);
    expect(shelter.contributionYoy).toBeGreaterThan(1);
    expect(meta.disclaimer).toBeDefined();
  });
});
