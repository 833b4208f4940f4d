// treasury-rates on Treasury's own files: every figure the routes answer is checked against the CSV it came
// from, read here by a parser of the test's own (the 2s10s of 2019-08-27 and 2022-07-05 as Treasury's columns
// give them). The same day from two files is one record; a changed value is a revision, read as known on a
// date; a tenor blank on a day is absent; the bond market's calendar is the days the full-year files hold.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBondMarketDay } from '../../../src/datasets/rates/calendar.js';
import { COLLECTIONS } from '../../../src/datasets/registry.js';
import { collect } from '../../../src/ingest/collect.js';
import { loadFile } from '../../../src/ingest/run.js';
import { addDays } from '../../../src/kernel/dates.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { MockAgency } from '../../helpers/agency.js';
import { bearer, type Customer, customer, ENGINES, type TestEnv, testEnv } from '../../helpers/env.js';
import { asset, real } from '../../helpers/real-data.js';

const PAR_2019 = real('treasury/par-2019_full-year.csv');
const PAR_2020 = real('treasury/par-2020_full-year.csv');
const FEED_2019 = real('treasury/xml-feed_2019-01-02_to_2019-04-18.xml');
const PAR_2022 = asset('treasury/par-2022_full-year.csv');
const BILLS_2025 = asset('treasury/bill-2025_asof-2025-11-14.csv');

/** A Treasury CSV as the test reads it: ISO day → column header → the cell as written ('' when blank). */
function sheet(file: string): Map<string, Map<string, string>> {
  const [header, ...lines] = readFileSync(file, 'utf8').trim().split(/\r?\n/);
  const names = header!.split(',').map((h) => h.replace(/"/g, ''));
  const out = new Map<string, Map<string, string>>();
  for (const line of lines) {
    const cells = line.split(',');
    const [m, d, y] = cells[0]!.split('/');
    out.set(`${y}-${m}-${d}`, new Map(names.slice(1).map((n, i) => [n, cells[i + 1] ?? ''])));
  }
  return out;
}
const cell = (file: string, day: string, column: string) => Number(sheet(file).get(day)?.get(column));
/** a − b in basis points, from cells of two decimals: whole hundredths, no binary noise. */
const bp = (a: number, b: number) => Math.round(a * 100) - Math.round(b * 100);

const treasury = LOADERS.treasury as NonNullable<typeof LOADERS.treasury>;
const NOW = new Date('2026-11-25T12:00:00Z');

for (const { engine, skip } of ENGINES) {
  describe.skipIf(skip)(`Treasury rates on ${engine}`, () => {
    let env: TestEnv;
    let user: Customer;
    const get = async (url: string) => {
      const res = await env.app.inject({ method: 'GET', url, headers: bearer(user.key) });
      return { status: res.statusCode, body: res.json(), credits: res.headers['x-credits-cost'] };
    };
    const ok = async (url: string) => {
      const answer = await get(url);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body;
    };

    beforeAll(async () => {
      env = await testEnv({ engine, clock: () => NOW });
      user = await customer(env.deps);
      await loadFile(env.deps, treasury, PAR_2019);
      await loadFile(env.deps, treasury, PAR_2022);
    }, 60_000);
    afterAll(() => env.close());

    it("2s10s and 3m10y as Treasury's columns give them, an inverted curve flagged", async () => {
      for (const [file, day] of [
        [PAR_2019, '2019-08-27'],
        [PAR_2022, '2022-07-05'],
      ] as const) {
        const { data, meta } = await ok(`/v1/rates/treasury/curve?date=${day}`);
        const tenYear = cell(file, day, '10 Yr');
        const twos = bp(tenYear, cell(file, day, '2 Yr'));
        const threeMonths = bp(tenYear, cell(file, day, '3 Mo'));
        expect(data.date).toBe(day);
        expect(data.spreads['2s10s']).toEqual({ long: '10Y', short: '2Y', bp: twos, inverted: twos < 0 });
        expect(data.spreads['3m10y']).toEqual({
          long: '10Y',
          short: '3M',
          bp: threeMonths,
          inverted: threeMonths < 0,
        });
        expect(meta).toMatchObject({ dataset: 'treasury-rates', newestPeriod: day, knownFrom: 'calendar' });
      }
      // The two days the issue names: the 2019 inversion, and a flat 2022 curve (not inverted).
      expect((await ok('/v1/rates/treasury/curve?date=2019-08-27')).data.spreads['2s10s'].inverted).toBe(
        true,
      );
      expect((await ok('/v1/rates/treasury/curve?date=2022-07-05')).data.spreads['2s10s']).toMatchObject({
        bp: 0,
        inverted: false,
      });
    });

    it('each tenor as the file has it; a blank one (4 Mo before 19 October 2022) is absent, not zero', async () => {
      const { data } = await ok('/v1/rates/treasury/curve?date=2022-07-05');
      const row = sheet(PAR_2022).get('2022-07-05')!;
      const expected = [...row.entries()]
        .filter(([, v]) => v !== '')
        .map(([column, v]) => [column.replace(/ Mo$/, 'M').replace(/ Yr$/, 'Y'), Number(v)]);
      expect(data.tenors.map((t: { tenor: string; yield: number }) => [t.tenor, t.yield])).toEqual(expected);
      expect(row.get('4 Mo')).toBe('');
      expect(data.tenors.some((t: { tenor: string }) => t.tenor === '4M')).toBe(false);
      // The 4-month series starts the day the file's column does.
      const fourMonths = [...sheet(PAR_2022).entries()].filter(([, r]) => r.get('4 Mo') !== '');
      const history = await ok('/v1/rates/treasury/tenors/4M?from=2022-01-01&to=2022-12-31');
      expect(history.data.rows).toHaveLength(fourMonths.length);
      expect(history.data.rows[0]).toEqual({
        date: '2022-10-19',
        value: Number(fourMonths.at(-1)![1].get('4 Mo')),
      });
    });

    it('changes against the day, week, month and year before, in basis points from the file', async () => {
      const { data } = await ok('/v1/rates/treasury/curve?date=2019-08-27');
      const days = [...sheet(PAR_2019).keys()].sort();
      const onOrBefore = (d: string) => days.filter((x) => x <= d).at(-1);
      expect(data.previous).toEqual({
        day: '2019-08-26',
        week: onOrBefore('2019-08-20'),
        month: onOrBefore('2019-07-27'),
        year: null, // 2018 is not loaded here
      });
      const tenYear = data.tenors.find((t: { tenor: string }) => t.tenor === '10Y');
      expect(tenYear.changeBp).toEqual({
        day: bp(cell(PAR_2019, '2019-08-27', '10 Yr'), cell(PAR_2019, '2019-08-26', '10 Yr')),
        week: bp(cell(PAR_2019, '2019-08-27', '10 Yr'), cell(PAR_2019, data.previous.week, '10 Yr')),
        month: bp(cell(PAR_2019, '2019-08-27', '10 Yr'), cell(PAR_2019, data.previous.month, '10 Yr')),
        year: null,
      });
      // A date with no curve (a Sunday) answers the last day before it.
      expect((await ok('/v1/rates/treasury/curve?date=2019-09-01')).data.date).toBe('2019-08-30');
      // No date: the newest held.
      expect((await ok('/v1/rates/treasury/curve')).data.date).toBe('2022-12-30');
    });

    it('a change across days not held is left out and named in the gaps; the others say the day they compare with', async () => {
      // The files held end 2019-12-31 and start 2022-01-03: the first 2022 curve has no day, week, month or year
      // before it held, only 2019's last, two years back.
      const days2019 = [...sheet(PAR_2019).keys()].sort();
      const days2022 = [...sheet(PAR_2022).keys()].sort();
      expect([days2019.at(-1), days2022[0]]).toEqual(['2019-12-31', '2022-01-03']);
      const leftOut = (gaps: string[]) => gaps.filter((g) => g.includes('change left out'));
      const first = await ok('/v1/rates/treasury/curve?date=2022-01-03');
      expect(first.data.previous).toEqual({ day: null, week: null, month: null, year: null });
      expect(first.data.status).toBe('partial');
      expect(leftOut(first.data.gaps)).toEqual([
        'day change left out: no curve is held for 2022-01-02 or the 4 days before it',
        'week change left out: no curve is held for 2021-12-27 or the 4 days before it',
        'month change left out: no curve is held for 2021-12-03 or the 4 days before it',
        'year change left out: no curve is held for 2021-01-03 or the 4 days before it',
      ]);
      const tenYear = first.data.tenors.find((t: { tenor: string }) => t.tenor === '10Y');
      expect(tenYear.changeBp).toEqual({ day: null, week: null, month: null, year: null });
      // 5 July 2022, the Tuesday after Independence Day: its day before is Friday the 1st (held, four days before
      // it); its year before, 5 July 2021, is not held and is left out.
      const july = await ok('/v1/rates/treasury/curve?date=2022-07-05');
      expect(july.data.previous.day).toBe('2022-07-01');
      expect(july.data.previous.year).toBeNull();
      expect(leftOut(july.data.gaps)).toEqual([
        'year change left out: no curve is held for 2021-07-05 or the 4 days before it',
      ]);
      const july10 = july.data.tenors.find((t: { tenor: string }) => t.tenor === '10Y');
      expect(july10.changeBp.day).toBe(
        bp(cell(PAR_2022, '2022-07-05', '10 Yr'), cell(PAR_2022, '2022-07-01', '10 Yr')),
      );
      expect(july10.changeBp.year).toBeNull();
      // A day a month into 2022: its day, week and month are held; its year (2021) is not.
      const february = await ok('/v1/rates/treasury/curve?date=2022-02-04');
      expect(february.data.previous).toMatchObject({
        day: '2022-02-03',
        week: '2022-01-28',
        month: '2022-01-04',
      });
      expect(leftOut(february.data.gaps)).toEqual([
        'year change left out: no curve is held for 2021-02-04 or the 4 days before it',
      ]);
    });

    it('the same day from two files is one record; a changed value is a revision, read as known on a date', async () => {
      const feed = await loadFile(env.deps, treasury, FEED_2019);
      expect(feed).toMatchObject({ inserted: 0, revised: 0, unchanged: 900 });
      // Treasury's 27 August 2019 with its 10-year restated (a file of that day alone), published a week later.
      const [header, ...lines] = readFileSync(PAR_2019, 'utf8').trim().split(/\r?\n/);
      const day = lines.find((l) => l.startsWith('08/27/2019,'))!;
      const restated = day.split(',').map((v, i) => (i === 10 ? '1.52' : v));
      expect(header!.split(',')[10]).toBe('"10 Yr"');
      const dir = mkdtempSync(path.join(tmpdir(), 'quarry-rates-'));
      writeFileSync(path.join(dir, 'restated.csv'), `${header}\n${restated.join(',')}\n`);
      writeFileSync(path.join(dir, 'original.csv'), `${header}\n${day}\n`);
      const revised = await loadFile(env.deps, treasury, path.join(dir, 'restated.csv'), {
        published: '2019-09-03T21:00:00Z',
      });
      expect(revised).toMatchObject({ inserted: 0, revised: 1, unchanged: 11 });
      const now = (await ok('/v1/rates/treasury/curve?date=2019-08-27')).data.spreads['2s10s'];
      const then = (await ok('/v1/rates/treasury/curve?date=2019-08-27&asOf=2019-08-30')).data.spreads[
        '2s10s'
      ];
      expect(now.bp).toBe(bp(1.52, cell(PAR_2019, '2019-08-27', '2 Yr')));
      expect(then.bp).toBe(bp(cell(PAR_2019, '2019-08-27', '10 Yr'), cell(PAR_2019, '2019-08-27', '2 Yr')));
      // Known the evening of its day: as of the 26th, the curve of the 27th was not out.
      expect((await ok('/v1/rates/treasury/curve?date=2019-08-27&asOf=2019-08-26')).data.date).toBe(
        '2019-08-26',
      );
      // Restated back as first published: the later tests read the file's figures.
      const back = await loadFile(env.deps, treasury, path.join(dir, 'original.csv'), {
        published: '2019-09-04T21:00:00Z',
      });
      expect(back).toMatchObject({ revised: 1 });
    });

    it('bills: both quotes of each maturity, as the file has them; a tenor not of its series is refused', async () => {
      const report = await loadFile(env.deps, treasury, BILLS_2025);
      const bills = sheet(BILLS_2025);
      const filled = [...bills.values()].flatMap((r) => [...r.values()].filter((v) => v !== '')).length;
      expect(report.inserted).toBe(filled);
      const history = await ok('/v1/rates/treasury/tenors/13W?series=bill-coupon&from=2025-11-01');
      const expected = [...bills.entries()]
        .filter(([d]) => d >= '2025-11-01')
        .map(([date, r]) => ({ date, value: Number(r.get('13 WEEKS COUPON EQUIVALENT')) }))
        .sort((a, b) => a.date.localeCompare(b.date));
      expect(history.data.rows).toEqual(expected);
      // Each answer is judged by what it reads: the bills' history by the bills' newest day, the curve by the
      // par yields' (old bills never make a curve stale, nor old par yields a bill's history). Read as of the
      // day before the clock's: an instant no earlier read was judged at.
      const judged = (await ok('/v1/rates/treasury/tenors/13W?series=bill-coupon&asOf=2026-11-24')).data;
      expect(judged.gaps).toEqual([expect.stringMatching(/^stale: newest bill rates report 2025-11-14; /)]);
      const curve = (await ok('/v1/rates/treasury/curve?asOf=2026-11-24')).data;
      // (Its year change is left out: 2021 is not held here.)
      expect(curve.gaps).toEqual([
        'year change left out: no curve is held for 2021-12-30 or the 4 days before it',
        expect.stringMatching(/^stale: newest par yield curve report 2022-12-30; /),
      ]);
      const wrong = await get('/v1/rates/treasury/tenors/13W');
      expect([wrong.status, wrong.body.error, wrong.credits]).toEqual([400, 'invalid_params', '0']);
      expect(wrong.body.message).toMatch(/13W is not a tenor of par/);
    });

    it('bad input is a 400 naming it and costs nothing; a day before every curve is a 404', async () => {
      for (const [url, status, message] of [
        ['/v1/rates/treasury/tenors/11Y', 400, /tenor/],
        [
          '/v1/rates/treasury/tenors/10Y?from=2020-02-01&to=2020-01-01',
          400,
          /"from" \(2020-02-01\) is after "to"/,
        ],
        ['/v1/rates/treasury/curve?asOf=2027-01-01', 400, /in the future/],
        ['/v1/rates/treasury/curve?date=2019-13-01', 400, /date/],
      ] as const) {
        const answer = await get(url);
        expect([url, answer.status, answer.credits], JSON.stringify(answer.body)).toEqual([url, status, '0']);
        expect(answer.body.message).toMatch(message);
      }
      // A day before any curve held is not found (a lookup made: charged as cot's unknown contract is).
      const none = await get('/v1/rates/treasury/curve?date=1980-01-02');
      expect([none.status, none.body.message]).toEqual([
        404,
        'No Treasury par yield curve on or before 1980-01-02 is held.',
      ]);
      const curve = await get('/v1/rates/treasury/curve');
      const history = await get('/v1/rates/treasury/tenors/10Y?from=2022-01-01');
      expect([curve.credits, history.credits]).toEqual(['1', '2']);
    });

    it('a file with an unreadable rate is refused by line, and nothing of it is kept', async () => {
      const text = readFileSync(PAR_2020, 'utf8').replace(/^(12\/30\/2020,[^,]*),/m, '$1,n/a2,');
      const copy = path.join(mkdtempSync(path.join(tmpdir(), 'quarry-rates-')), 'par-2020.csv');
      writeFileSync(copy, text);
      await expect(loadFile(env.deps, treasury, copy)).rejects.toThrow(
        /par-2020.csv:3: 2 Mo "n\/a2" is not a rate/,
      );
      expect((await get('/v1/rates/treasury/curve?date=2020-12-31')).body.data.date).toBe('2019-12-31');
    });
  });
}

describe("the bond market's calendar", () => {
  it('is the days the full-year files hold: every weekday of 2019, 2020, 2022 and 2023 but their closures', () => {
    for (const file of [PAR_2019, PAR_2020, PAR_2022, asset('treasury/par-2023_full-year.csv')]) {
      const held = [...sheet(file).keys()].sort();
      const year = held[0]!.slice(0, 4);
      const days: string[] = [];
      for (let d = `${year}-01-01`; d.startsWith(year); d = addDays(d, 1))
        if (isBondMarketDay(d)) days.push(d);
      expect(days, year).toEqual(held);
    }
  });
});

describe('quarry sync treasury against a stand-in for Treasury', () => {
  const agency = new MockAgency();
  let env: TestEnv;
  const CSV = '/resource-center/data-chart-center/interest-rates/daily-treasury-rates.csv/2020/all';
  const sync = () => {
    const { collection, loaders } = COLLECTIONS.get('treasury') as NonNullable<
      ReturnType<typeof COLLECTIONS.get>
    >;
    return collect(env.deps, 'treasury', collection, loaders);
  };
  beforeAll(async () => {
    await agency.start();
    agency.serve(
      `${CSV}?type=daily_treasury_yield_curve&field_tdr_date_value=2020&page&_format=csv`,
      PAR_2020,
    );
    env = await testEnv({ clock: () => new Date('2020-12-31T23:30:00Z'), env: agency.env() });
  });
  afterAll(async () => {
    await env.close();
    await agency.stop();
  });

  it("fetches the current year's files; the curve loads, the bills Treasury does not serve here are reported", async () => {
    const first = await sync();
    expect(first.files.map((f) => [f.name, f.outcome])).toEqual([
      ['daily_treasury_yield_curve_2020.csv', 'loaded'],
      ['daily_treasury_bill_rates_2020.csv', 'not_published'],
    ]);
    const cells = [...sheet(PAR_2020).values()].flatMap((r) =>
      [...r.values()].filter((v) => v !== ''),
    ).length;
    expect(first.files[0]?.load?.inserted).toBe(cells);
    const again = await sync();
    expect(again.files[0]?.outcome).toBe('unchanged');
    // In the first week of January the old year's files are fetched too: December's last days.
    const { collection } = COLLECTIONS.get('treasury') as NonNullable<ReturnType<typeof COLLECTIONS.get>>;
    const names = (at: string) =>
      collection.files(new Date(at)).map((f) => (typeof f === 'string' ? f : f.name));
    expect(names('2021-01-04T12:00:00Z')).toEqual([
      'daily_treasury_yield_curve_2020.csv',
      'daily_treasury_bill_rates_2020.csv',
      'daily_treasury_yield_curve_2021.csv',
      'daily_treasury_bill_rates_2021.csv',
    ]);
    expect(names('2021-01-08T12:00:00Z')).toEqual([
      'daily_treasury_yield_curve_2021.csv',
      'daily_treasury_bill_rates_2021.csv',
    ]);
    expect(agency.requests[0]?.headers['user-agent']).toBe('Quarry data collector (ops@quarry.example)');
  });
});
