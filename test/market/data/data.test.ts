// /v1/data on stored quotes and bars: fields by id or mnemonic in any case, [m] aliases, minor units,
// computed volatility and beta, per-field errors, units and limits.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../../src/ingest/run.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { bearer, marketKey, type TestEnv, testEnv } from '../../helpers/env.js';
import { asset } from '../../helpers/real-data.js';

const FIXTURES = path.resolve('test/fixtures/market');

describe('/v1/data', () => {
  let env: TestEnv;
  let key: string;
  beforeAll(async () => {
    env = await testEnv();
    const yahoo = LOADERS.yahoo as NonNullable<typeof LOADERS.yahoo>;
    const prices = LOADERS.prices as NonNullable<typeof LOADERS.prices>;
    await loadFile(env.deps, yahoo, path.join(FIXTURES, 'quote-AAPL.json'));
    await loadFile(env.deps, yahoo, path.join(FIXTURES, 'quote-OCDO.L.json'));
    await loadFile(env.deps, prices, path.join(FIXTURES, 'AAPL.csv'), { ticker: 'AAPL' });
    await loadFile(env.deps, prices, path.join(FIXTURES, 'SPX.csv'), { ticker: 'SPX Index' });
    // Barclays: daily bars only, no recorded quote.
    await loadFile(env.deps, prices, asset('market/Imman-dot-quant-pairs-trading/BARC.L.csv'));
    key = await marketKey(env.deps);
  });
  afterAll(() => env.close());
  const get = (query: string) =>
    env.app.inject({ method: 'GET', url: `/v1/data?${query}`, headers: bearer(key) });

  it('quote fields by id or mnemonic, keyed as sent; 1 unit per 20 tickers when all come from the quote', async () => {
    const res = await get('tickers=AAPL&fields=PX_LAST,px_close_1d,CUR_MKT_CAP,NAME,currency');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-service-units']).toBe('1');
    const body = res.json();
    expect(body.items[0]).toMatchObject({
      status: 'ok',
      values: {
        PX_LAST: 244.6,
        px_close_1d: 241.53,
        CUR_MKT_CAP: 3674405863424,
        NAME: 'Apple Inc.',
        currency: 'USD',
      },
    });
    expect(body.fields[1]).toEqual({
      input: 'px_close_1d',
      id: 'previousClose',
      alias: 'PX_CLOSE_1D',
      unit: 'price currency',
    });
  });

  it('[m] aliases return millions; the id returns full units', async () => {
    const { items, fields } = (await get('tickers=AAPL&fields=EQY_SH_OUT,sharesOutstanding')).json();
    // Yahoo: 15,022,100,480 shares outstanding.
    expect(items[0].values).toEqual({ EQY_SH_OUT: 15022.10048, sharesOutstanding: 15022100480 });
    expect(fields[0].unit).toBe('shares, millions');
  });

  it('minor units for terminal London, with market cap in pounds listed under currencies', async () => {
    const { items } = (
      await get('tickers=OCDO%20LN%20Equity,OCDO.L&fields=PX_LAST,CUR_MKT_CAP,CRNCY')
    ).json();
    expect(items[0].values).toEqual({ PX_LAST: 308.8, CUR_MKT_CAP: 2554603520, CRNCY: 'GBP' });
    expect(items[0].currencies).toEqual({ CUR_MKT_CAP: 'GBP' });
    expect(items[1].values).toMatchObject({ PX_LAST: 3.088 });
    expect(items[1].currencies).toBeUndefined();
  });

  it('CRNCY is the main unit’s ISO code in every form: a quote recorded in pence and bars alone agree', async () => {
    const { items } = (
      await get('tickers=OCDO%20LN%20Equity,OCDO.L,BARC%20LN%20Equity,BARC.L,AAPL&fields=CRNCY')
    ).json();
    expect(items.map((i: { values: { CRNCY: string } }) => i.values.CRNCY)).toEqual([
      'GBP',
      'GBP',
      'GBP',
      'GBP',
      'USD',
    ]);
    // The price currency of the answer is in `resolved`: pence under the terminal form.
    expect(items[2].resolved.currency).toBe('GBp');
  });

  it('a ticker nothing is held for is not found: no currency or name is made up for it', async () => {
    const { items } = (await get('tickers=NOPE123,AAPL&fields=CRNCY,NAME,PX_LAST')).json();
    expect(items[0]).toMatchObject({ input: 'NOPE123', status: 'error', error: { code: 'not_found' } });
    expect(items[0].values).toBeUndefined();
    expect(items[1]).toMatchObject({ status: 'ok', values: { CRNCY: 'USD', NAME: 'Apple Inc.' } });
  });

  it('volatility from stored closes; beta against the S&P 500 for a US listing', async () => {
    const res = await get('tickers=AAPL&fields=VOLATILITY_10D,betaRaw,EQY_BETA,volatility260d');
    expect(res.headers['x-service-units']).toBe('1');
    const { values } = res.json().items[0];
    // Sample standard deviation of the last 10 daily log returns to 2023-08-28, x sqrt(260), in percent.
    expect(values.VOLATILITY_10D).toBeCloseTo(23.4547, 3);
    // Recomputed apart from the service, from the same two CSV files: the last close of each ISO week common to
    // both, the last 104 simple weekly returns, the least-squares slope of AAPL's on the index's: 1.238502;
    // adjusted 0.67 x 1.238502 + 0.33 = 1.159797. The last 260 daily log returns: 29.0492 % a year.
    expect(values.betaRaw).toBeCloseTo(1.238502, 5);
    expect(values.EQY_BETA).toBeCloseTo(1.159797, 5);
    expect(values.volatility260d).toBeCloseTo(29.0492, 3);
  });

  it('fields that do not apply or have no value are null with an error; the item is partial', async () => {
    const { items } = (
      await get('tickers=SPX%20Index,OCDO%20LN%20Equity&fields=price,trailingPE,ID_ISIN,betaRaw,nosuch')
    ).json();
    expect(items[0]).toMatchObject({ status: 'partial', values: { trailingPE: null, ID_ISIN: null } });
    expect(items[0].values.price).toBe(4433.310059); // the last stored close, 2023-08-28
    expect(items[0].errors.trailingPE.code).toBe('not_applicable');
    expect(items[0].errors.ID_ISIN).toEqual({
      code: 'not_applicable',
      message: 'ID_ISIN: no open source licenses ISINs: use ID_BB_GLOBAL (FIGI)',
    });
    expect(items[0].errors.nosuch.code).toBe('not_found');
    expect(items[1].errors.betaRaw).toEqual({
      code: 'not_applicable',
      message: 'betaRaw is served for US listings only',
    });
  });

  it('limits: 50 tickers, 25 fields; other fields cost 1 unit per 5 tickers', async () => {
    const tickers = Array.from({ length: 51 }, (_, i) => `T${i}`);
    const tooMany = await env.app.inject({
      method: 'POST',
      url: '/v1/data',
      headers: bearer(key),
      payload: { tickers, fields: ['price'] },
    });
    expect(tooMany.json().message).toMatch(/up to 50 tickers/);
    const fields = Array.from({ length: 26 }, (_, i) => `f${i}`);
    const tooWide = await env.app.inject({
      method: 'POST',
      url: '/v1/data',
      headers: bearer(key),
      payload: { tickers: ['AAPL'], fields },
    });
    expect(tooWide.json().message).toMatch(/up to 25 fields/);
    const ten = await env.app.inject({
      method: 'POST',
      url: '/v1/data',
      headers: bearer(key),
      payload: { tickers: tickers.slice(0, 10), fields: ['price', 'trailingPE'] },
    });
    expect(ten.statusCode).toBe(200);
    expect(ten.headers['x-service-units']).toBe('2');
  });
});
