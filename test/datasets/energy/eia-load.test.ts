// The EIA loader on EIA's own files (psw01.xls, table1.csv, ngshistory.xls, a data-browser CSV), and our
// figures checked against the figures EIA publishes in them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EnergyRecordValue } from '../../../src/datasets/energy/import.js';
import { sheetRecords, workbookRecords } from '../../../src/datasets/energy/load/workbook.js';
import { readInventories } from '../../../src/datasets/energy/read.js';
import { loadFile } from '../../../src/ingest/run.js';
import { openSource } from '../../../src/ingest/source.js';
import { readWorkbook, type Sheet } from '../../../src/ingest/xls.js';
import { eastern } from '../../../src/kernel/eastern.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { ENGINES, type TestEnv, testEnv } from '../../helpers/env.js';
import { asset, real } from '../../helpers/real-data.js';

const NET_CHANGES = path.resolve('test/fixtures/eia/ngshistory-net-changes.csv');

/**
 * Table 1 of the WPSR for the week ending 2026-06-05 (wpsr_table1_week_ending_2026-06-05.csv) as EIA prints it,
 * in thousand barrels: the EIA series of each stock row, its difference from the week before and its level a
 * year before (printed in million barrels to three decimals: "-15.155" is -15,155 thousand barrels).
 */
const TABLE1: [stub: string, series: string, difference: number, yearAgo: number][] = [
  ['Crude Oil', 'WCRSTUS1', -15155, 834474],
  ['Commercial (Excluding SPR)', 'WCESTUS1', -7228, 432415],
  ['Strategic Petroleum Reserve (SPR)', 'WCSSTUS1', -7927, 402059],
  ['Total Motor Gasoline', 'WGTSTUS1', 186, 229804],
  ['Reformulated', 'WGRSTUS1', 8, 29],
  ['Conventional', 'WG4ST_NUS_1', 380, 15102],
  ['Blending Components', 'WBCSTUS1', -202, 214672],
  ['Fuel Ethanol', 'W_EPOOXE_SAE_NUS_MBBL', -153, 23734],
  ['Kerosene-Type Jet Fuel', 'WKJSTUS1', 798, 43399],
  ['Distillate Fuel Oil', 'WDISTUS1', -200, 108884],
  ['15 ppm sulfur and Under', 'WD0ST_NUS_1', 68, 99513],
  ['> 15 ppm to 500 ppm sulfur', 'WD1ST_NUS_1', -22, 3073],
  ['> 500 ppm sulfur', 'WDGSTUS1', -246, 6298],
  ['Residual Fuel Oil', 'WRESTUS1', 390, 23193],
  ['Propane/Propylene', 'WPRSTUS1', 1145, 65986],
  ['Other Oils', 'W_EPPO6_SAE_NUS_MBBL', -551, 314085],
  ['Unfinished Oils', 'WUOSTUS1', -1599, 86023],
  ['Total Stocks (Including SPR)', 'WTTSTUS1', -13541, 1643559],
  ['Total Stocks (Excluding SPR)', 'WTESTUS1', -5614, 1241500],
];

/** ngshistory.xls's region columns and EIA's series ids for them. */
const NGS_SERIES: Record<string, string> = {
  'East Region': 'WNGSR.EAST',
  'Midwest Region': 'WNGSR.MIDWEST',
  'Mountain Region': 'WNGSR.MOUNTAIN',
  'Pacific Region': 'WNGSR.PACIFIC',
  'South Central Region': 'WNGSR.SOUTH_CENTRAL',
  Salt: 'WNGSR.SALT',
  NonSalt: 'WNGSR.NONSALT',
  'Total Lower 48': 'NW2_EPG0_SWO_R48_BCF',
};

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

async function collect(records: AsyncIterable<{ value: EnergyRecordValue }>): Promise<EnergyRecordValue[]> {
  const values: EnergyRecordValue[] = [];
  for await (const { value } of records) values.push(value);
  return values;
}

// A psw01 re-saved without its Sourcekey row and its Contents sheet: the real workbook's sheets with that row
// and that sheet taken out, read as the loader reads a workbook's sheets.
describe('psw01 without its Sourcekey row', () => {
  const psw01 = asset('eia/psw01.xls');
  const withoutKeys = (): Sheet[] =>
    readWorkbook(readFileSync(psw01))
      .filter((sheet) => sheet.name !== 'Contents')
      .map((sheet) => ({ ...sheet, rows: sheet.rows.filter((row) => row?.[0] !== 'Sourcekey') }));

  it('reads the same series and every observation by the column labels', async () => {
    const keyed = await collect(workbookRecords(await openSource(psw01)));
    const labelled = await collect(sheetRecords(await openSource(psw01), withoutKeys()));
    const observations = (values: EnergyRecordValue[]) => values.filter((v) => v.type === 'observation');
    // The non-empty cells of the 19 series in "Data 1", counted with catdoc's xls2csv: 33,897.
    expect(observations(labelled)).toHaveLength(33_897);
    expect(observations(labelled)).toEqual(observations(keyed));
    const series = (values: EnergyRecordValue[]) =>
      values.filter((v) => v.type === 'series').map((v) => (v.type === 'series' ? [v.series, v.label] : []));
    expect(series(labelled)).toEqual(series(keyed));
    expect(series(labelled)).toHaveLength(19);
    // Without the Contents sheet there is no release calendar to read; the keyed workbook has one.
    expect(labelled.filter((v) => v.type === 'report')).toEqual([]);
    expect(keyed.filter((v) => v.type === 'report')).toHaveLength(1);
  });

  it('refuses another table of the weekly report, saying which it is', async () => {
    // psw01's supply sheet in the place of its stocks sheet, as a workbook of another WPSR table has it.
    const sheets = withoutKeys();
    const supply = sheets.find((sheet) => sheet.name === 'Data 2') as Sheet;
    const another = [{ ...supply, name: 'Data 1' }];
    await expect(collect(sheetRecords(await openSource(psw01), another))).rejects.toThrow(
      '"Data 1" is "Data 2: Petroleum Supply", not the weekly petroleum stocks table (psw01) this loader reads',
    );
    // Its title row gone too, the labels still tell: they are not stock series.
    const untitled = [{ ...supply, name: 'Data 1', rows: supply.rows.slice(1) }];
    await expect(collect(sheetRecords(await openSource(psw01), untitled))).rejects.toThrow(
      /"Data 1" has no Sourcekey row and columns that are not petroleum stock series: "Weekly U\.S\. Field Production of Crude Oil .*" and \d+ more/,
    );
    // Without any "Data 1", the message names the sheets it has by their titles.
    await expect(collect(sheetRecords(await openSource(psw01), sheets.slice(1)))).rejects.toThrow(
      'a workbook with sheets Data 2 ("Data 2: Petroleum Supply"), Data 3 ("Data 3: Petroleum Supply") is neither',
    );
  });
});

describe('EIA loader', () => {
  for (const { engine, skip } of ENGINES) {
    describe.skipIf(skip)(`on ${engine}`, () => {
      let env: TestEnv;
      const load = (file: string) => loadFile(env.deps, LOADERS.eia as NonNullable<typeof LOADERS.eia>, file);
      beforeAll(async () => {
        env = await testEnv({ engine });
      });
      afterAll(() => env.close());

      it('psw01.xls: every week of the stocks sheet and the release calendar, holiday shift included', async () => {
        const report = await load(asset('eia/psw01.xls'));
        expect(report).toMatchObject({
          firstDate: '1982-08-20',
          lastDate: '2026-02-06',
          // 33,897 weekly values in "Data 1" (counted with catdoc's xls2csv), its 19 series and one release.
          lines: 33_917,
          inserted: 33_917,
        });
        const board = (await readInventories(env.deps, { params: {}, query: {} })) as Board;
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
        // The sheet's weeks within three days of 6 February in 2021 to 2025 (02-05, 02-04, 02-03, 02-09, 02-07):
        // (469,014 + 410,387 + 455,111 + 439,450 + 427,860) / 5.
        expect(crude?.fiveYear).toBe(440364.4);
        expect(await load(asset('eia/psw01.xls'))).toMatchObject({
          inserted: 0,
          revised: 0,
          unchanged: 33_917,
        });
      });

      it("table1.csv: EIA's weekly difference and year-ago level against ours", async () => {
        await load(asset('eia/wpsr_table1_week_ending_2026-06-05.csv'));
        const board = (await readInventories(env.deps, { params: {}, query: {} })) as Board;
        let compared = 0;
        for (const [stub, series, difference, yearAgo] of TABLE1) {
          const ours = board.data.series.find((s) => s.id === series);
          expect(ours?.weekEnding, stub).toBe('2026-06-05');
          // EIA's difference comes from its unrounded data: agreement to its last printed digit (1,000 barrels).
          expect(Math.abs((ours?.weekChange as number) - difference), stub).toBeLessThanOrEqual(1);
          expect(ours?.yearAgo, stub).toBe(yearAgo);
          compared += 1;
        }
        expect(compared).toBe(19);
      });

      it("ngshistory.xls: EIA's published weekly net change against the change of our stored levels, every week and region", async () => {
        const report = await load(real('eia/ngshistory.xls'));
        expect(report).toMatchObject({ firstDate: '2010-01-01', lastDate: '2021-05-28' });
        // EIA's published net changes, as its workbook's second sheet prints them (taken out with catdoc's
        // xls2csv into test/fixtures/eia, so that neither the figures nor their reading are ours).
        const [head, ...weeks] = readFileSync(NET_CHANGES, 'utf8').trim().split('\n');
        const names = (head as string).split(',');
        const db = env.deps.store.db;
        let compared = 0;
        for (let col = 1; col < names.length; col += 1) {
          const series = NGS_SERIES[names[col] as string] as string;
          const stored = await db
            .selectFrom('energy_observations')
            .select(['week_ending', 'value'])
            .where('series_id', '=', series)
            .where('is_current', '=', 1)
            .orderBy('week_ending')
            .execute();
          const level = new Map(stored.map((o) => [o.week_ending, Number(o.value)]));
          for (let i = 1; i < weeks.length; i += 1) {
            const [week, ...cells] = (weeks[i] as string).split(',');
            const [before] = (weeks[i - 1] as string).split(',');
            const published = cells[col - 1];
            if (published === undefined || published === '') continue;
            const now = level.get(week as string);
            const then = level.get(before as string);
            expect([series, week, (now as number) - (then as number)]).toEqual([
              series,
              week,
              Number(published),
            ]);
            compared += 1;
          }
        }
        expect(compared).toBe(4760);
      });

      it('a data-browser CSV of the Lower 48 series agrees with the workbook', async () => {
        // Every one of its 597 weekly values is already loaded from ngshistory.xls with the same figure: a value
        // that disagreed would load as a revision.
        expect(await load(real('eia/Weekly_Working_Gas_in_Underground_Storage.csv'))).toMatchObject({
          lines: 597,
          inserted: 0,
          revised: 0,
          unchanged: 597,
        });
      });
    });
  }
});
