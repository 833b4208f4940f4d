// Recorded Yahoo answers that are not whole quotes: an error answer is reported as that symbol's error; a
// partial quote (asked with `fields=`, no currency) adds facts and never overwrites what is held with a
// default; a symbol Yahoo does not know is named.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../../src/ingest/run.js';
import { DATA } from '../../../src/market/data/index.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { type TestEnv, testEnv } from '../../helpers/env.js';
import { YAHOO_DIR } from '../../helpers/yahoo.js';

const yahoo = LOADERS.yahoo as NonNullable<typeof LOADERS.yahoo>;
const recording = (file: string) => path.join(YAHOO_DIR, file);

describe('partial and error answers from Yahoo', () => {
  let env: TestEnv;
  const load = (file: string) => loadFile(env.deps, yahoo, file);
  const item = async (ticker: string, fields: string[]) =>
    JSON.parse(JSON.stringify((await DATA.run(env.deps, { tickers: [ticker], fields })).items[0]));
  beforeAll(async () => {
    env = await testEnv();
  });
  afterAll(() => env.close());

  it('reports a recorded error answer as the error of the symbol asked for', async () => {
    await expect(
      load(recording('quoteSummary/quoteSummary-defaultKeyStatistics-EURUSD=X.json')),
    ).rejects.toThrow(
      'quoteSummary-defaultKeyStatistics-EURUSD=X.json: a Yahoo quoteSummary error response for EURUSD=X (HTTP 404 Not Found): Not Found: No fundamentals data found for any of the summaryTypes=defaultKeyStatistics',
    );
  });

  it('keeps a partial quote as facts: no price read in an assumed currency, no name made up', async () => {
    const report = await load(recording('quote/quote-MSFT-fields-beta.json'));
    expect(report.notes).toEqual([
      'MSFT: a partial quote that does not say its currency; price not kept; its name, currency and exchange left as held',
    ]);
    const msft = await item('MSFT', ['PX_LAST', 'CRNCY']);
    // The currency is the listing's (a US symbol), not one assumed for the answer's price.
    expect(msft.values).toEqual({ PX_LAST: null, CRNCY: 'USD' });
  });

  it('a partial answer for a London listing leaves its pence, pounds and name as held', async () => {
    await load(recording('quote/quote-OCDO.L.json'));
    const before = await item('OCDO.L', ['PX_LAST', 'CUR_MKT_CAP', 'CRNCY', 'NAME']);
    expect(before.values).toMatchObject({ PX_LAST: 3.088, CRNCY: 'GBP', NAME: 'Ocado Group plc' });
    // The same real answer as a `fields=` request returns it: no currency, no names, an hour later.
    const full = JSON.parse(readFileSync(recording('quote/quote-OCDO.L.json'), 'utf8'));
    const [r] = full.response.bodyJson.quoteResponse.result;
    const partial = {
      symbol: r.symbol,
      quoteType: r.quoteType,
      marketState: 'CLOSED',
      regularMarketPrice: r.regularMarketPrice,
      regularMarketTime: r.regularMarketTime + 3600,
    };
    full.response.bodyJson.quoteResponse.result = [partial];
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'quarry-yahoo-')), 'quote-OCDO.L-fields.json');
    writeFileSync(file, JSON.stringify(full));
    await load(file);
    const after = await item('OCDO.L', ['PX_LAST', 'CUR_MKT_CAP', 'CRNCY', 'NAME']);
    expect(after.values).toEqual(before.values);
  });

  it('names a symbol Yahoo answered nothing for', async () => {
    const report = await load(recording('quote/quoteCombine-AAPL-NONEXIST.json'));
    expect(report.inserted + report.revised + report.unchanged).toBe(1);
    expect(report.notes).toEqual(['NONEXIST: Yahoo answered nothing for it (no such symbol)']);
  });
});
