// The BLS loader on BLS files (cu.item, cu.series, relative importance, FRED-format CSVs of BLS series), and
// the cpi board checked against what BLS published for November 2023 and against its relative importance.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../../src/ingest/run.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { ENGINES, type TestEnv, testEnv } from '../../helpers/env.js';
import { asset, real } from '../../helpers/real-data.js';

const FRED = asset('bls/fred');
const SERIES = [
  'CPIAUCSL',
  'CPIAUCNS',
  'CPILFESL',
  'CPILFENS',
  'CPIUFDSL',
  'CPIUFDNS',
  'CPIENGSL',
  'CPIENGNS',
  'CUSR0000SAH1',
  'CUUR0000SAH1',
];

describe('BLS loader', () => {
  for (const { engine, skip } of ENGINES) {
    describe.skipIf(skip)(`on ${engine}`, () => {
      let env: TestEnv;
      let weightNotes: string[] = [];
      const bls = () => LOADERS.bls as NonNullable<typeof LOADERS.bls>;
      const load = (file: string) => loadFile(env.deps, bls(), file);
      beforeAll(async () => {
        env = await testEnv({ engine });
        await load(asset('bls/cu.item'));
        weightNotes = (await load(asset('bls/relative_importance_dec2021_to_dec2024.csv'))).notes;
        for (const s of SERIES) await load(path.join(FRED, `${s}.csv`));
      });
      afterAll(() => env.close());

      it('a blank relative importance is unknown: no weight recorded (not 0), and the load says how many', async () => {
        // Rice and White bread have a blank weight for 2022 in the file (71 blank cells in all, counted apart).
        const blanks = await env.deps.store.db
          .selectFrom('cpi_weights')
          .select(['item_code', 'weight'])
          .where('item_code', 'in', ['SS01031', 'SS02011'])
          .execute();
        expect(blanks).toEqual([]);
        const food = await env.deps.store.db
          .selectFrom('cpi_weights')
          .select('weight')
          .where('item_code', '=', 'SAF1')
          .where('weights_period', '=', '2022-12')
          .executeTakeFirstOrThrow();
        expect(Number(food.weight)).toBe(13.531);
        expect(weightNotes).toContain('71 weights are blank at the source: left unknown, not recorded');
      });

      it('builds the item hierarchy from display level and sort order', async () => {
        const items = await env.deps.store.db
          .selectFrom('cpi_items')
          .select(['item_code', 'depth', 'parent'])
          .where('item_code', 'in', ['SA0', 'SAF', 'SAF1', 'SAF11', 'SEFA', 'SAH1', 'SEHC'])
          .orderBy('item_code')
          .execute();
        expect(Object.fromEntries(items.map((i) => [i.item_code, [i.depth, i.parent]]))).toEqual({
          SA0: [0, null],
          SAF: [0, null],
          SAF1: [1, 'SAF'],
          SAF11: [2, 'SAF1'],
          SAH1: [1, 'SAH'],
          SEFA: [4, 'SAF111'], // Cereals and cereal products, under Cereals and bakery products
          SEHC: [2, 'SAH1'],
        });
      });

      it('serves what BLS published for November 2023', async () => {
        const board = (await (
          await import('../../../src/datasets/cpi/read.js')
        ).readBoard(env.deps, { params: {}, query: {} })) as {
          data: {
            release: { period: string; weightsPeriod: string };
            rows: { code: string; change: number; yoy: number; weight: number }[];
          };
        };
        expect(board.data.release).toMatchObject({ period: '2023-11', weightsPeriod: '2022-12' });
        const row = (code: string) => board.data.rows.find((r) => r.code === code);
        // BLS CPI news release of 12 December 2023: one-month change (seasonally adjusted) and twelve-month
        // change (not adjusted), in percent.
        expect(row('SA0')).toMatchObject({ change: 0.1, yoy: 3.1 });
        expect(row('SA0L1E')).toMatchObject({ change: 0.3, yoy: 4 });
        expect(row('SAF1')).toMatchObject({ change: 0.2, yoy: 2.9 });
        expect(row('SA0E')).toMatchObject({ change: -2.3, yoy: -5.4 });
        expect(row('SAH1')).toMatchObject({ change: 0.4, yoy: 6.5 });
      });

      it('serves the relative importance BLS published, for every component on the board', async () => {
        const { readBoard } = await import('../../../src/datasets/cpi/read.js');
        const board = (await readBoard(env.deps, { params: {}, query: {} })) as {
          data: { rows: { label: string; weight: number | null }[] };
        };
        // relative_importance_dec2021_to_dec2024.csv, the rows of year_weight 2023 (December 2022 weights).
        const published = new Map([
          ['All items', 100],
          ['All items less food and energy', 79.548],
          ['Food', 13.531],
          ['Energy', 6.921],
          ['Shelter', 34.413],
        ]);
        let compared = 0;
        for (const r of board.data.rows) {
          if (!published.has(r.label)) continue;
          expect(r.weight, r.label).toBe(published.get(r.label));
          compared += 1;
        }
        expect(compared).toBe(5);
      });
    });
  }

  describe('other layouts of the same series', () => {
    let env: TestEnv;
    beforeAll(async () => {
      env = await testEnv();
    });
    afterAll(() => env.close());
    const load = (file: string) => loadFile(env.deps, LOADERS.bls as NonNullable<typeof LOADERS.bls>, file);

    it('reads cu.series, keeping the U.S. city average monthly series', async () => {
      const report = await load(real('bls/cu.series.zip'));
      expect(report.lines).toBe(719);
      const all = await env.deps.store.db
        .selectFrom('cpi_series')
        .selectAll()
        .where('series_id', '=', 'CUSR0000SA0')
        .executeTakeFirstOrThrow();
      expect(all).toMatchObject({
        item_code: 'SA0',
        seasonal: 'S',
        first_period: '1947-01',
        last_period: '2023-03',
      });
    });

    it('reads cu.data flat files and BLS API v2 JSON to the same index values', async () => {
      // CPI-U, U.S. city average, not seasonally adjusted: November and December 2024 (BLS).
      const flat = path.join(env.dataDir, 'cu.data.1.AllItems');
      writeFileSync(
        flat,
        'series_id        \tyear\tperiod\tvalue\tfootnote_codes\n' +
          'CUUR0000SA0      \t2024\tM11\t315.493\t\n' +
          'CUUR0000SA0      \t2024\tM12\t315.605\t\n' +
          'CUUR0000SA0      \t2024\tM13\t313.689\t\n',
      );
      expect(await load(flat)).toMatchObject({
        lines: 2,
        inserted: 2,
        firstDate: '2024-11-01',
        lastDate: '2024-12-01',
      });
      const api = path.join(env.dataDir, 'bls-api.json');
      writeFileSync(
        api,
        JSON.stringify({
          status: 'REQUEST_SUCCEEDED',
          Results: {
            series: [
              {
                seriesID: 'CUUR0000SA0',
                data: [
                  { year: '2024', period: 'M12', periodName: 'December', value: '315.605', footnotes: [{}] },
                  { year: '2024', period: 'M11', periodName: 'November', value: '315.493', footnotes: [{}] },
                ],
              },
            ],
          },
        }),
      );
      expect(await load(api)).toMatchObject({ lines: 2, inserted: 0, unchanged: 2 });
    });

    it('refuses files it does not know and weights before items, with a clear message', async () => {
      const odd = path.join(env.dataDir, 'odd.csv');
      writeFileSync(odd, 'a,b,c\n1,2,3\n');
      await expect(load(odd)).rejects.toThrow(/odd\.csv:1: not a BLS CPI file/);
      const empty = await testEnv();
      try {
        await expect(
          loadFile(
            empty.deps,
            LOADERS.bls as NonNullable<typeof LOADERS.bls>,
            asset('bls/relative_importance_dec2021_to_dec2024.csv'),
          ),
        ).rejects.toThrow(/load the item hierarchy \(cu\.item\) first/);
      } finally {
        await empty.close();
      }
    });
  });
});

const ALL_ITEMS = asset('bls/cu.data.1.AllItems');
describe('BLS months with no data (October 2025)', () => {
  let env: TestEnv;
  let notes: string[] = [];
  beforeAll(async () => {
    env = await testEnv();
    const bls = LOADERS.bls as NonNullable<typeof LOADERS.bls>;
    await loadFile(env.deps, bls, asset('bls/cu.item'));
    notes = (await loadFile(env.deps, bls, ALL_ITEMS)).notes;
  });
  afterAll(() => env.close());

  it('"-" values load as missing, not errors, and the load says which months', () => {
    expect(notes).toContain('no value published for 2025-10 (marked "-"): left missing');
  });

  it('the board names the missing month in gaps, is partial, and the changes across it are null', async () => {
    const { readBoard } = await import('../../../src/datasets/cpi/read.js');
    const board = (await readBoard(env.deps, { params: {}, query: {} })) as {
      data: {
        status: string;
        gaps: string[];
        release: { period: string };
        rows: {
          code: string;
          change: number | null;
          yoy: number | null;
          history: [string, number | null, number | null][];
        }[];
      };
    };
    expect(board.data.release.period).toBe('2026-03');
    expect(board.data.status).toBe('partial');
    expect(board.data.gaps).toContain(
      'no all-items index value for 2025-10: the changes across those months are null',
    );
    const all = board.data.rows.find((r) => r.code === 'SA0');
    const history = new Map(all?.history.map(([p, change, yoy]) => [p, [change, yoy]]));
    expect(history.get('2025-10')).toEqual([null, null]);
    expect(history.get('2025-11')?.[0]).toBeNull();
    // Worked by hand from the file: CUUR0000SA0 330.213 (2026-03) / 319.799 (2025-03) = +3.26 %, and
    // CUSR0000SA0 330.293 / 327.460 (2026-02) = +0.87 %, to one decimal as the board serves them.
    expect(all).toMatchObject({ yoy: 3.3, change: 0.9 });
  });
});
