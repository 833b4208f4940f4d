// Stored bars, quotes and actions name the file that brought them: Apple's chart of autumn 2020 (a Yahoo recording) and
// its price file of 2021 to 2023 loaded one after the other, and a window across both read back. The days each
// file brought are read here from the files themselves.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../../src/ingest/run.js';
import { ACTIONS } from '../../../src/market/actions/index.js';
import { DATA } from '../../../src/market/data/index.js';
import { HISTORY } from '../../../src/market/history/index.js';
import { QUOTES } from '../../../src/market/quotes/index.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { type TestEnv, testEnv } from '../../helpers/env.js';

const DIR = path.resolve('test/fixtures/market');
const CHART = 'chart-AAPL-2020-08-31-to-2020-11-07.json';
const PRICES = 'AAPL.csv';

/** The chart's trading days (its timestamps at New York's day), the dividends it carries and its quote's time. */
function chart(): { days: string[]; dividends: string[]; quotedAt: number } {
  const result = JSON.parse(readFileSync(path.join(DIR, CHART), 'utf8')).response.bodyJson.chart.result[0];
  const day = (t: number) => new Date((t - 4 * 3600) * 1000).toISOString().slice(0, 10);
  const dividends = Object.values(result.events?.dividends ?? {}) as { date: number }[];
  return {
    days: result.timestamp.map(day),
    dividends: dividends.map((d) => day(d.date)),
    quotedAt: result.meta.regularMarketTime,
  };
}

/** The price file's dates, oldest first. */
const priceDays = () =>
  readFileSync(path.join(DIR, PRICES), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.slice(0, 10));

describe('stored values name the file that brought them', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await testEnv();
    await loadFile(env.deps, LOADERS.yahoo as NonNullable<typeof LOADERS.yahoo>, path.join(DIR, CHART), {});
    await loadFile(env.deps, LOADERS.prices as NonNullable<typeof LOADERS.prices>, path.join(DIR, PRICES), {
      ticker: 'AAPL',
    });
  });
  afterAll(() => env.close());

  it("history's files: each file with the days of the window it brought", async () => {
    const answer = await HISTORY.run(env.deps, {
      tickers: ['AAPL'],
      fields: ['PX_LAST'],
      start: '2020-09-15',
      end: '2021-02-01',
    });
    const item = JSON.parse(JSON.stringify(answer.items[0]));
    const fromChart = chart().days.filter((d) => d >= '2020-09-15');
    const fromFile = priceDays().filter((d) => d <= '2021-02-01');
    expect(item.source).toBe('stored');
    expect(item.files).toEqual([
      { file: CHART, start: fromChart[0], end: fromChart.at(-1) },
      { file: PRICES, start: fromFile[0], end: fromFile.at(-1) },
    ]);
    expect(item.rows.map((r: { date: string }) => r.date)).toEqual([...fromChart, ...fromFile]);
  });

  it("a window of one file's days names that file alone", async () => {
    const answer = await HISTORY.run(env.deps, {
      tickers: ['AAPL'],
      fields: ['PX_LAST'],
      start: '2022-03-01',
      end: '2022-03-31',
    });
    const days = priceDays().filter((d) => d >= '2022-03-01' && d <= '2022-03-31');
    expect(JSON.parse(JSON.stringify(answer.items[0])).files).toEqual([
      { file: PRICES, start: days[0], end: days.at(-1) },
    ]);
  });

  it('a stored quote names the file its price came from, in /v1/quotes and /v1/data', async () => {
    // The chart's quote (its meta's market time, 2025-02-19) is newer than the price file's last close.
    const quoted = new Date(chart().quotedAt * 1000).toISOString();
    expect(quoted.slice(0, 10) > (priceDays().at(-1) as string)).toBe(true);
    const quotes = JSON.parse(JSON.stringify(await QUOTES.run(env.deps, { tickers: ['AAPL'] })));
    expect(quotes.items[0].quote).toMatchObject({ source: 'stored', file: CHART, asOf: quoted });
    const data = JSON.parse(
      JSON.stringify(await DATA.run(env.deps, { tickers: ['AAPL'], fields: ['PX_LAST'] })),
    );
    expect(data.items[0]).toMatchObject({ source: 'stored', file: CHART });
  });

  it.each([
    ['SPX.csv', '^GSPC'],
    ['BARC.L.csv', 'BARC.L'],
  ])("a quote made of %s's last bars names it", async (name, ticker) => {
    const prices = LOADERS.prices as NonNullable<typeof LOADERS.prices>;
    await loadFile(env.deps, prices, path.join(DIR, name), { ticker });
    const quotes = JSON.parse(JSON.stringify(await QUOTES.run(env.deps, { tickers: [ticker] })));
    expect(quotes.items[0].quote).toMatchObject({ source: 'stored', file: name });
  });

  it('each stored action names its file', async () => {
    const answer = await ACTIONS.run(env.deps, { tickers: ['AAPL'], start: '2020-09-01', end: '2020-11-30' });
    const actions = JSON.parse(JSON.stringify(answer.items[0])).actions as { date: string; file?: string }[];
    expect(actions.map((a) => a.date)).toEqual(chart().dividends);
    expect(actions.every((a) => a.file === CHART)).toBe(true);
  });
});
