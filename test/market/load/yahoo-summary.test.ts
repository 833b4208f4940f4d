// Recorded quoteSummary responses add profile, estimates, targets and margins to the stored quote.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../../src/ingest/run.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { bearer, marketKey, type TestEnv, testEnv } from '../../helpers/env.js';
import { real } from '../../helpers/real-data.js';

const FIXTURES = path.resolve('test/fixtures/market');

describe('Yahoo quoteSummary recordings', () => {
  let env: TestEnv;
  let key: string;
  beforeAll(async () => {
    env = await testEnv();
    const yahoo = LOADERS.yahoo as NonNullable<typeof LOADERS.yahoo>;
    for (const f of [
      'quote-AAPL.json',
      'quoteSummary-all-AAPL.json',
      'quoteSummary-all-OCDO.L.json',
      'quote-OCDO.L.json',
    ]) {
      await loadFile(env.deps, yahoo, path.join(FIXTURES, f));
    }
    key = await marketKey(env.deps);
  });
  afterAll(() => env.close());
  const data = async (query: string) =>
    (await env.app.inject({ method: 'GET', url: `/v1/data?${query}`, headers: bearer(key) })).json().items;

  it('profile, estimates and targets; the newer recording wins where both have a value', async () => {
    const [aapl] = await data(
      'tickers=AAPL&fields=sector,industry,BEST_EPS,BEST_TARGET_PRICE,PX_LAST,BEST_PE_RATIO,dividendYield,EQY_DVD_YLD_IND',
    );
    expect(aapl.values).toEqual({
      sector: 'Technology',
      industry: 'Consumer Electronics',
      BEST_EPS: 7.3157,
      BEST_TARGET_PRICE: 252.22575,
      // The quoteSummary recording (21 Feb 2025) is newer than the quote recording (14 Feb 2025).
      PX_LAST: 245.55,
      // 245.55 / 7.3157
      BEST_PE_RATIO: 33.564799,
      dividendYield: 0.41,
      EQY_DVD_YLD_IND: 0.41,
    });
  });

  it('targets follow the minor-units rule; estimates stay in the reporting currency', async () => {
    const [terminal, suffixed] = await data(
      'tickers=OCDO%20LN%20Equity,OCDO.L&fields=BEST_TARGET_PRICE,BEST_EPS,sector',
    );
    expect(terminal.values).toEqual({
      BEST_TARGET_PRICE: 441.38498,
      BEST_EPS: -0.38265,
      sector: 'Consumer Defensive',
    });
    expect(suffixed.values.BEST_TARGET_PRICE).toBe(4.4138498);
  });

  it('a quote loaded after a newer summary does not overwrite the newer values', async () => {
    // quote-OCDO.L (17 Feb 2025, 308.8 GBp) was loaded after quoteSummary-all-OCDO.L (24 Feb 2025, 309 GBp).
    const [ocdo] = await data('tickers=OCDO%20LN%20Equity&fields=PX_LAST');
    expect(ocdo.values.PX_LAST).toBe(309);
  });
});

describe('quoteSummary recordings without the price module', () => {
  let env: TestEnv;
  let key: string;
  beforeAll(async () => {
    env = await testEnv();
    key = await marketKey(env.deps);
  });
  afterAll(() => env.close());
  const yahoo = () => LOADERS.yahoo as NonNullable<typeof LOADERS.yahoo>;
  const data = async (query: string) =>
    (await env.app.inject({ method: 'GET', url: `/v1/data?${query}`, headers: bearer(key) })).json().items;

  it('are loaded as facts that add to the quote, whichever is loaded first', async () => {
    const report = await loadFile(
      env.deps,
      yahoo(),
      real('market/yahoo/quoteSummary/quoteSummary-financialData-AAPL.json'),
    );
    expect(report).toMatchObject({ inserted: 1, notes: [expect.stringContaining('targetPrice')] });
    // Facts alone are not a quote: the field has no value yet.
    const [alone] = await data('tickers=AAPL&fields=profitMargin');
    expect(alone.values).toEqual({ profitMargin: null });
    expect(alone.errors.profitMargin.code).toBe('not_found');
    await loadFile(env.deps, yahoo(), path.join(FIXTURES, 'quote-AAPL.json'));
    const [aapl] = await data('tickers=AAPL&fields=PX_LAST,profitMargin,operatingMargin');
    // financialData of 2025-02-24: profitMargins 0.24295, operatingMargins 0.34459.
    expect(aapl.values).toEqual({ PX_LAST: 244.6, profitMargin: 24.295, operatingMargin: 34.459 });
  });

  it('keep no price-currency value when the response does not name its price currency', async () => {
    const report = await loadFile(
      env.deps,
      yahoo(),
      real('market/yahoo/quoteSummary/quoteSummary-financialData-OCDO.L.json'),
    );
    // Ocado's targets are quoted in pence; without the price module nothing says so.
    expect(report.notes).toEqual([
      'OCDO.L: targetPrice, targetPriceMedian, targetPriceHigh, targetPriceLow not kept: the response does not say its price currency',
    ]);
    await loadFile(env.deps, yahoo(), path.join(FIXTURES, 'quote-OCDO.L.json'));
    const [ocdo] = await data('tickers=OCDO.L&fields=BEST_TARGET_PRICE');
    expect(ocdo.values).toEqual({ BEST_TARGET_PRICE: null });
  });

  it('a loaded recording again changes nothing', async () => {
    const again = await loadFile(
      env.deps,
      yahoo(),
      real('market/yahoo/quoteSummary/quoteSummary-financialData-AAPL.json'),
    );
    expect(again).toMatchObject({ inserted: 0, revised: 0, unchanged: 1 });
  });
});
