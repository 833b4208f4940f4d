// USGG2YR Index and USGG3M Index: Treasury's 2-year par yield and 13-week bill (coupon equivalent), served by
// the market API from the treasury-rates dataset, end of day, each figure checked against Treasury's file.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../../src/ingest/run.js';
import { DATA } from '../../../src/market/data/index.js';
import { HISTORY } from '../../../src/market/history/index.js';
import { QUOTES } from '../../../src/market/quotes/index.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { type TestEnv, testEnv } from '../../helpers/env.js';
import { asset, real } from '../../helpers/real-data.js';

const PAR_2019 = real('treasury/par-2019_full-year.csv');
const BILLS_2025 = asset('treasury/bill-2025_asof-2025-11-14.csv');

/** A column of a Treasury CSV, oldest first, blanks left out: [ISO day, value]. */
function column(file: string, name: string): [string, number][] {
  const [header, ...lines] = readFileSync(file, 'utf8').trim().split(/\r?\n/);
  const at = header!
    .split(',')
    .map((h) => h.replace(/"/g, ''))
    .indexOf(name);
  expect(at).toBeGreaterThan(0);
  return lines
    .map((l) => l.split(','))
    .filter((cells) => cells[at] !== '')
    .map((cells): [string, number] => {
      const [m, d, y] = cells[0]!.split('/');
      return [`${y}-${m}-${d}`, Number(cells[at])];
    })
    .reverse();
}

describe('Treasury yields as market indices', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await testEnv({ clock: () => new Date('2026-11-25T12:00:00Z') });
    const treasury = LOADERS.treasury as NonNullable<typeof LOADERS.treasury>;
    await loadFile(env.deps, treasury, PAR_2019);
    await loadFile(env.deps, treasury, BILLS_2025);
  });
  afterAll(() => env.close());

  it("PX_LAST is the newest figure of Treasury's file, known the evening of its day, and old figures say so", async () => {
    const twos = column(PAR_2019, '2 Yr');
    const bills = column(BILLS_2025, '13 WEEKS COUPON EQUIVALENT');
    const answer = await DATA.run(env.deps, {
      tickers: ['USGG2YR Index', 'USGG3M Index'],
      fields: ['PX_LAST'],
    });
    const items = JSON.parse(JSON.stringify(answer.items)) as { values: { PX_LAST: number } }[];
    expect(items.map((i) => i.values.PX_LAST)).toEqual([twos.at(-1)![1], bills.at(-1)![1]]);
    const quotes = JSON.parse(
      JSON.stringify((await QUOTES.run(env.deps, { tickers: ['USGG2YR Index'] })).items),
    );
    expect(quotes[0].quote).toMatchObject({
      price: twos.at(-1)![1],
      previousClose: twos.at(-2)![1],
      // 18:00 New York time of 31 December 2019: when Treasury's day is out by.
      asOf: '2019-12-31T23:00:00.000Z',
      stale: true,
    });
    expect(quotes[0].resolved).toMatchObject({ symbol: '^UST2Y', note: expect.stringMatching(/end of day/) });
  });

  it("daily history is the file's column, day for day", async () => {
    const answer = await HISTORY.run(env.deps, {
      tickers: ['USGG2YR Index'],
      fields: ['PX_LAST'],
      start: '2019-08-01',
      end: '2019-08-31',
    });
    const rows = JSON.parse(JSON.stringify(answer.items[0])).rows as { date: string; PX_LAST: number }[];
    const expected = column(PAR_2019, '2 Yr').filter(([d]) => d >= '2019-08-01' && d <= '2019-08-31');
    expect(rows.map((r) => [r.date, r.PX_LAST])).toEqual(expected);
  });
});
