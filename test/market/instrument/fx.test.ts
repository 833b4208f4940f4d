// Rates from stored FX instruments, and the current-year P/E with the estimate converted into the price currency.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../../src/ingest/run.js';
import { fxRate } from '../../../src/market/instrument/fx.js';
import { StoredProvider } from '../../../src/market/providers/stored.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { bearer, marketKey, type TestEnv, testEnv } from '../../helpers/env.js';

const FIXTURES = path.resolve('test/fixtures/market');
const yahoo = LOADERS.yahoo as NonNullable<typeof LOADERS.yahoo>;
const prices = LOADERS.prices as NonNullable<typeof LOADERS.prices>;

describe('FX rates and peCurrentYear', () => {
  let env: TestEnv;
  let key: string;
  beforeAll(async () => {
    env = await testEnv();
    for (const f of ['quote-AAPL-BABA.json', 'quote-EURUSD=X.json'])
      await loadFile(env.deps, yahoo, path.join(FIXTURES, f));
    key = await marketKey(env.deps);
  });
  afterAll(() => env.close());
  const pe = async () => {
    const res = await env.app.inject({
      method: 'GET',
      url: '/v1/data?tickers=AAPL,BABA&fields=BEST_PE_RATIO',
      headers: bearer(key),
    });
    return res.json().items;
  };

  it('a pair read either way round from its recorded quote; unknown pairs are null', async () => {
    const provider = new StoredProvider(env.deps.store.db);
    // EURUSD=X was recorded at 1.0489877 dollars per euro.
    expect(await fxRate(provider, 'EUR', 'USD')).toBe(1.0489877);
    expect(await fxRate(provider, 'USD', 'EUR')).toBeCloseTo(0.9533000244, 9);
    expect(await fxRate(provider, 'USD', 'USD')).toBe(1);
    expect(await fxRate(provider, 'CNY', 'USD')).toBeNull();
  });

  it('an estimate in another currency needs a stored rate; then it is converted', async () => {
    const [aapl, baba] = await pe();
    // AAPL: 244.6 USD / 7.34741 USD.
    expect(aapl.values.BEST_PE_RATIO).toBe(33.290643);
    // BABA trades in USD and reports in CNY (estimate 62.9588 CNY).
    expect(baba.errors.BEST_PE_RATIO).toEqual({
      code: 'not_found',
      message: 'no CNY/USD rate stored to convert the estimate',
    });
    // A hand-chosen rate of 7.295 yuan per dollar, as a daily close of USDCNY.
    const dir = mkdtempSync(path.join(tmpdir(), 'quarry-fx-'));
    const file = path.join(dir, 'USDCNY.csv');
    writeFileSync(file, 'Date,Close\n2025-02-14,7.295\n');
    await loadFile(env.deps, prices, file, { ticker: 'USDCNY Curncy' });
    const [, converted] = await pe();
    // 124.73 / (62.9588 / 7.295)
    expect(converted.values.BEST_PE_RATIO).toBe(14.452393);
  });
});
