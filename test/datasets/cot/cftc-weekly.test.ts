// The CFTC's current-week files (deafut.txt, f_disagg.txt): no header row, the columns of the year files in
// their order. Twelve real weekly deafut.txt files (2026-04-07 to 2026-07-07, two weeks missing) load as
// records, their figures as printed, and our weekly change agrees with the CFTC's own.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readContract } from '../../../src/datasets/cot/read.js';
import { loadFile } from '../../../src/ingest/run.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { keyOf, splitLine } from '../../helpers/csv.js';
import { ENGINES, type TestEnv, testEnv } from '../../helpers/env.js';
import { asset, readText, real } from '../../helpers/real-data.js';

const WEEKLY = real('cftc/weekly');
const LEGACY_YEAR = asset('cftc/deacot2025.zip');
const DISAGG_YEAR = real('cftc/fut_disagg_txt_2021_f_year.zip');

/** Each weekly file's report date and row count, as the files' provenance lists them. */
const WEEKS: [string, number][] = [
  ['2026-04-07', 347],
  ['2026-04-14', 353],
  ['2026-04-21', 359],
  ['2026-04-28', 365],
  ['2026-05-05', 360],
  ['2026-05-12', 361],
  ['2026-05-19', 369],
  ['2026-05-26', 371],
  ['2026-06-02', 364],
  ['2026-06-09', 356],
  ['2026-06-23', 361],
  ['2026-07-07', 352],
];
const weekly = (date: string) => path.join(WEEKLY, `deafut_${date}.zip`);

/** A file's lines as they are, without the empty last one. */
const linesOf = (file: string) =>
  readText(file)
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '');

/** The weekly rows keyed by the legacy year file's header, which the weekly files follow column by column. */
function weeklyRows(): Record<string, string>[] {
  const names = splitLine(linesOf(LEGACY_YEAR)[0] as string).map(keyOf);
  return WEEKS.flatMap(([date]) =>
    linesOf(weekly(date)).map((line) =>
      Object.fromEntries(splitLine(line).map((v, i) => [names[i], v.trim()])),
    ),
  );
}

const DAY = 86_400_000;
const weekBefore = (date: string) =>
  new Date(Date.parse(`${date}T00:00:00Z`) - 7 * DAY).toISOString().slice(0, 10);

describe("the CFTC's current-week files", () => {
  for (const { engine, skip } of ENGINES) {
    describe.skipIf(skip)(`on ${engine}`, () => {
      let env: TestEnv;
      const cftc = LOADERS.cftc as NonNullable<typeof LOADERS.cftc>;
      beforeAll(async () => {
        env = await testEnv({ engine });
      });
      afterAll(() => env.close());

      it('each weekly deafut.txt loads every row as a record of its one report date', async () => {
        for (const [date, rows] of WEEKS) {
          const report = await loadFile(env.deps, cftc, weekly(date));
          expect([date, report]).toMatchObject([
            date,
            { dataset: 'cot', lines: rows, inserted: rows, revised: 0, firstDate: date, lastDate: date },
          ]);
        }
        expect(await loadFile(env.deps, cftc, weekly('2026-07-07'))).toMatchObject({
          inserted: 0,
          unchanged: 352,
        });
      });

      it('gold as the files print it (a quoted name with a comma is one field)', async () => {
        const served = await readContract(env.deps, { params: { contractCode: '088691' }, query: {} });
        const rows = (served.data as { rows: Record<string, unknown>[] }).rows;
        expect(rows).toHaveLength(12);
        // deafut_2026-04-07.txt: open interest 354,877; noncommercial long 205,368, short 49,063.
        expect(rows[0]).toMatchObject({
          marketName: 'GOLD - COMMODITY EXCHANGE INC.',
          reportDate: '2026-04-07',
          openInterest: 354877,
          position: { long: 205368, short: 49063, net: 156305, weeklyChange: null },
        });
        // 2026-07-07 follows a week the files miss (06-30): no weekly change is made up across two weeks.
        expect(rows.at(-1)).toMatchObject({
          reportDate: '2026-07-07',
          openInterest: 371776,
          position: { long: 233713, short: 39467, weeklyChange: null, previousReportDate: '2026-06-23' },
        });
        const milk = await readContract(env.deps, { params: { contractCode: '052641' }, query: {} });
        expect((milk.data as { rows: { marketName: string }[] }).rows[0]?.marketName).toBe(
          'MILK, Class III - CHICAGO MERCANTILE EXCHANGE',
        );
      });

      it("our weekly change of the noncommercial net equals the CFTC's change in long less change in short", async () => {
        const published = weeklyRows();
        const held = new Set(
          published.map((r) => `${r.cftc_contract_market_code} ${r.as_of_date_in_form_yyyy_mm_dd}`),
        );
        const codes = [...new Set(published.map((r) => r.cftc_contract_market_code as string))];
        let compared = 0;
        for (const code of codes) {
          const served = await readContract(env.deps, { params: { contractCode: code }, query: {} });
          const ours = new Map(
            (
              served.data as { rows: { reportDate: string; position: { weeklyChange: number | null } }[] }
            ).rows.map((r) => [r.reportDate, r.position.weeklyChange]),
          );
          for (const r of published.filter((p) => p.cftc_contract_market_code === code)) {
            const date = r.as_of_date_in_form_yyyy_mm_dd as string;
            const long = r.change_in_noncommercial_long_all as string;
            const short = r.change_in_noncommercial_short_all as string;
            if (!held.has(`${code} ${weekBefore(date)}`) || long === '.' || short === '.') {
              continue;
            }
            const theirs = Number(long) - Number(short);
            // Consolidated markets (codes ending in +): the CFTC rounds each part's change before adding them.
            if (code.endsWith('+'))
              expect(Math.abs((ours.get(date) as number) - theirs)).toBeLessThanOrEqual(2);
            else expect([code, date, ours.get(date)]).toEqual([code, date, theirs]);
            compared += 1;
          }
        }
        // Counted in the files: every row whose week before is also held and whose changes are printed.
        expect(compared).toBe(3199);
      });

      it('a year file written without its header loads as the same records, legacy and disaggregated', async () => {
        for (const [year, rows, family] of [
          [LEGACY_YEAR, 3506, 'legacy'],
          [DISAGG_YEAR, 2178, 'disaggregated'],
        ] as const) {
          const [, ...body] = linesOf(year);
          await loadFile(env.deps, cftc, year);
          const bare = path.join(env.dataDir, `${family}-without-header.txt`);
          writeFileSync(bare, `${body.join('\r\n')}\r\n`);
          expect(await loadFile(env.deps, cftc, bare)).toMatchObject({
            lines: rows,
            inserted: 0,
            revised: 0,
            unchanged: rows,
          });
        }
      });

      it('a header-less row of another width is refused, naming what it begins with', async () => {
        const [first] = linesOf(weekly('2026-04-07'));
        const cut = path.join(env.dataDir, 'deafut-cut.txt');
        writeFileSync(
          cut,
          `${splitLine(first as string)
            .slice(0, 50)
            .join(',')}\n`,
        );
        await expect(loadFile(env.deps, cftc, cut)).rejects.toThrow(
          /deafut-cut\.txt:1: not a CFTC legacy or disaggregated futures-only report/,
        );
      });
    });
  }
});
