// The CFTC loader on the CFTC's own files, and our figures checked against the figures the CFTC publishes
// in the same files: its weekly "Change in" columns and its "% of OI" shares, as the routes serve them.

import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportDate } from '../../../src/datasets/cot/load/cftc.js';
import { readContract } from '../../../src/datasets/cot/read.js';
import { loadFile } from '../../../src/ingest/run.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { keyOf, splitLine } from '../../helpers/csv.js';
import { ENGINES, type TestEnv, testEnv } from '../../helpers/env.js';
import { asset, readText, real } from '../../helpers/real-data.js';

const LEGACY = asset('cftc/deacot2025.zip');
const DISAGG = real('cftc/fut_disagg_txt_2021_f_year.zip');

/** The file's rows as objects keyed by their header's keys, read without the loader's own readers. */
function rows(file: string): Record<string, string>[] {
  const [header, ...lines] = readText(file)
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '');
  const names = splitLine(header as string).map(keyOf);
  return lines.map((line) => Object.fromEntries(splitLine(line).map((v, i) => [names[i], v.trim()])));
}

// These files are the agencies' own, kept in the repository (assets/ and test/fixtures/real/).
describe('CFTC loader', () => {
  for (const { engine, skip } of ENGINES) {
    describe.skipIf(skip)(`on ${engine}`, () => {
      let env: TestEnv;
      beforeAll(async () => {
        env = await testEnv({ engine });
      });
      afterAll(() => env.close());
      const cftc = () => LOADERS.cftc as NonNullable<typeof LOADERS.cftc>;

      it('loads every row, contract and class of both report families; a second run changes nothing', async () => {
        const legacy = await loadFile(env.deps, cftc(), LEGACY);
        expect(legacy).toMatchObject({
          lines: 3506,
          inserted: 3506,
          firstDate: '2025-01-07',
          lastDate: '2025-03-18',
        });
        const disagg = await loadFile(env.deps, cftc(), DISAGG);
        expect(disagg).toMatchObject({
          lines: 2178,
          inserted: 2178,
          firstDate: '2021-01-05',
          lastDate: '2021-03-16',
        });
        const codes = await env.deps.store.db
          .selectFrom('cot_records')
          .select(['report_family', (eb) => eb.fn.count<number>('contract_code').distinct().as('n')])
          .groupBy('report_family')
          .orderBy('report_family')
          .execute();
        expect(codes.map((c) => [c.report_family, Number(c.n)])).toEqual([
          ['disaggregated', 220],
          ['legacy', 353],
        ]);
        expect(await loadFile(env.deps, cftc(), LEGACY)).toMatchObject({
          inserted: 0,
          unchanged: 3506,
        });
        const files = await env.deps.store.db.selectFrom('source_files').selectAll().orderBy('id').execute();
        expect(files.map((f) => [f.name, Number(f.rows), f.first_date, f.last_date])).toEqual([
          ['deacot2025.zip', 3506, '2025-01-07', '2025-03-18'],
          ['fut_disagg_txt_2021_f_year.zip', 2178, '2021-01-05', '2021-03-16'],
          ['deacot2025.zip', 3506, '2025-01-07', '2025-03-18'],
        ]);
        expect(files[0]?.checksum).toMatch(/^[0-9a-f]{64}$/);
      });

      it('reads LF and zipped copies as the same records', async () => {
        const lf = path.join(env.dataDir, 'annual-lf.txt');
        writeFileSync(lf, readText(LEGACY).replace(/\r\n/g, '\n'));
        expect(await loadFile(env.deps, cftc(), lf)).toMatchObject({ lines: 3506, unchanged: 3506 });
        const dir = path.join(env.dataDir, 'zip');
        execFileSync('mkdir', ['-p', dir]);
        writeFileSync(path.join(dir, 'f_year.txt'), readText(DISAGG));
        execFileSync('zip', ['-q', 'fut_disagg_txt_2021.zip', 'f_year.txt'], { cwd: dir });
        expect(await loadFile(env.deps, cftc(), path.join(dir, 'fut_disagg_txt_2021.zip'))).toMatchObject({
          lines: 2178,
          unchanged: 2178,
        });
      });

      // The CFTC's spreadsheet downloads and older text files name every column with underscores, the legacy
      // classes abbreviated, and date the report Report_Date_as_MM_DD_YYYY. These copies of the real files
      // carry those names (and month/day/year dates) and must load as the very records already held.
      it('reads the underscore layout dated Report_Date_as_MM_DD_YYYY as the same records', async () => {
        const [header, ...lines] = readText(DISAGG).split(/\r?\n/);
        const names = splitLine(header as string);
        const at = names.indexOf('Report_Date_as_YYYY-MM-DD');
        expect(at).toBe(2);
        names[at] = 'Report_Date_as_MM_DD_YYYY';
        const usDates = lines.map((line) => {
          if (line.trim() === '') return line;
          const fields = splitLine(line);
          const [y, m, d] = (fields[at] as string).split('-');
          fields[at] = `${m}/${d}/${y}`;
          return fields.map((f) => `"${f}"`).join(',');
        });
        const disagg = path.join(env.dataDir, 'f_year_mm_dd_yyyy.txt');
        writeFileSync(disagg, [names.map((n) => `"${n}"`).join(','), ...usDates].join('\n'));
        expect(await loadFile(env.deps, cftc(), disagg)).toMatchObject({
          lines: 2178,
          unchanged: 2178,
          firstDate: '2021-01-05',
          lastDate: '2021-03-16',
        });

        // The legacy report as its spreadsheet names it, with ISO values under the MM_DD_YYYY name.
        const underscored = [
          'Market_and_Exchange_Names',
          'As_of_Date_In_Form_YYMMDD',
          'Report_Date_as_MM_DD_YYYY',
          'CFTC_Contract_Market_Code',
          'CFTC_Market_Code',
          'CFTC_Region_Code',
          'CFTC_Commodity_Code',
          'Open_Interest_All',
          'NonComm_Positions_Long_All',
          'NonComm_Positions_Short_All',
          'NonComm_Postions_Spread_All',
          'Comm_Positions_Long_All',
          'Comm_Positions_Short_All',
          'Tot_Rept_Positions_Long_All',
          'Tot_Rept_Positions_Short_All',
          'NonRept_Positions_Long_All',
          'NonRept_Positions_Short_All',
        ];
        const [legacyHeader, ...legacyLines] = readText(LEGACY).split(/\r?\n/);
        const legacyNames = splitLine(legacyHeader as string);
        expect(legacyNames[10]).toBe('Noncommercial Positions-Spreading (All)');
        legacyNames.splice(0, underscored.length, ...underscored);
        const legacy = path.join(env.dataDir, 'legacy_underscored.txt');
        writeFileSync(legacy, [legacyNames.map((n) => `"${n}"`).join(','), ...legacyLines].join('\n'));
        expect(await loadFile(env.deps, cftc(), legacy)).toMatchObject({
          lines: 3506,
          unchanged: 3506,
        });

        // A report date under a name the loader does not know is refused, naming the date columns it found.
        const renamed = readText(DISAGG).replace('Report_Date_as_YYYY-MM-DD', 'Report_Date_as_DD_MM_YYYY');
        const unknown = path.join(env.dataDir, 'f_year_dd_mm.txt');
        writeFileSync(unknown, renamed);
        await expect(loadFile(env.deps, cftc(), unknown)).rejects.toThrow(
          'missing columns: report date (the header\'s date columns: "As_of_Date_In_Form_YYMMDD", "Report_Date_as_DD_MM_YYYY")',
        );
      });

      it('a malformed row stops the load with its file and line, and nothing of the file is kept', async () => {
        const lines = readText(DISAGG).split('\n');
        const fields = splitLine(lines[5] as string);
        fields[3] = '99999Z';
        fields[8] = 'lots';
        lines[5] = fields.map((f) => `"${f}"`).join(',');
        const bad = path.join(env.dataDir, 'f_year_bad.txt');
        writeFileSync(bad, lines.join('\n'));
        await expect(loadFile(env.deps, cftc(), bad)).rejects.toThrow(
          /f_year_bad\.txt:6: prod_merc_positions_long_all is "lots"/,
        );
        const kept = await env.deps.store.db
          .selectFrom('cot_records')
          .select('id')
          .where('contract_code', '=', '99999Z')
          .execute();
        expect(kept).toEqual([]);
      });
    });
  }

  it('reads report dates as the CFTC writes them and refuses any other', () => {
    expect(reportDate('2021-01-05')).toBe('2021-01-05');
    expect(reportDate('2021-01-05T00:00:00.000')).toBe('2021-01-05');
    expect(reportDate('01/05/2021')).toBe('2021-01-05');
    expect(reportDate('1/5/2021 12:00:00 AM')).toBe('2021-01-05');
    expect(reportDate('12/28/2021')).toBe('2021-12-28');
    expect(reportDate('28/12/2021')).toBeNull();
    expect(reportDate('2021-02-30')).toBeNull();
    expect(reportDate('01/05/21')).toBeNull();
    expect(reportDate('210105')).toBeNull();
  });

  describe('against the figures the CFTC publishes', () => {
    let env: TestEnv;
    beforeAll(async () => {
      env = await testEnv();
      const cftc = LOADERS.cftc as NonNullable<typeof LOADERS.cftc>;
      await loadFile(env.deps, cftc, LEGACY);
      await loadFile(env.deps, cftc, DISAGG);
    });
    afterAll(() => env.close());

    interface ServedPosition {
      longPercentOfOpenInterest: number | null;
      shortPercentOfOpenInterest: number | null;
    }

    /** One contract's positions as cot.contract serves them, by report date. */
    async function positions(
      env: TestEnv,
      report: 'legacy' | 'disaggregated',
      traderClass: string,
      contractCode: string,
    ) {
      const served = await readContract(env.deps, {
        params: { contractCode },
        query: { report, traderClass },
      });
      const data = served.data as { rows: { reportDate: string; position: ServedPosition }[] };
      return new Map(data.rows.map((r) => [r.reportDate, r.position]));
    }

    const FAMILIES = [
      {
        file: LEGACY,
        report: 'legacy',
        date: 'as_of_date_in_form_yyyy_mm_dd',
        classes: {
          noncommercial: [
            'change_in_noncommercial_long_all',
            'change_in_noncommercial_short_all',
            '%_of_oi_noncommercial_long_all',
            '%_of_oi_noncommercial_short_all',
            'noncommercial_positions_long_all',
          ],
          commercial: [
            'change_in_commercial_long_all',
            'change_in_commercial_short_all',
            '%_of_oi_commercial_long_all',
            '%_of_oi_commercial_short_all',
            'commercial_positions_long_all',
          ],
          nonreportable: [
            'change_in_nonreportable_long_all',
            'change_in_nonreportable_short_all',
            '%_of_oi_nonreportable_long_all',
            '%_of_oi_nonreportable_short_all',
            'nonreportable_positions_long_all',
          ],
        },
      },
      {
        file: DISAGG,
        report: 'disaggregated',
        date: 'report_date_as_yyyy_mm_dd',
        classes: {
          producer: [
            'change_in_prod_merc_long_all',
            'change_in_prod_merc_short_all',
            'pct_of_oi_prod_merc_long_all',
            'pct_of_oi_prod_merc_short_all',
            'prod_merc_positions_long_all',
          ],
          swap: [
            'change_in_swap_long_all',
            'change_in_swap_short_all',
            'pct_of_oi_swap_long_all',
            'pct_of_oi_swap_short_all',
            'swap_positions_long_all',
          ],
          'managed-money': [
            'change_in_m_money_long_all',
            'change_in_m_money_short_all',
            'pct_of_oi_m_money_long_all',
            'pct_of_oi_m_money_short_all',
            'm_money_positions_long_all',
          ],
          'other-reportable': [
            'change_in_other_rept_long_all',
            'change_in_other_rept_short_all',
            'pct_of_oi_other_rept_long_all',
            'pct_of_oi_other_rept_short_all',
            'other_rept_positions_long_all',
          ],
          nonreportable: [
            'change_in_nonrept_long_all',
            'change_in_nonrept_short_all',
            'pct_of_oi_nonrept_long_all',
            'pct_of_oi_nonrept_short_all',
            'nonrept_positions_long_all',
          ],
        },
      },
    ] as const;

    for (const family of FAMILIES) {
      it(`${family.report}: our weeklyChange equals the CFTC's change in long minus change in short`, async () => {
        const published = rows(family.file);
        let compared = 0;
        const byContract = new Map<string, Record<string, string>[]>();
        for (const r of published)
          byContract.set(r.cftc_contract_market_code as string, [
            ...(byContract.get(r.cftc_contract_market_code as string) ?? []),
            r,
          ]);
        for (const [traderClass, [changeLong, changeShort]] of Object.entries(family.classes)) {
          for (const [code, list] of byContract) {
            const served = await readContract(env.deps, {
              params: { contractCode: code },
              query: { report: family.report, traderClass },
            });
            const byDate = new Map(
              (
                served.data as { rows: { reportDate: string; position: { weeklyChange: number | null } }[] }
              ).rows.map((r) => [r.reportDate, r.position.weeklyChange]),
            );
            for (const r of list) {
              const ours = byDate.get(r[family.date] as string);
              if (ours === null || ours === undefined || r[changeLong] === '.' || r[changeShort] === '.')
                continue;
              const theirs = Number(r[changeLong]) - Number(r[changeShort]);
              // Consolidated markets (codes ending in +) combine a contract and its mini: the CFTC rounds each
              // part's change before adding them, so its change can differ from the change of the combined
              // levels by a contract or two. Every other market must agree exactly.
              if (code.endsWith('+'))
                expect(Math.abs(ours - theirs), `${code} ${traderClass}`).toBeLessThanOrEqual(2);
              else expect(ours, `${code} ${traderClass} ${r[family.date]}`).toBe(theirs);
              compared += 1;
            }
          }
        }
        // Every published pair of changes but each contract's first week (nothing before it is held), counted in
        // the files: 9,366 in the legacy year (three classes), 9,705 in the disaggregated one (five).
        expect(compared).toBe(family.report === 'legacy' ? 9366 : 9705);
      });

      it(`${family.report}: the served long and short shares of open interest are the CFTC's % of OI`, async () => {
        let compared = 0;
        const published = rows(family.file);
        for (const [traderClass, [, , pctLong, pctShort]] of Object.entries(family.classes)) {
          const served = new Map<string, Map<string, ServedPosition>>();
          for (const r of published) {
            const code = r.cftc_contract_market_code as string;
            if (!served.has(code)) served.set(code, await positions(env, family.report, traderClass, code));
            const position = served.get(code)?.get(r[family.date] as string);
            if (!position) continue;
            for (const [ours, pct] of [
              [position.longPercentOfOpenInterest, pctLong],
              [position.shortPercentOfOpenInterest, pctShort],
            ] as const) {
              if (r[pct] === '.' || ours === null) continue;
              // The CFTC publishes one decimal and we two: the two roundings of one share differ by 0.055 at most.
              expect(Math.abs(ours - Number(r[pct])), `${code} ${traderClass} ${pct}`).toBeLessThanOrEqual(
                0.0551,
              );
              compared += 1;
            }
          }
        }
        // Every published share ('.' is none), long and short, of every row and class: 21,036 and 21,780.
        expect(compared).toBe(family.report === 'legacy' ? 21036 : 21780);
      });
    }
  });
});

const DISAGG_2020 = asset('cftc/fut_disagg_txt_2020.zip');
describe('CFTC weekly change across a gap in the reports', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await testEnv();
    const cftc = LOADERS.cftc as NonNullable<typeof LOADERS.cftc>;
    // 2020 up to 03-24, then 2021 from 01-05: nine months without a report in the store.
    await loadFile(env.deps, cftc, DISAGG_2020);
    await loadFile(env.deps, cftc, DISAGG);
  });
  afterAll(() => env.close());

  it('the first report after the gap has no weekly change (the previous report date is still given); the next has the CFTC’s', async () => {
    const served = await readContract(env.deps, {
      params: { contractCode: '067651' },
      // The route takes no date range: every stored report of the contract is served.
      query: { report: 'disaggregated', traderClass: 'managed-money' },
    });
    const byDate = Object.fromEntries(
      (
        served.data as {
          rows: {
            reportDate: string;
            position: { weeklyChange: number | null; previousReportDate: string };
          }[];
        }
      ).rows.map((r) => [r.reportDate, r.position]),
    );
    expect(byDate['2021-01-05']).toMatchObject({ weeklyChange: null, previousReportDate: '2020-03-24' });
    // The CFTC's own change for 2021-01-12 (Change_in_M_Money_Long_All − Change_in_M_Money_Short_All).
    const published = rows(DISAGG).find(
      (r) => r.cftc_contract_market_code === '067651' && r.report_date_as_yyyy_mm_dd === '2021-01-12',
    ) as Record<string, string>;
    const theirs =
      Number(published.change_in_m_money_long_all) - Number(published.change_in_m_money_short_all);
    expect(byDate['2021-01-12']).toMatchObject({ weeklyChange: theirs, previousReportDate: '2021-01-05' });
    expect(theirs).not.toBeNaN();
  });
});
