// Derived market figures against a separate computation: beta and volatility of the demo's US listings, served
// by /v1/data from the demo's price files, and recomputed by a pandas script (test/independent/market.py) that
// reads the same files itself. The listings end on 2026-05-01 and the S&P 500 on 2026-06-26: beta is measured
// on the weeks both hold.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../src/ingest/run.js';
import { LOADERS } from '../../src/runtime/loaders.js';
import { bearer, marketKey, type TestEnv, testEnv } from '../helpers/env.js';
import { havePandas, independent } from '../helpers/python.js';
import { asset } from '../helpers/real-data.js';

const TICKERS = ['AAPL', 'NVDA', 'MSFT'];
type Expected = Record<
  string,
  { betaRaw: number; betaAdjusted: number; from: string; to: string; lastClose: string } & Record<
    string,
    number
  >
>;

describe.runIf(havePandas())('beta and volatility against an independent computation', () => {
  let env: TestEnv;
  let key: string;
  let expected: Expected;
  beforeAll(async () => {
    env = await testEnv({ clock: () => new Date('2026-11-25T12:00:00Z') });
    const prices = LOADERS.prices as NonNullable<typeof LOADERS.prices>;
    for (const ticker of TICKERS)
      await loadFile(
        env.deps,
        prices,
        asset(`market/ahmedhussain47-Praktikum-Equity-Analysis-Embedding/${ticker}.csv`),
      );
    // As the demo loads them (src/market/load/index.ts).
    await loadFile(env.deps, prices, asset('market/jaiveer28-ets-simulator/^GSPC.csv'), { ticker: '^GSPC' });
    await loadFile(env.deps, prices, asset('market/fsoaz-financial-market-dashboard/^GSPC.csv'), {
      through: '2026-06-26',
    });
    key = await marketKey(env.deps);
    expected = independent<Expected>('market.py', TICKERS);
  });
  afterAll(() => env.close());

  it('adjusted and raw beta on the weeks both series hold, with the window and its last common date as asOf', async () => {
    const fields = 'EQY_BETA,BETA_RAW_OVERRIDABLE';
    const res = await env.app.inject({
      method: 'GET',
      url: `/v1/data?tickers=${TICKERS.join(',')}&fields=${fields}`,
      headers: bearer(key),
    });
    expect(res.statusCode).toBe(200);
    for (const item of res.json().items) {
      const want = expected[item.input]!;
      // Served rounded to six decimals.
      expect(item.values.EQY_BETA).toBeCloseTo(want.betaAdjusted, 6);
      expect(item.values.BETA_RAW_OVERRIDABLE).toBeCloseTo(want.betaRaw, 6);
      expect(item.windows.EQY_BETA).toEqual({ from: want.from, to: want.to });
      expect(item.asOf.EQY_BETA).toBe(want.to);
    }
    // The figures a reader checks by hand: 1.062, 1.712 and 1.053.
    expect(
      res.json().items.map((i: { values: { EQY_BETA: number } }) => i.values.EQY_BETA.toFixed(3)),
    ).toEqual(['1.062', '1.712', '1.053']);
  });

  it('volatility over 30, 90 and 260 days of daily log returns, as of the last close', async () => {
    const res = await env.app.inject({
      method: 'GET',
      url: `/v1/data?tickers=${TICKERS.join(',')}&fields=VOLATILITY_30D,VOLATILITY_90D,VOLATILITY_260D`,
      headers: bearer(key),
    });
    for (const item of res.json().items) {
      const want = expected[item.input]!;
      for (const days of [30, 90, 260]) {
        const field = `VOLATILITY_${days}D`;
        // Served rounded to four decimals.
        expect(item.values[field]).toBeCloseTo(want[`volatility${days}d`]!, 4);
        expect(item.asOf[field]).toBe(want.lastClose);
        expect(item.windows[field].to).toBe(want.lastClose);
      }
    }
  });
});
