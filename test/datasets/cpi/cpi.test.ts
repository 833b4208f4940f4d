// cpi: import of interchange records and the board of the latest release, on each engine.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpiImporter } from '../../../src/datasets/cpi/import.js';
import { importFile } from '../../../src/ingest/import.js';
import { bearer, type Customer, customer, ENGINES, type TestEnv, testEnv } from '../../helpers/env.js';

// All items (SA0) are BLS CPI-U levels, used for both the adjusted and unadjusted series here; the food
// (SAF1) levels are made up so that the figures can be worked by hand.
const index = (code: string, seasonal: 'S' | 'U', levels: [string, number][]) =>
  levels.map(([period, value]) => ({ type: 'index', code, seasonal, period, value }));
const ALL: [string, number][] = [
  ['2023-12', 306.746],
  ['2024-06', 314.175],
  ['2024-09', 315.301],
  ['2024-11', 315.493],
  ['2024-12', 315.605],
];
const RECORDS = [
  { type: 'item', code: 'SA0', label: 'All items', depth: 0, parent: null, sortSequence: 1 },
  { type: 'item', code: 'SAF1', label: 'Food', depth: 1, parent: 'SA0', sortSequence: 3 },
  { type: 'item', code: 'SA0E', label: 'Energy', depth: 1, parent: 'SA0', sortSequence: 375 },
  ...index('SA0', 'U', ALL),
  ...index('SA0', 'S', ALL),
  ...index('SAF1', 'U', [
    ['2023-12', 100],
    ['2024-11', 102],
    ['2024-12', 102.5],
  ]),
  ...index('SAF1', 'S', [
    ['2024-06', 101],
    ['2024-09', 101.8],
    ['2024-11', 102.1],
    ['2024-12', 102.4],
  ]),
  { type: 'weight', code: 'SA0', weightsPeriod: '2023-12', weight: 100 },
  { type: 'weight', code: 'SAF1', weightsPeriod: '2023-12', weight: 13.531 },
  {
    type: 'release',
    period: '2024-12',
    releasedAt: '2025-01-15T13:30:00.000Z',
    nextPeriod: '2025-01',
    nextReleaseAt: '2025-02-12T13:30:00.000Z',
  },
];

for (const { engine, skip } of ENGINES) {
  describe.skipIf(skip)(`cpi on ${engine}`, () => {
    let env: TestEnv;
    let user: Customer;
    beforeAll(async () => {
      env = await testEnv({ engine });
      user = await customer(env.deps);
    });
    afterAll(() => env.close());
    const board = async () =>
      (await env.app.inject({ method: 'GET', url: '/v1/macro/cpi', headers: bearer(user.key) })).json();

    it('an empty store answers a partial board', async () => {
      const { data, meta } = await board();
      expect(data).toMatchObject({ source: 'bls', status: 'partial', rows: [] });
      expect(meta.dataset).toBe('cpi');
    });

    it('imports once; the same file again changes nothing', async () => {
      const file = path.join(env.dataDir, 'cpi.ndjson');
      writeFileSync(file, RECORDS.map((r) => JSON.stringify(r)).join('\n'));
      expect(await importFile(env.deps, cpiImporter, file)).toMatchObject({
        inserted: RECORDS.length,
      });
      expect(await importFile(env.deps, cpiImporter, file)).toMatchObject({
        unchanged: RECORDS.length,
      });
    });

    it('serves the latest release with weights, changes and contributions', async () => {
      const { data, meta } = await board();
      expect(data.release).toEqual({
        period: '2024-12',
        releasedAt: '2025-01-15T13:30:00.000Z',
        weightsPeriod: '2023-12',
        nextPeriod: '2025-01',
        nextReleaseAt: '2025-02-12T13:30:00.000Z',
      });
      // Energy has no index values: it is not on the board.
      expect(data.rows.map((r: { code: string }) => r.code)).toEqual(['SA0', 'SAF1']);
      const food = data.rows[1];
      expect(food).toMatchObject({
        id: 'CPI.SAF1',
        label: 'Food',
        depth: 1,
        parent: 'SA0',
        pinned: true,
        derived: false,
        weight: 13.531,
        change: 0.3, // 102.4 / 102.1 - 1 = 0.2938 %
        annualized3m: 2.4, // (102.4 / 101.8)^4 - 1 = 2.378 %
        annualized6m: 2.8, // (102.4 / 101.0)^2 - 1 = 2.791 %
        yoy: 2.5, // 102.5 / 100 - 1
        // weight in November: 13.531 x (102 / 100) / (315.493 / 306.746) = 13.41897; x 0.29383 % = 0.039
        contribution: 0.039,
        // weight in the December the weights refer to, 13.531; x 2.5 % = 0.338
        contributionYoy: 0.338,
        read: 'steady: 3-month pace close to the 6-month pace',
      });
      expect(food.history).toHaveLength(13);
      expect(food.history[0]).toEqual(['2023-12', null, null]);
      expect(food.history[12]).toEqual(['2024-12', 0.3, 2.5]);
      expect(data.rows[0]).toMatchObject({
        weight: 100,
        change: 0,
        yoy: 2.9,
        contribution: 0.035,
        contributionYoy: 2.888,
      });
      expect(meta).toMatchObject({
        asOf: '2025-01-15T13:30:00.000Z',
        historyStarts: '2023-12-01',
        disclaimer: expect.stringMatching(/Bureau of Labor Statistics/),
      });
    });

    it('shows the newest month that holds components when all items runs ahead, and says so in gaps', async () => {
      const file = path.join(env.dataDir, 'cpi-ahead.ndjson');
      const ahead: [string, number][] = [
        ['2025-01', 317.671],
        ['2025-02', 319.082],
      ];
      const records = [
        { type: 'item', code: 'SAH', label: 'Housing', depth: 0, parent: null, sortSequence: 136 },
        ...index('SA0', 'U', ahead),
        ...index('SA0', 'S', ahead),
      ];
      writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n'));
      await importFile(env.deps, cpiImporter, file);
      const { data, meta } = await board();
      expect(data.release.period).toBe('2024-12');
      expect(data.status).toBe('partial');
      expect(data.rows.map((r: { code: string }) => r.code)).toEqual(['SA0', 'SAF1']);
      expect(data.gaps).toContain(
        'all items only for 2025-01 to 2025-02 (2 months): no component index is held after 2024-12, so the board shows 2024-12',
      );
      expect(data.gaps).toContain('no index value for 2024-12 of the major group housing');
      expect(meta.asOf).toBe('2025-01-15T13:30:00.000Z');
    });
  });
}
