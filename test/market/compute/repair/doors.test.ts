// A repaired value says so at every door: REL.L's dividends as Yahoo sent them (pence among prices in pounds,
// from yfinance's REL-L-1d-bad-div.csv) and 4063.T's bars before a split Yahoo did not apply, over REST, over
// MCP (the answer and its table) and in /v1/data's values computed from them.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../../../src/ingest/run.js';
import { LOADERS } from '../../../../src/runtime/loaders.js';
import { bearer, marketKey, type TestEnv, testEnv } from '../../../helpers/env.js';
import { callTool, connect, textOf } from '../../../mcp/client.js';

const REPAIR = path.resolve('test/fixtures/market/repair');

function plain(name: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'doors-')), name);
  writeFileSync(file, gunzipSync(readFileSync(path.join(REPAIR, `${name}.gz`))));
  return file;
}

describe('a repaired value at every door', () => {
  let env: TestEnv;
  let key: string;
  beforeAll(async () => {
    env = await testEnv();
    const prices = LOADERS.prices as NonNullable<typeof LOADERS.prices>;
    await loadFile(env.deps, prices, plain('REL-L-1d-bad-div.csv'), { ticker: 'REL.L', unit: 'main' });
    await loadFile(env.deps, prices, plain('4063-T-1d-bad-stock-split.csv'), { ticker: '4063.T' });
    await loadFile(env.deps, prices, plain('MOB-ST-1d-bad-stock-split.csv'), { ticker: 'MOB.ST' });
    key = await marketKey(env.deps);
  });
  afterAll(() => env.close());

  const post = async (route: string, payload: object) =>
    (await env.app.inject({ method: 'POST', url: route, headers: bearer(key), payload })).json();

  it('REST: the dividend served in pounds, with what was sent and why', async () => {
    const body = await post('/v1/actions', {
      tickers: ['REL.L', 'REL LN Equity'],
      start: '2022-04-28',
      end: '2022-04-28',
    });
    const [pounds, pence] = body.items;
    // REL-L-1d-bad-div.csv: 35.5 on 2022-04-28 (pence); the fixed table's 0.355.
    expect(pounds.actions).toEqual([
      expect.objectContaining({
        date: '2022-04-28',
        amount: 0.355,
        repaired: { from: 35.5, reason: expect.stringMatching(/a hundred times too large/) },
      }),
    ]);
    // The terminal form answers in pence: the amount and what was sent, in the same unit.
    expect(pence.actions[0]).toMatchObject({ amount: 35.5, repaired: { from: 3550 } });
  });

  it('REST: history names each bar value changed for the split, and the rows hold the repaired ones', async () => {
    const body = await post('/v1/history', {
      tickers: ['4063.T'],
      fields: ['PX_LAST'],
      start: '2023-03-28',
      end: '2023-03-29',
    });
    const item = body.items[0];
    // The table's 2023-03-28 close, 20,710, in the shares after the 5-for-1 split: 4,142.
    expect(item.rows).toEqual([
      { date: '2023-03-28', PX_LAST: 4142 },
      { date: '2023-03-29', PX_LAST: 4206 },
    ]);
    // As traded, the day before the ex-date is the table's own 20,710 again (not five times it).
    const traded = await post('/v1/history', {
      tickers: ['4063.T'],
      fields: ['PX_LAST'],
      start: '2023-03-28',
      end: '2023-03-28',
      adjust: 'none',
    });
    expect(traded.items[0].rows).toEqual([{ date: '2023-03-28', PX_LAST: 20710 }]);
    expect(item.repaired).toContainEqual({
      date: '2023-03-28',
      field: 'close',
      from: 20710,
      to: 4142,
      reason: expect.stringContaining('5-for-1 split of 2023-03-30'),
    });
  });

  it('/v1/data: a volatility measured over repaired closes says so, and is measured on them', async () => {
    const body = await post('/v1/data', { tickers: ['MOB.ST'], fields: ['VOLATILITY_10D'] });
    const item = body.items[0];
    // The fixed table's last eleven closes (2023-05-22 is 22.75, sent as 2.275): their log returns' sample
    // standard deviation, annualised with the square root of 260.
    const fixed = gunzipSync(readFileSync(path.join(REPAIR, 'MOB-ST-1d-bad-stock-split-fixed.csv.gz')))
      .toString('utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(','))
      .sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1))
      .map((cells) => Number(cells[4]));
    const returns = fixed
      .slice(-11)
      .map((close, i, all) => (i ? Math.log(close / (all[i - 1] as number)) : 0))
      .slice(1);
    const mean = returns.reduce((a, b) => a + b, 0) / returns.length;
    const sd = Math.sqrt(returns.reduce((a, b) => a + (b - mean) ** 2, 0) / (returns.length - 1));
    expect(item.values.VOLATILITY_10D).toBeCloseTo(sd * Math.sqrt(260) * 100, 3);
    expect(item.repaired.VOLATILITY_10D).toMatch(
      /closes repaired on 2023-05-22: in the shares before the 1-for-10 split/,
    );
  });

  it('MCP: the tools answer what REST answers, and their tables say what was repaired', async () => {
    const url = await env.app.listen({ port: 0, host: '127.0.0.1' });
    const client = await connect(url, key);
    try {
      const args = { tickers: ['REL.L'], start: '2022-04-28', end: '2022-08-04' };
      const actions = await callTool(client, 'market.actions', args);
      expect(actions.structuredContent).toEqual(await post('/v1/actions', args));
      expect(textOf(actions)).toContain(
        'date,type,amount,numerator,denominator,knownAt,file,repairedFrom,repairedBecause',
      );
      expect(textOf(actions)).toMatch(
        /2022-04-28,dividend,0\.355,,,[^,]+,REL-L-1d-bad-div\.csv,35\.5,"?sent in the other unit/,
      );
      const window = { tickers: ['4063.T'], fields: ['PX_LAST'], start: '2023-03-28', end: '2023-03-29' };
      const history = await callTool(client, 'market.history', window);
      expect(history.structuredContent).toEqual(await post('/v1/history', window));
      expect(textOf(history)).toMatch(
        /repaired: 2023-03-28 close 20710 -> 4142: in the shares before the 5-for-1 split/,
      );
    } finally {
      await client.close();
    }
  });
});
