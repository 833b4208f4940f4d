// Yahoo's known errors repaired, on yfinance's own test tables (test/fixtures/market/repair): each table as Yahoo
// served it is loaded with `quarry ingest prices`, and what the verbs serve is held against the `-fixed` table,
// read here by the test's own CSV reading, within the tolerances yfinance's tests use: dividends within 1e-12,
// closes within 1e-7 (a single-precision price is served at its shortest decimal: 4.42 for 4.420000076293945),
// the dividend-adjusted close (adjust=total) within 5e-5 of `Adj Close`, a split's bars within 5e-6. The tables
// that must not be repaired come back as sent. Tables Quarry cannot load as daily bars of a listing it reads
// (KAP.IL: London's international order book; ASAI.L hourly; AV.L weekly) are run through the same functions
// the providers run, on the tables' rows.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../../../src/ingest/run.js';
import type { Bar, CorporateAction } from '../../../../src/kernel/market-provider.js';
import { ACTIONS } from '../../../../src/market/actions/index.js';
import { repairListing } from '../../../../src/market/compute/repair/index.js';
import { repairUnitSlips } from '../../../../src/market/compute/repair/units.js';
import { HISTORY } from '../../../../src/market/history/index.js';
import { LOADERS } from '../../../../src/runtime/loaders.js';
import { splitLine } from '../../../helpers/csv.js';
import { type TestEnv, testEnv } from '../../../helpers/env.js';

const REPAIR = path.resolve('test/fixtures/market/repair');
const ACTIONS_DIR = path.resolve('test/fixtures/market/actions');
const tmp = mkdtempSync(path.join(tmpdir(), 'repair-'));

type Row = Record<string, number> & { date: string };
type Repaired = { date: string; field: string; from: number; to: number; reason: string };
type Item = { rows: (Record<string, number> & { date: string })[]; repaired?: Repaired[] };
type ServedAction = CorporateAction & { amount: number };
interface Served {
  bars: Map<string, Record<string, number>>;
  repaired: Repaired[];
  actions: ServedAction[];
}

const FIELDS = ['PX_OPEN', 'PX_HIGH', 'PX_LOW', 'PX_LAST', 'PX_VOLUME'];

/** A yfinance table read by the test: one object a row keyed by column, the date as written, oldest first. */
function table(file: string): Row[] {
  const text = file.endsWith('.gz')
    ? gunzipSync(readFileSync(file)).toString('utf8')
    : readFileSync(file, 'utf8');
  const [head, ...lines] = text.trim().split('\n');
  const names = splitLine(head as string);
  const rows = lines.map((line) => {
    const cells = splitLine(line);
    const row = { date: (cells[0] as string).slice(0, 10), stamp: cells[0] } as unknown as Row;
    for (const [i, name] of names.entries())
      if (i > 0)
        row[name] =
          cells[i] === '' || cells[i] === 'True' || cells[i] === 'False' ? Number.NaN : Number(cells[i]);
    return row;
  });
  const stamp = (r: Row) => (r as unknown as { stamp: string }).stamp;
  return rows.sort((a, b) => (stamp(a) < stamp(b) ? -1 : 1)).filter((r) => Number.isFinite(r.Close));
}

/** The gzipped table written out plain, for the loader. */
function plain(name: string): string {
  const file = path.join(tmp, name);
  writeFileSync(file, gunzipSync(readFileSync(path.join(REPAIR, `${name}.gz`))));
  return file;
}

const near = (served: number, expected: number, rtol: number) =>
  Math.abs(served - expected) <= rtol * Math.abs(expected) + 1e-12;

describe("Yahoo's known errors, served repaired", () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await testEnv();
  });
  afterAll(() => env.close());

  const load = (file: string, ticker: string, main: boolean) =>
    loadFile(env.deps, LOADERS.prices as NonNullable<typeof LOADERS.prices>, file, {
      ticker,
      // yfinance's London and Tel Aviv tables hold prices converted to pounds and shekels.
      ...(main ? { unit: 'main' } : {}),
    });

  /** What the verbs serve for the listing over the days of a table: bars as held, adjusted closes, actions. */
  async function served(ticker: string, rows: Row[]): Promise<Served> {
    const first = (rows[0] as Row).date;
    const last = (rows.at(-1) as Row).date;
    const bars = new Map<string, Record<string, number>>();
    const repaired: Repaired[] = [];
    // History serves twenty years a request: a longer table is asked for in windows of fifteen.
    for (let year = Number(first.slice(0, 4)); year <= Number(last.slice(0, 4)); year += 15) {
      const start = year === Number(first.slice(0, 4)) ? first : `${year}-01-01`;
      const end = `${year + 14}-12-31` < last ? `${year + 14}-12-31` : last;
      const ask = (adjust: 'split' | 'total') =>
        HISTORY.run(env.deps, { tickers: [ticker], fields: FIELDS, start, end, adjust });
      const [split, total] = (await Promise.all([ask('split'), ask('total')])).map(
        (answer) => JSON.parse(JSON.stringify(answer.items[0])) as Item,
      );
      for (const row of (split as Item).rows) bars.set(row.date, { ...row });
      for (const row of (total as Item).rows)
        (bars.get(row.date) as Record<string, number>).total = row.PX_LAST as number;
      repaired.push(...((split as Item).repaired ?? []));
    }
    const answer = await ACTIONS.run(env.deps, { tickers: [ticker], start: first, end: last });
    const actions = (JSON.parse(JSON.stringify(answer)).items[0].actions ?? []) as ServedAction[];
    return { bars, repaired, actions };
  }

  /**
   * How the served listing strays from a table: each close must be the table's, or (a price the table holds in
   * the other unit, repaired and said) a hundred times or a hundredth of it; each adjusted close's factor (the
   * adjusted close over the close, relative to the last day's) the table's `Adj Close` over its `Close` within
   * `rtol`; each dividend the table's, in the unit of the closes served around it.
   */
  function strays(got: Served, rows: Row[], rtol: number): string[] {
    const out: string[] = [];
    const last = rows.at(-1) as Row;
    const lastBar = got.bars.get(last.date);
    const unit = new Map<string, number>();
    for (const row of rows) {
      const bar = got.bars.get(row.date);
      if (!bar || !lastBar) {
        out.push(`${row.date}: not served`);
        continue;
      }
      const scale = [1, 100, 0.01].find((u) => near(bar.PX_LAST as number, (row.Close as number) * u, 1e-7));
      unit.set(row.date, scale ?? Number.NaN);
      if (scale === undefined) out.push(`${row.date}: close ${bar.PX_LAST} vs ${row.Close}`);
      else if (scale !== 1 && !got.repaired.some((r) => r.date === row.date && r.field === 'close'))
        out.push(
          `${row.date}: close ${bar.PX_LAST} is ${scale} times the table's and not said to be repaired`,
        );
      const factor =
        ((bar.total as number) / (bar.PX_LAST as number)) *
        ((lastBar.PX_LAST as number) / (lastBar.total as number));
      const expected =
        ((row['Adj Close'] as number) / (row.Close as number)) *
        ((last.Close as number) / (last['Adj Close'] as number));
      if (Number.isFinite(expected) && !near(factor, expected, rtol))
        out.push(`${row.date}: adjustment ${factor} vs ${expected}`);
    }
    const dividends = new Map(
      got.actions.filter((a) => a.type === 'dividend').map((a) => [a.date, a.amount]),
    );
    for (const [i, row] of rows.entries()) {
      const paid = (row.Dividends as number) > 0 || (dividends.get(row.date) ?? 0) > 0;
      if (!paid || i === 0) continue;
      const expected = (row.Dividends as number) * (unit.get((rows[i - 1] as Row).date) ?? Number.NaN);
      const amount = dividends.get(row.date);
      if (amount === undefined || !near(amount, expected, 1e-12))
        out.push(`${row.date}: dividend ${amount} vs ${expected}`);
    }
    return out;
  }

  // Each bad-dividend table: [file, ticker, prices in main units (pounds, shekels), rtol of the adjustment].
  const BAD_DIVIDENDS: [string, string, boolean, number][] = [
    ['1398-HK', '1398.HK', false, 5e-5],
    ['4063-T', '4063.T', false, 5e-5],
    ['ABDP-L', 'ABDP.L', true, 5e-5],
    ['ADIG-L', 'ADIG.L', true, 5e-5],
    ['CLC-L', 'CLC.L', true, 5e-5],
    ['ELCO-L', 'ELCO.L', true, 5e-5],
    ['KEN-TA', 'KEN.TA', true, 5e-5],
    ['LSC-L', 'LSC.L', true, 5e-5],
    ['NVT-L', 'NVT.L', true, 5e-5],
    ['REL-L', 'REL.L', true, 5e-5],
    ['RGL-L', 'RGL.L', true, 5e-5],
    ['SSNLF', 'SSNLF', false, 5e-5],
  ];

  it.each(BAD_DIVIDENDS)(
    '%s: dividends and the adjusted close as the fixed table',
    async (name, ticker, main, rtol) => {
      await load(plain(`${name}-1d-bad-div.csv`), ticker, main);
      const fixed = table(path.join(REPAIR, `${name}-1d-bad-div-fixed.csv.gz`));
      const sent = table(path.join(REPAIR, `${name}-1d-bad-div.csv.gz`));
      const got = await served(ticker, fixed);
      expect(strays(got, fixed, rtol)).toEqual([]);
      // Each dividend served otherwise than sent says what was sent; the others carry no mark.
      const sentOn = new Map(sent.map((r) => [r.date, r.Dividends as number]));
      for (const action of got.actions.filter((a) => a.type === 'dividend')) {
        const was = sentOn.get(action.date) as number;
        if (near(action.amount, was, 1e-12)) expect(action.repaired).toBeUndefined();
        else {
          expect(near(action.repaired?.from as number, was, 1e-12)).toBe(true);
          expect(action.repaired?.reason).toEqual(expect.any(String));
        }
      }
    },
  );

  /** How the served bars stray from a table's open, high, low and volume (the closes `strays` checks). */
  function barStrays(got: Served, rows: Row[]): string[] {
    return rows.flatMap((row) =>
      (
        [
          ['PX_OPEN', 'Open'],
          ['PX_HIGH', 'High'],
          ['PX_LOW', 'Low'],
          ['PX_VOLUME', 'Volume'],
        ] as const
      ).flatMap(([field, column]) => {
        const value = got.bars.get(row.date)?.[field];
        return value !== undefined && near(value, row[column] as number, 5e-6)
          ? []
          : [`${row.date} ${column}: ${value} vs ${row[column]}`];
      }),
    );
  }

  it.each([
    ['4063-T', '4063.T', '5-for-1 split of 2023-03-30'],
    ['MOB-ST', 'MOB.ST', '1-for-10 split of 2023-05-24'],
    ['LA-V', 'LA.V', '1-for-10 split of 2020-08-26'],
    ['ALPHA-PA', 'ALPHA.PA', '1-for-10000 split of 2023-05-10'],
  ])(
    '%s: the bars a split was not applied to are brought to the others, and said',
    async (name, ticker, split) => {
      await load(plain(`${name}-1d-bad-stock-split.csv`), ticker, false);
      const fixed = table(path.join(REPAIR, `${name}-1d-bad-stock-split-fixed.csv.gz`));
      const sent = table(path.join(REPAIR, `${name}-1d-bad-stock-split.csv.gz`));
      const got = await served(ticker, fixed);
      expect(strays(got, fixed, 5e-6)).toEqual([]);
      expect(barStrays(got, fixed)).toEqual([]);
      // The closes repaired, and no others, are named with the close as sent and the split.
      const changed = sent.filter((r, i) => !near(r.Close as number, fixed[i]?.Close as number, 1e-7));
      expect(changed.length).toBeGreaterThan(0);
      const closes = got.repaired.filter((r) => r.field === 'close');
      expect(closes.map((r) => r.date)).toEqual(changed.map((r) => r.date));
      for (const [i, r] of closes.entries()) {
        expect(r.from).toBeCloseTo(changed[i]?.Close as number, 6);
        expect(r.reason).toContain(split);
      }
    },
  );

  it("DODFX: a capital gain inside the day's dividend is counted once by the total return", async () => {
    await load(plain('DODFX-1d-cg-double-count.csv'), 'DODFX', false);
    const fixed = table(path.join(REPAIR, 'DODFX-1d-cg-double-count-fixed.csv.gz'));
    const got = await served('DODFX', fixed);
    expect(strays(got, fixed, 5e-6)).toEqual([]);
    expect(got.actions.find((a) => a.type === 'capitalGain')).toMatchObject({
      date: '2025-12-18',
      amount: 0.417,
      inDividend: true,
    });
  });

  it("8TRA.DE: a dividend Yahoo's adjusted close left out is in the total return", async () => {
    await load(plain('8TRA-DE-1d-missing-div-adjust.csv'), '8TRA.DE', false);
    const fixed = table(path.join(REPAIR, '8TRA-DE-1d-missing-div-adjust-fixed.csv.gz'));
    expect(strays(await served('8TRA.DE', fixed), fixed, 5e-5)).toEqual([]);
  });

  it.each([
    [REPAIR, 'EWG-1d-no-bad-divs.csv.gz', 'EWG', false],
    [REPAIR, 'IBE-MC-1d-no-bad-divs.csv.gz', 'IBE.MC', false],
    [ACTIONS_DIR, 'CALM-1d-no-bad-divs.csv', 'CALM', false],
    [ACTIONS_DIR, 'KMR-L-1d-no-bad-divs.csv', 'KMR.L', true],
  ])('%s/%s: a table with nothing to repair comes back as sent', async (dir, name, ticker, main) => {
    await load(name.endsWith('.gz') ? plain(name.slice(0, -3)) : path.join(dir, name), ticker, main);
    const sent = table(path.join(dir, name));
    const got = await served(ticker, sent);
    expect(got.repaired).toEqual([]);
    // Yahoo's own adjusted close, from the same dividends: within its single-precision rounding.
    expect(strays(got, sent, 5e-6)).toEqual([]);
    expect(got.actions.filter((a) => a.repaired !== undefined)).toEqual([]);
  });
});

/** Bars and actions of a yfinance table, as the providers hold them (the test's own reading). */
function held(rows: Row[]): { bars: Bar[]; actions: CorporateAction[] } {
  const bars = rows.map((r) => ({
    date: r.date,
    open: r.Open as number,
    high: r.High as number,
    low: r.Low as number,
    close: r.Close as number,
    volume: r.Volume as number,
  }));
  const actions = rows.flatMap((r): CorporateAction[] => [
    ...((r.Dividends as number) > 0
      ? [{ date: r.date, type: 'dividend' as const, amount: r.Dividends as number }]
      : []),
    ...((r['Stock Splits'] as number) > 0
      ? [{ date: r.date, type: 'split' as const, numerator: r['Stock Splits'] as number, denominator: 1 }]
      : []),
  ]);
  return { bars, actions };
}

describe("Yahoo's known errors in tables that are not a listing's daily bars here", () => {
  it("KAP.IL: the phantom second record of 2022-07-12's dividend is served as 0", () => {
    const sent = table(path.join(REPAIR, 'KAP-IL-1d-bad-div.csv.gz'));
    const fixed = table(path.join(REPAIR, 'KAP-IL-1d-bad-div-fixed.csv.gz'));
    const { bars, actions } = held(sent);
    const repaired = repairListing(false, bars, actions).actions;
    const expected = fixed.filter((r) => actions.some((a) => a.date === r.date));
    expect(repaired.map((a) => [a.date, a.amount])).toEqual(expected.map((r) => [r.date, r.Dividends]));
    expect(repaired.find((a) => a.date === '2022-07-13')?.repaired).toEqual({
      from: 1.95426,
      reason: expect.stringMatching(/second record of the dividend of 2022-07-12/),
    });
  });

  it("AV.L's weekly table: the fall at its 0.76 consolidation is its return of capital, and is left as sent", () => {
    // yfinance's fixed table lifts the week of 2022-05-16 to 542.24, the level of the week before, while the week
    // after opens at 416.10: the 101.69p paid with the consolidation explains the fall (docs/adr/038).
    const sent = table(path.join(REPAIR, 'AV-L-1wk-bad-stock-split.csv.gz'));
    const { bars, actions } = held(sent);
    expect(actions).toContainEqual({ date: '2022-05-16', type: 'split', numerator: 0.76, denominator: 1 });
    const fell = (sent.find((r) => r.date === '2022-05-16') as Row).Close as number;
    const before = (sent.find((r) => r.date === '2022-05-09') as Row).Close as number;
    const paid = 101.69 / 0.76;
    expect(Math.abs(before - paid - fell) / fell).toBeLessThan(0.06);
    const repaired = repairListing(false, bars, actions);
    expect(repaired.repairs).toEqual([]);
    expect(repaired.bars).toEqual(bars);
  });

  it("ASAI.L's hourly prices sent in the other unit are scaled back", () => {
    const sent = table(path.join(REPAIR, 'ASAI-L-1h-bad-unit.csv.gz'));
    const fixed = table(path.join(REPAIR, 'ASAI-L-1h-bad-unit-fixed.csv.gz'));
    const { bars } = held(sent);
    const repaired = repairUnitSlips(bars).bars;
    for (const field of ['open', 'high', 'low', 'close'] as const) {
      const column = field[0]!.toUpperCase() + field.slice(1);
      const off = repaired.filter((bar, i) => !near(bar[field] as number, fixed[i]![column] as number, 1e-7));
      expect(off.map((b) => b.date)).toEqual([]);
    }
  });
});
