// The EIA loader on EIA's own files (psw01.xls, table1.csv, ngshistory.xls, a data-browser CSV), and our
// figures checked against the figures EIA publishes in them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { millionsToThousands, TABLE1_STOCKS } from '../../src/datasets/energy/load/eia.js';
import { eastern } from '../../src/datasets/energy/load/workbook.js';
import { readInventories } from '../../src/datasets/energy/read.js';
import { loadFile } from '../../src/ingest/run.js';
import { csvFields } from '../../src/ingest/source.js';
import { readWorkbook } from '../../src/ingest/xls.js';
import { LOADERS } from '../../src/runtime/loaders.js';
import { ENGINES, type TestEnv, testEnv } from '../helpers/env.js';
import { haveShared } from '../helpers/shared.js';

const EIA = path.resolve('../shared/data/eia');
const file = (name: string) => path.join(EIA, name);
const hasFiles = haveShared(file('psw01.xls'));

type Board = {
  data: {
    reports: {
      id: string;
      weekEnding: string;
      releasedAt: string | null;
      releaseHoliday: boolean;
      nextReleaseAt: string | null;
      nextReleaseHoliday: boolean;
    }[];
    series: {
      id: string;
      weekEnding: string;
      value: number | null;
      weekChange: number | null;
      yearAgo: number | null;
      fiveYear: number | null;
    }[];
  };
};

describe('US Eastern release times', () => {
  it('10:30 Eastern is 15:30 UTC in winter and 14:30 UTC in summer', () => {
    expect(eastern('2026-02-11', 10, 30)).toBe('2026-02-11T15:30:00.000Z');
    expect(eastern('2021-06-03', 10, 30)).toBe('2021-06-03T14:30:00.000Z');
    expect(eastern('2026-03-08', 10, 30)).toBe('2026-03-08T14:30:00.000Z'); // the second Sunday of March
  });
});

// The agencies' files sit in ../shared beside the project (CI has them); without them these are skipped.
describe.skipIf(!hasFiles)('EIA loader', () => {
  for (const { engine, skip } of ENGINES) {
    describe.skipIf(skip)(`on ${engine}`, () => {
      let env: TestEnv;
      const load = (name: string) =>
        loadFile(env.deps.store.db, LOADERS.eia as NonNullable<typeof LOADERS.eia>, file(name));
      beforeAll(async () => {
        env = await testEnv({ engine });
      });
      afterAll(() => env.close());

      it('psw01.xls: every week of the stocks sheet and the release calendar, holiday shift included', async () => {
        const report = await load('psw01.xls');
        expect(report).toMatchObject({
          firstDate: '1982-08-20',
          lastDate: '2026-02-06',
          inserted: report.lines,
        });
        const board = (await readInventories(env.deps)) as Board;
        expect(board.data.reports).toEqual([
          {
            id: 'wpsr-2026-02-06',
            weekEnding: '2026-02-06',
            releasedAt: '2026-02-11T15:30:00.000Z',
            releaseHoliday: false,
            nextWeekEnding: '2026-02-13',
            // The Thursday after Presidents' Day.
            nextReleaseAt: '2026-02-19T15:30:00.000Z',
            nextReleaseHoliday: true,
          },
        ]);
        const crude = board.data.series.find((s) => s.id === 'WCESTUS1');
        // Commercial crude, week ending 2026-02-06: 428,829 thousand barrels in the sheet.
        expect(crude).toMatchObject({ weekEnding: '2026-02-06', value: 428829 });
        expect(crude?.fiveYear).not.toBeNull();
        expect(await load('psw01.xls')).toMatchObject({ inserted: 0, revised: 0, unchanged: report.lines });
      });

      it("table1.csv: EIA's weekly difference and year-ago level against ours", async () => {
        await load('wpsr_table1_week_ending_2026-06-05.csv');
        const board = (await readInventories(env.deps)) as Board;
        const rows = readFileSync(file('wpsr_table1_week_ending_2026-06-05.csv'), 'utf8')
          .split('\n')
          .map((l) => csvFields(l).map((f) => f.trim()));
        let compared = 0;
        for (const [stub, series] of TABLE1_STOCKS) {
          const published = rows.find((r) => r[0] === stub) as string[];
          const ours = board.data.series.find((s) => s.id === series);
          expect(ours?.weekEnding).toBe('2026-06-05');
          // EIA's difference comes from its unrounded data: agreement to its last printed digit (1,000 barrels).
          expect(
            Math.abs((ours?.weekChange as number) - (millionsToThousands(published[3] as string) as number)),
            stub,
          ).toBeLessThanOrEqual(1);
          expect(ours?.yearAgo, stub).toBe(millionsToThousands(published[5] as string));
          compared += 1;
        }
        expect(compared).toBe(19);
      });

      it("ngshistory.xls: EIA's published weekly net change against our week change, every week and region", async () => {
        const report = await load('ngshistory.xls');
        expect(report).toMatchObject({ firstDate: '2010-01-01', lastDate: '2021-05-28' });
        const [levels, changes] = readWorkbook(readFileSync(file('ngshistory.xls')));
        const header = (levels?.rows.findIndex((r) => r?.[0] === 'Week ending') ?? -1) + 1;
        const { STORAGE_SERIES } = await import('../../src/datasets/energy/load/workbook.js');
        const names = (levels?.rows[header - 1] ?? []).map((c) => String(c ?? ''));
        const db = env.deps.store.db;
        let compared = 0;
        for (let col = 2; col < names.length; col += 1) {
          const series = STORAGE_SERIES[names[col] as string] as string;
          const stored = await db
            .selectFrom('energy_observations')
            .select(['week_ending', 'value'])
            .where('series_id', '=', series)
            .where('is_current', '=', 1)
            .orderBy('week_ending')
            .execute();
          for (let i = 1; i < stored.length; i += 1) {
            const published = changes?.rows[header + i]?.[col];
            if (typeof published !== 'number') continue;
            const { weekChange } = await import('../../src/datasets/energy/derive.js');
            expect(
              weekChange(Number(stored[i]?.value), Number(stored[i - 1]?.value)),
              `${series} ${stored[i]?.week_ending}`,
            ).toBe(published);
            compared += 1;
          }
        }
        expect(compared).toBe(4760);
      });

      it('a data-browser CSV of the Lower 48 series agrees with the workbook', async () => {
        expect(await load('Weekly_Working_Gas_in_Underground_Storage.csv')).toMatchObject({
          lines: 597,
          inserted: 0,
        });
      });
    });
  }
});
