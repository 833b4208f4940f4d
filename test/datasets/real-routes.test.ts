// The boards served from real loaded data: the bundled CFTC, EIA and BLS files (as npm start loads them) and
// the shared disaggregated CFTC file, through the HTTP routes.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Quarry, type Tenor } from '../../clients/typescript/src/index.js';
import { DATASETS, OPERATIONS } from '../../src/datasets/registry.js';
import { loadFile } from '../../src/ingest/run.js';
import { LOADERS } from '../../src/runtime/loaders.js';
import { bundledStore } from '../helpers/bundle.js';
import { splitLine } from '../helpers/csv.js';
import { bearer, type Customer, customer, marketKey, type TestEnv, testEnv } from '../helpers/env.js';
import { havePandas, independent, PYTHON } from '../helpers/python.js';
import { asset, readText, real } from '../helpers/real-data.js';
import { callTool, connect } from '../mcp/client.js';

const DISAGG = real('cftc/fut_disagg_txt_2021_f_year.zip');
/** The boards are read as of this instant: freshness is judged from the agencies' calendars up to it. */
const NOW = new Date('2026-11-25T12:00:00Z');

describe('boards on real data', () => {
  let env: TestEnv;
  let user: Customer;
  beforeAll(async () => {
    // Tool answers in one page: the board's pages are tested in test/mcp; here the doors are compared whole.
    // The bundle as npm start loads it, loaded once a run and copied here.
    const from = await bundledStore(NOW);
    env = await testEnv({ clock: () => NOW, from, env: { QUARRY_MCP_RESULT_BYTES: '10000000' } });
    user = await customer(env.deps);
    if (existsSync(DISAGG))
      await loadFile(env.deps, LOADERS.cftc as NonNullable<typeof LOADERS.cftc>, DISAGG);
    // The bundle loads in about 47 s alone on this machine, slower beside the suite's other files: a budget
    // for a hang, not a speed check (bench/ measures the loaders).
  }, 300_000);
  afterAll(() => env.close());
  const get = async (url: string) => {
    const res = await env.app.inject({ method: 'GET', url, headers: bearer(user.key) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('the catalog says how fresh each dataset is before a call is paid for', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/v1/datasets' });
    const coverage = Object.fromEntries(
      res.json().datasets.map((d: { id: string; coverage: object }) => [d.id, d.coverage]),
    );
    // Each report family on its own: the legacy history ends 2025-03-18 (87 Tuesdays to 17 November 2026 since),
    // the disaggregated 2021-12-21 (256: every Tuesday from 28 December 2021 to 17 November 2026). The dataset's
    // releasesSince is the family furthest behind.
    expect(coverage.cot).toMatchObject({
      lastPeriod: '2025-03-18',
      releasesSince: 256,
      stale: true,
      groups: [
        { group: 'legacy', lastPeriod: '2025-03-18', releasesSince: 87, stale: true },
        { group: 'disaggregated', lastPeriod: '2021-12-21', releasesSince: 256, stale: true },
      ],
    });
    // Petroleum to the week ending 2026-06-05 (23 weeks out since), gas storage to 2026-01-23: 42 weeks ending
    // 30 January to 13 November, out on the Thursdays after.
    expect(coverage['energy-inventories']).toMatchObject({
      lastPeriod: '2026-06-05',
      releasesSince: 42,
      stale: true,
      groups: [
        { group: 'petroleum', lastPeriod: '2026-06-05', releasesSince: 23 },
        { group: 'natural gas', lastPeriod: '2026-01-23', releasesSince: 42 },
      ],
    });
    expect(coverage.cpi).toMatchObject({ lastPeriod: '2026-03-01', releasesSince: 7, stale: true });
    // The next publications by the agencies' calendars, not the collectors' polling times: the CFTC's report of
    // 24 November on Monday 30 November (Thanksgiving moves it), 15:30 New York; the EIA's petroleum report of the
    // week ending 20 November that afternoon, 10:30 New York. The BLS's CPI day is not held: only by when the
    // November CPI comes (the 20th of December, 08:30 New York), not a time it does.
    expect(coverage.cot.nextRelease).toBe('2026-11-30T20:30:00.000Z');
    expect(coverage['energy-inventories'].nextRelease).toBe('2026-11-25T15:30:00.000Z');
    expect(coverage.cpi).toMatchObject({ nextRelease: null, nextReleaseBy: '2026-12-20T13:30:00.000Z' });
    // Awards, filings and pay come as they are filed: no calendar says what is missing.
    for (const id of ['awards', 'events', 'kpis-guidance', 'exec-pay'])
      expect(coverage[id]).toMatchObject({ releasesSince: null, stale: false, lastLoad: expect.any(Object) });
  });

  for (const traderClass of ['noncommercial', 'commercial', 'nonreportable']) {
    it(`cot board, legacy / ${traderClass}: every market of the latest report`, async () => {
      const { data, meta } = await get(`/v1/cftc/cot?traderClass=${traderClass}`);
      expect(data).toMatchObject({
        reportFamily: 'legacy',
        traderClass,
        asOf: '2025-03-18',
        // Every Tuesday's report from 25 March 2025 to 17 November 2026 was out by NOW: 87 of them.
        status: 'partial',
        gaps: ['stale: newest legacy report 2025-03-18; the CFTC has published 87 reports since'],
      });
      expect(meta.coverage).toMatchObject({ lastPeriod: '2025-03-18', releasesSince: 87, stale: true });
      // annual.txt of deacot2025.zip has 316 rows dated 2025-03-18, one per contract code.
      expect(data.rows).toHaveLength(316);
      const wti = data.rows.find((r: { contractCode: string }) => r.contractCode === '067651');
      // The bundle's legacy years are 2021 and early 2025: the one-year window holds the eleven 2025 weeks.
      expect(wti.position.percentile1Y).toMatchObject({
        sampleCount: 11,
        windowStart: '2024-03-26',
        historyStart: '2021-01-05',
        // History reaches back past the window, but 2024's reports are not in the store.
        completeWindow: false,
      });
      expect(meta.historyStarts).toBe('2021-01-05');
    });
  }

  for (const traderClass of ['managed-money', 'producer', 'swap', 'other-reportable', 'nonreportable']) {
    it(`cot board, disaggregated / ${traderClass}`, async () => {
      const { data } = await get(`/v1/cftc/cot?report=disaggregated&traderClass=${traderClass}`);
      expect(data).toMatchObject({ reportFamily: 'disaggregated', traderClass, asOf: '2021-12-21' });
      // fut_disagg_txt_2021's f_year.txt has 217 rows dated 2021-12-21, one per contract code.
      expect(data.rows).toHaveLength(217);
    });
  }

  it('a cot answer is judged by its own report family: the disaggregated board and a contract say how far behind', async () => {
    const legacyGap = 'stale: newest legacy report 2025-03-18; the CFTC has published 87 reports since';
    const disaggGap =
      'stale: newest disaggregated report 2021-12-21; the CFTC has published 256 reports since';
    const board = await get('/v1/cftc/cot?report=disaggregated&traderClass=managed-money');
    expect(board.data).toMatchObject({ asOf: '2021-12-21', status: 'partial', gaps: [disaggGap] });
    expect(board.meta.coverage).toMatchObject({ lastPeriod: '2021-12-21', releasesSince: 256, stale: true });
    // The README's first call: WTI's legacy history, 87 reports behind like its board.
    const wti = await get('/v1/cftc/cot/contracts/067651?traderClass=noncommercial');
    expect(wti.data).toMatchObject({ status: 'partial', gaps: [legacyGap] });
    expect(wti.meta.coverage).toMatchObject({ lastPeriod: '2025-03-18', releasesSince: 87 });
    const managed = await get('/v1/cftc/cot/contracts/067651?report=disaggregated&traderClass=managed-money');
    expect(managed.data).toMatchObject({ status: 'partial', gaps: [disaggGap] });
  });

  it('a past date says what was missing then, by the calendars up to that day', async () => {
    // Legacy: the report of 2025-03-18 was out on Friday 21 March; by the end of 30 April, those of 25 March and
    // 1, 8, 15 and 22 April were out too (29 April's came on 2 May).
    const onTime = await get('/v1/cftc/cot?asOf=2025-03-21');
    expect(onTime.data).toMatchObject({ asOf: '2025-03-18', status: 'available', gaps: [] });
    const behind = await get('/v1/cftc/cot?asOf=2025-04-30');
    expect(behind.data).toMatchObject({
      status: 'partial',
      gaps: ['stale: newest legacy report 2025-03-18; the CFTC has published 5 reports since'],
    });
    expect(behind.meta.coverage).toMatchObject({ releasesSince: 5, stale: true });
  });

  it('disaggregated 2017–2019 are complete years: the 3-year window at 2019-12-31 is complete; after the 2020 gap it is not', async () => {
    const { data } = await get(
      '/v1/cftc/cot/contracts/067651?report=disaggregated&traderClass=managed-money',
    );
    const at = (date: string) => data.rows.find((r: { reportDate: string }) => r.reportDate === date);
    expect(at('2019-12-31').position.percentile3Y).toMatchObject({
      completeWindow: true,
      windowStart: '2017-01-10',
    });
    expect(at('2019-12-31').position.percentile3Y.sampleCount).toBe(156);
    // 2020 is held only to 03-24: a year ending 2021-12-21 starts 2020-12-29, a week the store does not hold.
    expect(at('2021-12-21').position.percentile1Y).toMatchObject({ completeWindow: false });
    expect(at('2021-12-21').position.percentile3Y).toMatchObject({ completeWindow: false });
  });

  const cotChecks = [
    {
      family: 'disaggregated',
      traderClass: 'managed-money',
      files: ['2017', '2018', '2019', '2020', '2021'],
    },
    { family: 'legacy', traderClass: 'noncommercial', files: ['2021', '2025'] },
  ] as const;
  for (const { family, traderClass, files } of cotChecks) {
    it.skipIf(!havePandas())(
      `every ${family} ${traderClass} row of the board against pandas on the CFTC's files: net, weekly change, percentiles`,
      async () => {
        const paths = files.map((year) =>
          asset(family === 'legacy' ? `cftc/deacot${year}.zip` : `cftc/fut_disagg_txt_${year}.zip`),
        );
        // The files in the order the store loaded them: a report read twice is the later file's.
        if (family === 'disaggregated' && existsSync(DISAGG)) paths.push(DISAGG);
        type Pct = {
          value: number | null;
          rank: number;
          sampleCount: number;
          windowStart: string;
          mean: number;
        };
        type Expected = {
          reportDate: string;
          net: number;
          netPercentOfOpenInterest: number | null;
          weeklyChange: number | null;
          percentile1Y: Pct & { min: number; max: number };
          percentile3Y: Pct & { min: number; max: number };
        };
        const expected = independent<Record<string, Expected>>('cot.py', [family, ...paths]);
        const { data } = await get(`/v1/cftc/cot?report=${family}&traderClass=${traderClass}`);
        expect(data.rows.map((r: { contractCode: string }) => r.contractCode).sort()).toEqual(
          Object.keys(expected).sort(),
        );
        // The service rounds to two decimals; pandas' figures are unrounded.
        const near = (served: number | null, raw: number | null) =>
          served === null || raw === null ? served === raw : Math.abs(served - raw) <= 0.005 + 1e-9;
        for (const row of data.rows) {
          const want = expected[row.contractCode]!;
          const got = row.position;
          const at = `${row.contractCode} ${row.reportDate}`;
          expect([row.reportDate, got.net, got.weeklyChange], at).toEqual([
            want.reportDate,
            want.net,
            want.weeklyChange,
          ]);
          expect(near(got.netPercentOfOpenInterest, want.netPercentOfOpenInterest), at).toBe(true);
          for (const window of ['percentile1Y', 'percentile3Y'] as const) {
            const { value, mean, ...counts } = want[window];
            expect(got[window], `${at} ${window}`).toMatchObject(counts);
            expect(near(got[window].value, value), `${at} ${window} value`).toBe(true);
            expect(near(got[window].mean, mean), `${at} ${window} mean`).toBe(true);
          }
        }
      },
    );
  }

  it("one contract's history with percentiles over an incomplete window", async () => {
    const { data } = await get('/v1/cftc/cot/contracts/088691');
    // GOLD in the legacy report: 51 weeks of 2021 (deacot2021.zip) and 11 of 2025, counted in the files.
    expect(data.rows).toHaveLength(62);
    const last = data.rows.at(-1);
    expect(last.position.percentile3Y).toMatchObject({ sampleCount: 11, windowStart: '2022-03-29' });
    const lastOf2021 = data.rows[50];
    expect(lastOf2021.reportDate).toBe('2021-12-21');
    // Within 2021 every week is there: 51 samples from the first report on.
    expect(lastOf2021.position.percentile1Y).toMatchObject({ sampleCount: 51 });
    // Noncommercial nets of 2025 in annual.txt: 257,932 on 03-18 has three of the ten others below it
    // (254,911, 243,261, 236,100) and none equal: 100 x 3 / 10.
    expect(last.position.percentile1Y).toMatchObject({ value: 30, rank: 4, min: 236100, max: 302508 });
  });

  it('energy board of the latest reports, with five-year averages', async () => {
    const { data, meta } = await get('/v1/energy/inventories');
    // Weeks ending 12 June to 13 November 2026 were out by NOW (the week ending 20 November comes out at 10:30 ET
    // on the 25th): 23 of them.
    // Gas storage, to the week ending 2026-01-23, is 42 weeks behind on its own calendar.
    expect(data).toMatchObject({
      status: 'partial',
      gaps: [
        'stale: newest petroleum week 2026-06-05; the EIA has published 23 weekly reports since',
        'stale: newest natural gas week 2026-01-23; the EIA has published 42 weekly reports since',
      ],
    });
    expect(meta.coverage).toMatchObject({ lastPeriod: '2026-06-05', releasesSince: 42, stale: true });
    expect(data.reports.map((r: { id: string }) => r.id).sort()).toEqual([
      'wngsr-2026-01-23',
      'wpsr-2026-06-05',
    ]);
    const crude = data.series.find((s: { id: string }) => s.id === 'WCESTUS1');
    // Week ending 2026-06-05 from table1.csv; the five prior years' same week from psw01.xls.
    expect(crude).toMatchObject({ weekEnding: '2026-06-05', value: 426485, yearAgo: 432415 });
    // psw01.xls, WCESTUS1 in the weeks ending 2021-06-04, 2022-06-03, 2023-06-02, 2024-06-07 and 2025-06-06:
    // (474,029 + 416,758 + 459,205 + 459,652 + 432,415) / 5.
    expect(crude.fiveYear).toBe(448411.8);
    const gas = data.series.find((s: { id: string }) => s.id === 'NW2_EPG0_SWO_R48_BCF');
    // The EIA's report of 29 January 2026: 2,823 Bcf in the Lower 48, a net withdrawal of 242 Bcf.
    expect(gas).toMatchObject({ weekEnding: '2026-01-23', value: 2823, weekChange: -242 });
    expect(gas.fiveYear).not.toBeNull();
  });

  it.skipIf(!havePandas())(
    'the petroleum board as known on 12 February 2026 against pandas on psw01.xls: week changes, year ago, five-year averages',
    async () => {
      // psw01.xls runs to the week ending 6 February 2026, out on Wednesday the 11th.
      const expected = independent<
        Record<
          string,
          { value: number; weekChange: number | null; yearAgo: number | null; fiveYear: number | null }
        >
      >('energy.py', [asset('eia/psw01.xls'), '2026-02-06']);
      const { data } = await get('/v1/energy/inventories?asOf=2026-02-12');
      const petroleum = data.series.filter((s: { report: string }) => s.report === 'wpsr-2026-02-06');
      // The board's nineteen petroleum stocks (of the workbook's 56 series).
      expect(petroleum).toHaveLength(19);
      // The service rounds to three decimals; pandas' figures are unrounded.
      const near = (served: number | null, raw: number | null) =>
        served === null || raw === null ? served === raw : Math.abs(served - raw) <= 0.0005 + 1e-9;
      for (const s of petroleum) {
        const want = expected[s.id];
        expect(want, s.id).toBeDefined();
        expect(s.value, s.id).toBe(want!.value);
        for (const figure of ['weekChange', 'yearAgo', 'fiveYear'] as const)
          expect(near(s[figure], want![figure]), `${s.id} ${figure}: ${s[figure]} vs ${want![figure]}`).toBe(
            true,
          );
      }
    },
  );

  it('the petroleum stocks of the week ending 2026-06-05 against the EIA’s own Table 1: week change and year ago', async () => {
    // Table 1's first section, read here: each stock in million barrels this week, last week, the EIA's own
    // difference (of its unrounded levels), and the level a year ago (6/6/25).
    const table = readText(asset('eia/wpsr_table1_week_ending_2026-06-05.csv')).split(/\r?\n/);
    const end = table.findIndex((line, i) => i > 0 && line.startsWith('"STUB_1"'));
    const kb = (text: string) => Math.round(Number(text.replace(/,/g, '')) * 1000);
    const published = table.slice(1, end).map((line) => {
      const [label, now, before, difference, , yearAgo] = splitLine(line);
      return {
        label,
        now: kb(now!),
        before: kb(before!),
        difference: kb(difference!),
        yearAgo: kb(yearAgo!),
      };
    });
    expect(published).toHaveLength(19);
    const { data } = await get('/v1/energy/inventories');
    const petroleum = data.series.filter((s: { weekEnding: string }) => s.weekEnding === '2026-06-05');
    expect(petroleum).toHaveLength(19);
    for (const row of published) {
      // Matched by this week's level (each is different), in thousand barrels as the board serves them.
      const served = petroleum.find((s: { value: number }) => s.value === row.now);
      expect(served, row.label).toBeDefined();
      expect(served.value - served.weekChange, row.label).toBe(row.before);
      // The EIA's difference is of unrounded levels: within one thousand barrels of the published levels'.
      expect(Math.abs(served.weekChange - row.difference), row.label).toBeLessThanOrEqual(1);
      // The board's year-ago level comes from the weekly history (psw01.xls), the EIA's from Table 1.
      expect(served.yearAgo, row.label).toBe(row.yearAgo);
    }
  });

  it('cpi board of the newest month with components, with weights and contributions', async () => {
    const { data, meta } = await get('/v1/macro/cpi');
    // The bundle's components (the August 2025 vintage) end 2025-08; all items reach 2026-03.
    expect(data.release).toMatchObject({ period: '2025-08', weightsPeriod: '2024-12' });
    const row = (code: string) => data.rows.find((r: { code: string }) => r.code === code);
    // The BLS's release of 2025-09-11 published for August 2025: shelter +0.4 % (3.6 % on the year), energy
    // +0.7 % (0.2 %), all items less food and energy +0.3 % (3.1 %), all items 2.9 % on the year.
    expect(row('SAH1')).toMatchObject({ label: 'Shelter', change: 0.4, yoy: 3.6 });
    expect(row('SA0E')).toMatchObject({ label: 'Energy', change: 0.7, yoy: 0.2 });
    expect(row('SA0L1E')).toMatchObject({ change: 0.3, yoy: 3.1 });
    // All items' August change is 0.3 as the seasonal factors of February 2026 revised it (first printed 0.4).
    expect(row('SA0')).toMatchObject({ weight: 100, change: 0.3, yoy: 2.9 });
    // Shelter weighed 35.483 % of all items in December 2024 (the BLS's relative importance table).
    expect(row('SAH1').weight).toBe(35.483);
    expect(row('SAH1').contribution).toBeGreaterThan(0.1);
    expect(data.rows.length).toBeGreaterThan(200);
    expect(data.gaps).toEqual([
      'all items only for 2025-09 to 2026-03 (6 months): no component index is held after 2025-08, so the board shows 2025-08',
      // All items of August 2025 as the March 2026 release revised them; the components as first printed.
      '2025-08: all items as published 2026-04-10, the components as published 2025-09-11: their seasonal factors come from different releases',
      'no index value for 2025-08 of the major group food and beverages',
      // April to October 2026, each out by the 20th of the month after.
      'stale: newest month 2026-03; the BLS has published 7 monthly releases since',
    ]);
    expect(meta.disclaimer).toMatch(
      /^The Bureau of Labor Statistics does not vouch for data derived from its statistics/,
    );
  });

  it.runIf(havePandas())(
    'every figure of the cpi board against a separate computation from the BLS files (test/independent/cpi.py)',
    async () => {
      const { data } = await get('/v1/macro/cpi');
      expect(data.release.period).toBe('2025-08');
      type Figures = Record<'change' | 'yoy' | 'annualized3m' | 'annualized6m', number | null>;
      const expected = independent<Record<string, Figures>>('cpi.py', ['2025-08']);
      // The 246 items of the item list with a U.S. city average value for August 2025.
      expect(data.rows.map((r: { code: string }) => r.code).sort()).toEqual(Object.keys(expected).sort());
      let compared = 0;
      for (const row of data.rows as ({ code: string } & Figures)[]) {
        for (const member of ['change', 'yoy', 'annualized3m', 'annualized6m'] as const) {
          const want = expected[row.code]![member];
          // Served to one decimal, as the BLS publishes changes.
          if (want === null) expect(row[member], `${row.code} ${member}`).toBeNull();
          else {
            expect(Math.abs((row[member] as number) - want), `${row.code} ${member}`).toBeLessThanOrEqual(
              0.05 + 1e-9,
            );
            compared += 1;
          }
        }
      }
      expect(compared).toBeGreaterThan(900);
    },
  );

  it('the cpi bulk file holds what rebuilds the board: each component’s label, place, weight and index values', async () => {
    const { data } = await get('/v1/macro/cpi');
    const period = data.release.period as string;
    const bulk = await env.app.inject({
      url: '/v1/datasets/cpi/bulk?format=ndjson',
      headers: bearer(user.key),
    });
    type Line = {
      itemCode: string;
      seasonal: string;
      period: string;
      value: number;
      label: string;
      depth: number;
      parent: string | null;
      weight: number | null;
    };
    const lines = bulk.body
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text) as Line);
    const byKey = new Map(lines.map((l) => [`${l.itemCode} ${l.seasonal} ${l.period}`, l]));
    const value = (code: string, seasonal: string, month: string) =>
      byKey.get(`${code} ${seasonal} ${month}`)?.value;
    const previous = (month: string) => {
      const [y, m] = month.split('-').map(Number) as [number, number];
      return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
    };
    let changes = 0;
    for (const row of data.rows) {
      const line = byKey.get(`${row.code} S ${period}`) ?? byKey.get(`${row.code} U ${period}`);
      expect(line, row.code).toBeDefined();
      expect([line!.label, line!.depth, line!.parent, line!.weight], row.code).toEqual([
        row.label,
        row.depth,
        row.parent,
        row.weight,
      ]);
      // The month's change from the file's own index values: seasonally adjusted where the BLS adjusts it.
      const seasonal = value(row.code, 'S', period) !== undefined ? 'S' : 'U';
      const [now, before] = [value(row.code, seasonal, period), value(row.code, seasonal, previous(period))];
      if (now === undefined || before === undefined) continue;
      // (A change that rounds to nothing is 0, not -0.)
      expect(row.change, row.code).toBe(Math.round((now / before) * 1000 - 1000) / 10 || 0);
      changes += 1;
    }
    expect(changes).toBeGreaterThan(200);
    // The file is made here (about 250,000 rows): a budget for a hang on a busy machine, not a speed check.
  }, 120_000);

  it('each cpi component’s weight is the relative importance the table gives under any name its item has had', async () => {
    // Read here: the December 2024 weights (year_weight 2025) by name, and the names of each item code in the
    // two item lists (August 2025's and the newer one: SEHB01 was Housing at school, excluding board).
    const normal = (name: string) =>
      name
        .toLowerCase()
        .replace(/,\s+and\b/g, ' and')
        .replace(/\s+/g, ' ')
        .trim();
    const weights = new Map<string, number>();
    for (const line of readText(asset('bls/relative_importance_dec2021_to_dec2024.csv'))
      .split(/\r?\n/)
      .slice(1)) {
      const [name, weight, year] = splitLine(line);
      if (year === '2025' && weight) weights.set(normal(name!), Number(weight));
    }
    const names = new Map<string, string[]>();
    for (const list of ['bls/cu_2025-08/cu.item', 'bls/cu.item'])
      for (const line of readText(asset(list)).split(/\r?\n/).slice(1)) {
        const [code, name] = line.split('\t').map((cell) => cell.trim());
        if (code && name) names.set(code, [...(names.get(code) ?? []), normal(name)]);
      }
    const { data } = await get('/v1/macro/cpi');
    expect(data.release.weightsPeriod).toBe('2024-12');
    for (const row of data.rows as { code: string; weight: number | null }[]) {
      const found = (names.get(row.code) ?? []).map((n) => weights.get(n)).find((w) => w !== undefined);
      expect(row.weight, row.code).toBe(found ?? null);
    }
    const byCode = new Map(data.rows.map((r: { code: string; weight: number | null }) => [r.code, r.weight]));
    // Renamed since the table: found under their old names; a serial comma is no other name.
    expect([...['SEHB01', 'SEMD03', 'SEEB04', 'SEAA02', 'SEAC04'].map((c) => byCode.get(c))]).toEqual([
      0.243, 0.155, 0.039, 0.14, 0.301,
    ]);
    // The rest without a weight are not in the table at all (special aggregates, New cars, Smartphones, …).
    expect(data.rows.filter((r: { weight: number | null }) => r.weight === null)).toHaveLength(47);
  });

  it('the demo’s cpi board as known on 1 October 2025: August 2025 as first printed (+0.4 %), now revised (+0.3 %)', async () => {
    const sa0 = (answer: { data: { rows: { code: string; change: number }[] } }) =>
      answer.data.rows.find((r) => r.code === 'SA0');
    const then = await get('/v1/macro/cpi?asOf=2025-10-01');
    expect(then.data.release.period).toBe('2025-08');
    expect(sa0(then)).toMatchObject({ change: 0.4 });
    expect(sa0(await get('/v1/macro/cpi'))).toMatchObject({ change: 0.3 });
  });

  it('the cpi board and the energy board as known on past dates say which releases were out and not held', async () => {
    // As known on 10 September 2025 the newest month held is November 2023; the BLS had published December 2023
    // to July 2025 by then (20 months; August 2025 came on 11 September).
    const cpi = await get('/v1/macro/cpi?asOf=2025-09-10');
    expect(cpi.data).toMatchObject({
      status: 'partial',
      gaps: ['stale: newest month 2023-11; the BLS has published 20 monthly releases since'],
    });
    // On 1 March 2026 the EIA had published petroleum to the week ending 20 February (the week of the 13th on
    // Thursday 19 February, after Presidents’ Day; the 20th on the 25th) and gas storage to the same week
    // (30 January, 6, 13 and 20 February on the Thursdays after).
    const energy = await get('/v1/energy/inventories?asOf=2026-03-01');
    expect(energy.data).toMatchObject({
      status: 'partial',
      gaps: [
        'stale: newest petroleum week 2026-02-06; the EIA has published 2 weekly reports since',
        'stale: newest natural gas week 2026-01-23; the EIA has published 4 weekly reports since',
      ],
    });
  });

  it('the demo’s events as known at the end of 1 January 2025: exactly the 8-Ks accepted by then', async () => {
    const all = (await get('/v1/events/AAPL?limit=200')).data.events as { id: string; filedAt: string }[];
    const then = (await get('/v1/events/AAPL?limit=200&asOf=2025-01-01')).data.events as typeof all;
    const accepted = all.filter((e) => e.filedAt <= '2025-01-01T23:59:59.999Z').map((e) => e.id);
    expect(accepted.length).toBeGreaterThan(0);
    expect(accepted.length).toBeLessThan(all.length);
    expect(then.map((e) => e.id)).toEqual(accepted);
  });

  it('Apple’s statement fields as known on 1 January 2010: fiscal 2008 and 2009 as first filed, not as restated', async () => {
    const key = await marketKey(env.deps);
    const history = async (query: string) => {
      const res = await env.app.inject({
        method: 'GET',
        url: `/v1/history?tickers=AAPL&fields=netIncome&period=annual&start=2008-01-01&end=2009-12-31${query}`,
        headers: bearer(key),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().items[0].rows;
    };
    // The company facts: NetIncomeLoss for fiscal 2008 and 2009 filed in the 10-K of 2009-10-27 (4,834 and
    // 5,704 million), restated in the 10-K of 2010-10-27 (6,119 and 8,235 million; the revenue rules changed).
    expect(await history('&asOf=2010-01-01')).toEqual([
      { date: '2008-09-27', netIncome: 4_834_000_000 },
      { date: '2009-09-26', netIncome: 5_704_000_000 },
    ]);
    expect(await history('')).toEqual([
      { date: '2008-09-27', netIncome: 6_119_000_000 },
      { date: '2009-09-26', netIncome: 8_235_000_000 },
    ]);
    // Before the first 10-K the company facts hold for those years, nothing was filed: no rows.
    expect(await history('&asOf=2009-10-26')).toEqual([]);
  });

  it.skipIf(!havePandas())(
    'the fourth quarters no filing states (the year less three quarters) against pandas on the company facts',
    async () => {
      const key = await marketKey(env.deps);
      const revenue = [
        'Revenues',
        'RevenueFromContractWithCustomerExcludingAssessedTax',
        'RevenueFromContractWithCustomerIncludingAssessedTax',
        'SalesRevenueNet',
      ];
      const cases = [
        { ticker: 'AAPL', cik: '0000320193', field: 'SALES_REV_TURN', concepts: revenue },
        { ticker: 'AAPL', cik: '0000320193', field: 'NET_INCOME', concepts: ['NetIncomeLoss'] },
        { ticker: 'NVDA', cik: '0001045810', field: 'SALES_REV_TURN', concepts: revenue },
        { ticker: 'NVDA', cik: '0001045810', field: 'IS_OPER_INC', concepts: ['OperatingIncomeLoss'] },
      ];
      for (const { ticker, cik, field, concepts } of cases) {
        const expected = independent<Record<string, { value: number }>>('quarters.py', [
          asset(`sec/companyfacts/CIK${cik}.json`),
          ...concepts,
        ]);
        const url = `/v1/history?tickers=${ticker}&fields=${field}&period=quarterly&start=2005-01-01&end=2026-06-30`;
        const res = await env.app.inject({ url, headers: bearer(key) });
        const [item] = res.json().items;
        const at = `${ticker} ${field}`;
        // The same quarters derived, each the same figure (served in millions).
        expect([...item.derived].sort(), at).toEqual(Object.keys(expected).sort());
        expect(item.derived.length, at).toBeGreaterThan(0);
        const rows = new Map(item.rows.map((r: Record<string, number>) => [r.date, r[field]]));
        for (const [end, { value }] of Object.entries(expected))
          expect(rows.get(end), `${at} ${end}`).toBeCloseTo(value / 1e6, 6);
      }
    },
  );

  it('AAPL on the demo: quote, data and history agree on the newest price, and say it is old', async () => {
    const key = await marketKey(env.deps);
    const market = async (url: string) => {
      const res = await env.app.inject({ method: 'GET', url, headers: bearer(key) });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    // The recorded quote is of 14 February 2025; the last daily bar, of Friday 1 May 2026, closed at 280.14
    // (written 280.1400146484375 in the file, 280.14 in single precision; 16:00 New York, 20:00 UTC). Every weekday from 4 May to 24 November 2026 opened New York since: 147.
    const reason = 'last price 2026-05-01 20:00 UTC; 147 sessions since';
    const { items: quoted } = await market('/v1/quotes?tickers=AAPL,OCDO.L,MSFT');
    // The recording's market cap keeps its own time, and the quote is as old as its oldest member, as in
    // /v1/data below; an old quote's session has ended, whatever state was recorded while it traded.
    expect(quoted[0].quote).toMatchObject({
      price: 280.14,
      marketCap: 3674405863424,
      marketState: 'CLOSED',
      asOf: '2026-05-01T20:00:00.000Z',
      fieldsAsOf: { marketCap: '2025-02-14T21:00:00.000Z' },
      stale: true,
      staleReason: 'oldest value 2025-02-14 21:00 UTC; 462 sessions since',
    });
    // Ocado's recording was taken while London traded (REGULAR) on 17 February 2025.
    expect(quoted[1].quote).toMatchObject({ marketState: 'CLOSED', stale: true });
    expect(quoted[1].quote.fieldsAsOf).toBeUndefined();
    // A crypto day is a UTC day: Bitcoin's last bar, of 2025-12-01, closed at the midnight that ended it.
    const { items: btc } = await market('/v1/quotes?tickers=BTC-USD');
    expect(btc[0].quote.asOf).toBe('2025-12-02T00:00:00.000Z');
    // Microsoft has daily bars alone, to the same Friday: old by its price.
    expect(quoted[2].quote).toMatchObject({ asOf: '2026-05-01T20:00:00.000Z', staleReason: reason });
    expect(quoted[2].quote.fieldsAsOf).toBeUndefined();
    const { items: valued } = await market('/v1/data?tickers=AAPL&fields=PX_LAST,CUR_MKT_CAP');
    expect(valued[0].values.PX_LAST).toBe(280.14);
    expect(valued[0].asOf).toEqual({
      PX_LAST: '2026-05-01T20:00:00.000Z',
      CUR_MKT_CAP: '2025-02-14T21:00:00.000Z',
    });
    // The oldest value answered is the market cap of the recorded quote: weekdays from 17 February 2025.
    expect(valued[0]).toMatchObject({
      stale: true,
      staleReason: 'oldest value 2025-02-14 21:00 UTC; 462 sessions since',
    });
    const { items: rows } = await market('/v1/history?tickers=AAPL&fields=PX_LAST');
    expect(rows[0].rows.at(-1)).toEqual({ date: '2026-05-01', PX_LAST: 280.14 });
    expect(rows[0]).toMatchObject({
      stale: true,
      staleReason: 'last row 2026-05-01 20:00 UTC; 147 sessions to 2026-11-25',
    });
    // A window that ends days after the last bar says what is held: Monday 4 and Tuesday 5 May traded.
    const { items: edge } = await market(
      '/v1/history?tickers=AAPL&fields=PX_LAST&start=2026-04-27&end=2026-05-05',
    );
    expect(edge[0].rows.at(-1)).toEqual({ date: '2026-05-01', PX_LAST: 280.14 });
    expect(edge[0].held).toEqual({ start: '2026-04-27', end: '2026-05-01' });
    // A window ending on the last bar's weekend holds all it asks for: nothing to say.
    const { items: whole } = await market(
      '/v1/history?tickers=AAPL&fields=PX_LAST&start=2026-04-27&end=2026-05-03',
    );
    expect(whole[0].held).toBeUndefined();
  });

  describe('every door from one fact: generated from the registry', () => {
    // For each dataset: a record from its change feed names the path parameters; each operation is read over
    // REST, through its MCP tool, all its pages (the same answer, and _meta saying its status, gaps and times),
    // through the TypeScript client (the same answer) and the Python client (the same rows, times, status and
    // gaps beside its frame); its bulk file holds each current record of the change feed with the same
    // revision, knownAt and knownFrom.
    let url: string;
    let client: Client;
    beforeAll(async () => {
      url = await env.app.listen({ port: 0, host: '127.0.0.1' });
      client = await connect(url, user.key);
    });
    afterAll(() => client.close());

    type Change = {
      key: Record<string, unknown>;
      record: Record<string, unknown>;
      revision: number;
      knownAt: string;
      knownFrom: string | null;
    };
    /**
     * The current revision of each record of the bulk file's table the change feed serves, by its key: the one
     * known last (an older publication loaded later takes its place in time, not the current one's).
     */
    const feed = async (dataset: string, key: readonly string[]) => {
      const byKey = new Map<string, Change>();
      let since = '';
      for (;;) {
        const { data } = await get(`/v1/datasets/${dataset}/changes?limit=1000${since}`);
        if (data.changes.length === 0) return byKey;
        for (const c of data.changes as Change[]) {
          // The feed also carries the dataset's other tables (energy's series and reports): their keys differ.
          if (Object.keys(c.key).sort().join() !== [...key].sort().join()) continue;
          const id = JSON.stringify(Object.fromEntries(key.map((k) => [k, c.key[k]])));
          const held = byKey.get(id);
          if (!held || held.knownAt < c.knownAt || (held.knownAt === c.knownAt && held.revision < c.revision))
            byKey.set(id, c);
        }
        since = `&since=${data.nextCursor}`;
      }
    };
    /** Path parameters from a record, by their names. */
    const paramsOf = (record: Record<string, unknown>, key: Record<string, unknown>) => ({
      symbol: record.ticker ?? record.symbol,
      year: record.fiscalYear,
      contractCode: record.contractCode,
      tenor: record.tenor,
      id: key.id,
    });
    /** A tool's whole answer: its pages, each continued from the last, the list joined again. */
    const wholeAnswer = async (name: string, args: Record<string, unknown>, list?: string) => {
      let result = await callTool(client, name, args);
      const first = result;
      const body = structuredClone(result.structuredContent ?? {}) as Record<string, unknown> & {
        data?: Record<string, unknown>;
      };
      // The pages are cut along the operation's list member (src/mcp/dataset-tools.ts), not its gaps.
      while (typeof result.structuredContent?.continuation === 'string') {
        result = await callTool(client, name, { continuation: result.structuredContent.continuation });
        const page = result.structuredContent as { data: Record<string, unknown[]> };
        const joined = list ? body.data?.[list] : undefined;
        if (list && Array.isArray(joined)) joined.push(...(page.data[list] ?? []));
      }
      const { page: _page, continuation: _continuation, ...whole } = body;
      return { whole, first };
    };

    type Args = ReturnType<typeof paramsOf>;
    type Answer = { data: Record<string, unknown>; meta: Record<string, unknown> };
    /** Each operation through the TypeScript client and the Python client (a method, its arguments). */
    const CLIENTS: Record<
      string,
      {
        ts: (q: Quarry, a: Args) => Promise<unknown>;
        py: (a: Args, rows: number) => [string, unknown[], object];
      }
    > = {
      'awards.list': { ts: (q) => q.awardsPage(), py: (_, rows) => ['awards', [], { max_rows: rows }] },
      'awards.detail': { ts: (q, a) => q.award(String(a.id)), py: (a) => ['award', [a.id], {}] },
      'kpis.company': { ts: (q, a) => q.kpis(String(a.symbol)), py: (a) => ['kpis', [a.symbol], {}] },
      'guidance.company': {
        ts: (q, a) => q.guidance(String(a.symbol)),
        py: (a) => ['guidance', [a.symbol], {}],
      },
      'exec-pay.list': { ts: (q, a) => q.execPay(String(a.symbol)), py: (a) => ['exec_pay', [a.symbol], {}] },
      'exec-pay.year': {
        ts: (q, a) => q.execPayYear(String(a.symbol), Number(a.year)),
        py: (a) => ['exec_pay', [a.symbol], { year: a.year }],
      },
      'events.list': { ts: (q, a) => q.events(String(a.symbol)), py: (a) => ['events', [a.symbol], {}] },
      'cpi.board': { ts: (q) => q.cpi(), py: () => ['cpi', [], {}] },
      'energy.inventories': { ts: (q) => q.energy(), py: () => ['energy', [], {}] },
      'cot.board': { ts: (q) => q.cot(), py: () => ['cot', [], {}] },
      'cot.contract': {
        ts: (q, a) => q.cotContract(String(a.contractCode)),
        py: (a) => ['cot', [a.contractCode], {}],
      },
      'rates.curve': { ts: (q) => q.ratesCurve(), py: () => ['rates_curve', [], {}] },
      'rates.history': {
        ts: (q, a) => q.rates(a.tenor as Tenor),
        py: (a) => ['rates', [a.tenor], {}],
      },
    };
    /**
     * What the Python client keeps of each call's answer (test/clients/doors.py). Run beside the server, not in
     * its place: this process answers the client's requests meanwhile.
     */
    const python = async (calls: [string, unknown[], object][]) => {
      const child = spawn(PYTHON, ['test/clients/doors.py'], {
        env: { ...process.env, PYTHONPATH: 'clients/python', PYTHONDONTWRITEBYTECODE: '1' },
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
      });
      child.stderr.on('data', (chunk) => {
        err += chunk;
      });
      child.stdin.end(JSON.stringify({ base_url: url, datasets_key: user.key, calls }));
      const [code] = (await once(child, 'close')) as [number];
      if (code !== 0) throw new Error(`test/clients/doors.py failed: ${err}`);
      return JSON.parse(out) as { rows?: number; attrs?: Record<string, unknown>; knownAt?: string }[];
    };

    it('every operation of the registry has its call in the TypeScript and the Python client', () => {
      const operations = OPERATIONS.filter((o) => !o.id.endsWith('.changes')).map((o) => o.id);
      expect(Object.keys(CLIENTS).sort()).toEqual(operations.sort());
    });

    for (const dataset of DATASETS) {
      it(`${dataset.id}: REST and MCP answer alike for each operation; the bulk file holds the change feed's records`, async () => {
        const records = await feed(dataset.id, dataset.bulk.key);
        expect(records.size, 'the demo holds records').toBeGreaterThan(0);
        const [first] = [...records.values()];
        const params = paramsOf(first!.record, first!.key);
        const pythonCalls: {
          op: string;
          rest: unknown;
          list: string | undefined;
          call: [string, unknown[], object];
        }[] = [];
        for (const op of OPERATIONS.filter((o) => o.dataset === dataset.id && !o.id.endsWith('.changes'))) {
          const names = [...op.url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
          const args = Object.fromEntries(names.map((n) => [n, params[n as keyof typeof params]]));
          const path = op.url.replace(/:(\w+)/g, (_, n: string) => encodeURIComponent(String(args[n])));
          const rest = await get(path);
          const { whole, first: tool } = await wholeAnswer(
            `datasets.${op.id.replace(/[.-]/g, '_')}`,
            args,
            op.list,
          );
          expect(tool.isError, `${op.id} ${JSON.stringify(args)}`).toBeFalsy();
          expect(whole, op.id).toEqual(rest);
          if (typeof rest.data.status === 'string')
            expect(tool._meta, op.id).toMatchObject({ status: rest.data.status, gaps: rest.data.gaps ?? [] });
          const { asOf, knownFrom, readAsOf, newestPeriod } = rest.meta;
          expect(tool._meta, op.id).toMatchObject({ asOf, knownFrom, readAsOf, newestPeriod });
          // Where the newest record's time came from, whenever there is one: this build wrote every revision.
          if (asOf !== null)
            expect(['published', 'calendar', 'filing', 'record', 'load'], op.id).toContain(knownFrom);
          expect(readAsOf, op.id).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
          expect(asOf === null || asOf <= readAsOf, `${op.id}: known ${asOf}, read as of ${readAsOf}`).toBe(
            true,
          );
          // Read as known at the end of the day the record became known: the same names, that instant.
          const day = first!.knownAt.slice(0, 10);
          const past = await get(`${path}${path.includes('?') ? '&' : '?'}asOf=${day}`);
          expect(past.meta.readAsOf, op.id).toBe(`${day}T23:59:59.999Z`);
          expect(past.meta.asOf === null || past.meta.asOf <= past.meta.readAsOf, op.id).toBe(true);

          // The TypeScript client answers the API's own JSON: the same answer whole.
          const call = CLIENTS[op.id];
          expect(call, `${op.id} has no client call`).toBeDefined();
          const typed = new Quarry({ baseUrl: url, datasetsKey: user.key });
          expect(await call!.ts(typed, params), `${op.id} through the TypeScript client`).toEqual(rest);
          // An award's detail is the award, its revisions beside it: the Python client answers it whole.
          const list =
            op.list !== 'revisions' && Array.isArray(rest.data[op.list ?? '']) ? op.list : undefined;
          pythonCalls.push({
            op: op.id,
            rest,
            list,
            call: call!.py(params, list ? rest.data[list].length : 0),
          });
        }
        // The Python client keeps the same times, status and gaps beside its frames, and the same rows.
        if (havePandas()) {
          const kept = await python(pythonCalls.map((c) => c.call));
          pythonCalls.forEach(({ op, rest, list }, i) => {
            const got = kept[i]!;
            const answer = rest as Answer;
            if (!list) {
              expect(got, `${op} through the Python client`).toEqual({
                knownAt: answer.data.knownAt,
                knownFrom: answer.data.knownFrom,
              });
              return;
            }
            expect(got.rows, `${op} through the Python client`).toBe((answer.data[list] as unknown[]).length);
            expect(got.attrs, `${op} through the Python client`).toEqual({
              read_as_of: answer.meta.readAsOf,
              as_of: answer.meta.asOf,
              known_from: answer.meta.knownFrom,
              newest_period: answer.meta.newestPeriod,
              ...(typeof answer.data.status === 'string'
                ? { status: answer.data.status, gaps: answer.data.gaps ?? [] }
                : {}),
            });
          });
        }
        const bulk = await env.app.inject({
          url: `/v1/datasets/${dataset.id}/bulk?format=ndjson`,
          headers: bearer(user.key),
        });
        expect(bulk.statusCode).toBe(200);
        const rows = bulk.body
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as Record<string, unknown>);
        expect(rows).toHaveLength(records.size);
        for (const row of rows) {
          const key = Object.fromEntries(dataset.bulk.key.map((k) => [k, row[k]]));
          const change = records.get(JSON.stringify(key));
          expect(change, JSON.stringify(key)).toBeDefined();
          expect([row.revision, row.knownAt, row.knownFrom], JSON.stringify(key)).toEqual([
            change!.revision,
            change!.knownAt,
            change!.knownFrom,
          ]);
          // Every revision of the demo is written by this build: each says where its time came from.
          expect(['published', 'calendar', 'filing', 'record', 'load'], JSON.stringify(key)).toContain(
            row.knownFrom,
          );
        }
        // The CPI's whole feed (about 250 pages) and its bulk file are read here: a budget for a hang on a busy
        // machine, not a speed check (bench/ measures the feed and the files).
      }, 180_000);
    }
  });
});
