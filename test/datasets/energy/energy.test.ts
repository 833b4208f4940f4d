// energy-inventories: import of interchange records and the board, on each engine.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { energyImporter } from '../../../src/datasets/energy/import.js';
import { importFile } from '../../../src/ingest/import.js';
import { bearer, type Customer, customer, ENGINES, type TestEnv, testEnv } from '../../helpers/env.js';

// Commercial crude stocks, million barrels. The three latest values are EIA's Table 1 for the week ending
// 2026-06-05 (426.485; week ago 433.712; year ago 432.415); the earlier years are made up.
const OBSERVATIONS: [string, number][] = [
  ['2021-05-28', 480],
  ['2021-06-04', 470],
  ['2022-05-27', 415],
  ['2022-06-03', 420],
  ['2023-05-26', 455],
  ['2023-06-02', 450],
  ['2024-05-31', 440],
  ['2024-06-07', 445],
  ['2025-05-30', 437],
  ['2025-06-06', 432.415],
  ['2026-05-29', 433.712],
  ['2026-06-05', 426.485],
];

const RECORDS = [
  {
    type: 'series',
    series: 'WCESTUS1',
    report: 'wpsr',
    tab: 'stocks',
    label: 'Commercial crude oil (excl. SPR)',
    unit: 'million barrels',
    position: 1,
  },
  {
    type: 'series',
    series: 'WGTSTUS1',
    report: 'wpsr',
    tab: 'stocks',
    label: 'Total motor gasoline',
    unit: 'million barrels',
    position: 2,
  },
  // Each observation names its report, so it is known from that report's release on the EIA's calendar.
  ...OBSERVATIONS.map(([weekEnding, value]) => ({
    type: 'observation',
    series: 'WCESTUS1',
    report: 'wpsr',
    weekEnding,
    value,
  })),
  { type: 'observation', series: 'WGTSTUS1', report: 'wpsr', weekEnding: '2026-05-29', value: 214.955 },
  { type: 'observation', series: 'WGTSTUS1', report: 'wpsr', weekEnding: '2026-06-05', value: 215.141 },
  {
    type: 'report',
    report: 'wpsr',
    weekEnding: '2026-06-05',
    releasedAt: '2026-06-10T14:30:00.000Z',
    releaseHoliday: false,
    nextWeekEnding: '2026-06-12',
    nextReleaseAt: '2026-06-17T14:30:00.000Z',
    nextReleaseHoliday: false,
  },
];

for (const { engine, skip } of ENGINES) {
  describe.skipIf(skip)(`energy-inventories on ${engine}`, () => {
    let env: TestEnv;
    let user: Customer;
    beforeAll(async () => {
      env = await testEnv({ engine });
      user = await customer(env.deps);
    });
    afterAll(() => env.close());
    const board = async () =>
      (
        await env.app.inject({ method: 'GET', url: '/v1/energy/inventories', headers: bearer(user.key) })
      ).json();

    it('an empty store answers a partial board', async () => {
      const { data, meta } = await board();
      expect(data).toMatchObject({ source: 'eia', status: 'partial', series: [], reports: [] });
      expect(meta).toMatchObject({ dataset: 'energy-inventories', asOf: null, sample: false });
    });

    it('imports once; the same file again changes nothing', async () => {
      const file = path.join(env.dataDir, 'energy.ndjson');
      writeFileSync(file, RECORDS.map((r) => JSON.stringify(r)).join('\n'));
      expect(await importFile(env.deps, energyImporter, file)).toMatchObject({
        inserted: RECORDS.length,
      });
      expect(await importFile(env.deps, energyImporter, file)).toMatchObject({
        unchanged: RECORDS.length,
      });
    });

    it('serves the latest report with week change, year ago, five-year average and reads', async () => {
      const { data, meta } = await board();
      expect(data.status).toBe('available');
      expect(data.reports).toEqual([
        {
          id: 'wpsr-2026-06-05',
          weekEnding: '2026-06-05',
          releasedAt: '2026-06-10T14:30:00.000Z',
          releaseHoliday: false,
          nextWeekEnding: '2026-06-12',
          nextReleaseAt: '2026-06-17T14:30:00.000Z',
          nextReleaseHoliday: false,
        },
      ]);
      expect(data.series[0]).toEqual({
        id: 'WCESTUS1',
        key: 'wcestus1',
        report: 'wpsr-2026-06-05',
        tab: 'stocks',
        label: 'Commercial crude oil (excl. SPR)',
        unit: 'million barrels',
        weekEnding: '2026-06-05',
        value: 426.485,
        previousWeekEnding: '2026-05-29',
        weekChange: -7.227,
        yearAgo: 432.415,
        // (432.415 + 445 + 450 + 420 + 470) / 5
        fiveYear: 443.483,
        read: '3.8% below the five-year average',
        seasonal: 'seasonal draw',
      });
      // Gasoline has two weeks only: no year-ago or five-year figures.
      expect(data.series[1]).toMatchObject({ weekChange: 0.186, yearAgo: null, fiveYear: null, read: null });
      // The newest value's publication (Wednesday 10:30 New York), and the week it is of.
      expect(meta).toMatchObject({
        asOf: '2026-06-10T14:30:00.000Z',
        newestPeriod: '2026-06-05',
        historyStarts: '2021-05-28',
        coverage: { series: 2, firstWeek: '2021-05-28', lastWeek: '2026-06-05' },
      });
    });

    it('a revised observation is read in place of the old one', async () => {
      const file = path.join(env.dataDir, 'revision.ndjson');
      writeFileSync(
        file,
        JSON.stringify({ type: 'observation', series: 'WCESTUS1', weekEnding: '2026-06-05', value: 426.5 }),
      );
      expect(await importFile(env.deps, energyImporter, file)).toMatchObject({ revised: 1 });
      expect((await board()).data.series[0]).toMatchObject({ value: 426.5, weekChange: -7.212 });
    });
  });
}
