// Recorded chart responses become daily bars (in main units) and the quote carried in the chart's meta.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../../src/ingest/run.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { bearer, marketKey, type TestEnv, testEnv } from '../../helpers/env.js';

const FIXTURES = path.resolve('test/fixtures/market');
const yahoo = LOADERS.yahoo as NonNullable<typeof LOADERS.yahoo>;

describe('Yahoo chart recordings', () => {
  let env: TestEnv;
  let key: string;
  const reports: Record<string, Awaited<ReturnType<typeof loadFile>>> = {};
  beforeAll(async () => {
    env = await testEnv();
    for (const f of [
      'chart-AAPL-2020-08-31-to-2020-11-07.json',
      'chart-OCDO.L-2020-01-01-to-2020-01-03.json',
    ]) {
      reports[f] = await loadFile(env.deps, yahoo, path.join(FIXTURES, f));
    }
    key = await marketKey(env.deps);
  });
  afterAll(() => env.close());
  const history = async (query: string) =>
    (await env.app.inject({ method: 'GET', url: `/v1/history?${query}`, headers: bearer(key) })).json();

  it('one bar per trading day plus the quote; loading again changes nothing', async () => {
    // 49 trading days from 31 Aug to 6 Nov 2020, the meta quote, the chart's two events (the 4-for-1 split of
    // 31 Aug and the dividend of 6 Nov) and the days over which its dividends and splits are known.
    expect(reports['chart-AAPL-2020-08-31-to-2020-11-07.json']).toMatchObject({
      inserted: 53,
      firstDate: '2020-08-31',
    });
    const again = await loadFile(
      env.deps,
      yahoo,
      path.join(FIXTURES, 'chart-AAPL-2020-08-31-to-2020-11-07.json'),
    );
    expect(again).toMatchObject({ inserted: 0, revised: 0, unchanged: 53 });
  });

  it('bars dated on the exchange day with the published prices (split-adjusted)', async () => {
    const body = await history('tickers=AAPL&fields=PX_LAST,PX_OPEN,volume&start=2020-08-31&end=2020-09-01');
    // AAPL's first close after its 4-for-1 split: 129.04, on 225.7 million shares.
    expect(body.items[0].rows).toEqual([
      { date: '2020-08-31', PX_LAST: 129.04, PX_OPEN: 127.58, volume: 225702700 },
      { date: '2020-09-01', PX_LAST: 134.18, PX_OPEN: 132.76, volume: 151948100 },
    ]);
  });

  it('pence bars: OCDO LN Equity in GBp, OCDO.L in pounds', async () => {
    const body = await history(
      'tickers=OCDO%20LN%20Equity,OCDO.L&fields=price,high&start=2020-01-02&end=2020-01-02',
    );
    expect(body.items[0].rows).toEqual([{ date: '2020-01-02', price: 1259.5, high: 1286.57 }]);
    expect(body.items[1].rows).toEqual([{ date: '2020-01-02', price: 12.595, high: 12.8657 }]);
  });

  it('a recorded chart error is a clear load error', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'quarry-chart-'));
    const file = path.join(dir, 'chart-NOPE.json');
    writeFileSync(
      file,
      JSON.stringify({
        response: {
          bodyJson: { chart: { result: null, error: { code: 'Not Found', description: 'No data found' } } },
        },
      }),
    );
    await expect(loadFile(env.deps, yahoo, file)).rejects.toThrow(
      /a Yahoo chart error response: Not Found: No data found/,
    );
  });
});

describe('a chart body without its request', () => {
  let env: TestEnv;
  let key: string;
  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-chart-body-'));
  const recorded = JSON.parse(
    readFileSync(path.join(FIXTURES, 'chart-AAPL-2020-08-31-to-2020-11-07.json'), 'utf8'),
  );
  const chart = recorded.response.bodyJson.chart.result[0];
  /** The chart's first and last bar days, read from its timestamps and its offset. */
  const days = (chart.timestamp as number[]).map((t) =>
    new Date((t + chart.meta.gmtoffset) * 1000).toISOString().slice(0, 10),
  );
  beforeAll(async () => {
    env = await testEnv();
    key = await marketKey(env.deps);
  });
  afterAll(() => env.close());
  const actions = async (query: string) =>
    (await env.app.inject({ method: 'GET', url: `/v1/actions?${query}`, headers: bearer(key) })).json();

  it('knows the actions its body carries over its window, with no request to say what was asked', async () => {
    // The body alone, as a recording kept without its request would hold it: it carries dividends and splits.
    expect(Object.keys(chart.events).sort()).toEqual(['dividends', 'splits']);
    const file = path.join(dir, 'chart-AAPL-body.json');
    writeFileSync(file, JSON.stringify(recorded.response.bodyJson));
    const report = await loadFile(env.deps, yahoo, file);
    expect(report.notes).toEqual([]);
    const answer = await actions(`tickers=AAPL&start=${days[0]}&end=${days.at(-1)}`);
    expect(answer.items[0].known).toEqual({
      dividend: [{ start: days[0], end: days.at(-1) }],
      split: [{ start: days[0], end: days.at(-1) }],
      capitalGain: [],
    });
    // The 4-for-1 split and the dividend the body carries.
    expect(answer.items[0].actions.map((a: { type: string; date: string }) => [a.type, a.date])).toEqual([
      ['split', '2020-08-31'],
      ['dividend', '2020-11-06'],
    ]);
  });

  it('a body without events says why its actions stay unknown', async () => {
    const { events: _events, ...bare } = chart;
    const file = path.join(dir, 'chart-MSFT-bare.json');
    writeFileSync(
      file,
      JSON.stringify({
        chart: { result: [{ ...bare, meta: { ...bare.meta, symbol: 'MSFT' } }], error: null },
      }),
    );
    const report = await loadFile(env.deps, yahoo, file);
    expect(report.notes).toEqual([
      'MSFT: the chart carries no events and its request is not recorded, so its dividends and splits stay unknown (record the chart with events=div|split)',
    ]);
    const answer = await actions(`tickers=MSFT&start=${days[0]}&end=${days.at(-1)}`);
    // Its bars are held; its actions are not known for any day, and the answer says so rather than "none".
    expect(answer.items[0]).toMatchObject({
      status: 'error',
      error: {
        code: 'not_found',
        message: expect.stringMatching(/^No dividends, splits or capital gains are known for MSFT/),
      },
    });
  });
});
