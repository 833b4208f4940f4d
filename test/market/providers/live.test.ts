// The live upstream: Yahoo Finance replayed from its recorded real responses by a local stand-in. The crumb and
// cookie flow, quote batching, the shared cache, single-flight, retries, the 429 breaker, deadlines with the
// retry read from cache, bars extended incrementally, and operator-loaded data staying authoritative.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadFile } from '../../../src/ingest/run.js';
import { ACTIONS } from '../../../src/market/actions/index.js';
import { DATA } from '../../../src/market/data/index.js';
import { HISTORY } from '../../../src/market/history/index.js';
import { QUOTES } from '../../../src/market/quotes/index.js';
import { SHORT_INTEREST } from '../../../src/market/short-interest/index.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { bearer, marketKey, type TestEnv, testEnv } from '../../helpers/env.js';
import { MockYahoo, YAHOO_DIR } from '../../helpers/yahoo.js';

const recorded = (file: string) =>
  (JSON.parse(readFileSync(path.join(YAHOO_DIR, file), 'utf8')) as { response: { bodyJson: never } }).response
    .bodyJson;
const recordedQuote = (file: string, symbol: string) =>
  (recorded(file) as { quoteResponse: { result: Record<string, number>[] } }).quoteResponse.result.find(
    (r) => (r.symbol as unknown as string) === symbol,
  ) as Record<string, number>;

type Item = { status: string; error?: { code: string; message: string } };

describe('market data from the live upstream (recorded Yahoo answers)', () => {
  let yahoo: MockYahoo;
  let env: TestEnv;
  let now = Date.parse('2026-11-24T15:00:00Z');
  const open = async (extra: Record<string, string> = {}) =>
    testEnv({
      clock: () => new Date(now),
      env: {
        ...yahoo.env(),
        QUARRY_MARKET_DEADLINE_MS: '3000',
        QUARRY_UPSTREAM_TIMEOUT_MS: '5000',
        ...extra,
      },
    });

  beforeAll(async () => {
    yahoo = await new MockYahoo().start();
  });
  afterAll(async () => {
    await yahoo.stop();
  });
  beforeEach(async () => {
    yahoo.reset();
    now = Date.parse('2026-11-24T15:00:00Z');
    env = await open();
  });
  afterEach(async () => {
    await env.close();
  });

  it('gets a crumb through the cookie page, batches the quotes of one request, and answers each form', async () => {
    const answer = await QUOTES.run(env.deps, { tickers: ['AAPL', 'OCDO LN Equity', 'BTC-USD', 'NOPE.L'] });
    const [aapl, ocado, btc, nope] = answer.items as Item[];
    const apple = recordedQuote('quote/quote-AAPL.json', 'AAPL');
    expect(aapl).toMatchObject({ status: 'ok', quote: { price: apple.regularMarketPrice, currency: 'USD' } });
    // The terminal form answers London in pence, as Yahoo's own GBp price is.
    const ocadoQuote = recordedQuote('quote/quote-OCDO.L.json', 'OCDO.L');
    expect(ocado).toMatchObject({
      status: 'ok',
      quote: { price: ocadoQuote.regularMarketPrice, currency: 'GBp' },
    });
    expect(btc).toMatchObject({ status: 'ok' });
    expect(nope).toMatchObject({ status: 'error', error: { code: 'not_found' } });
    expect(nope?.error?.message).toMatch(/quarry ingest prices/);
    const quoteCalls = yahoo.dataCalls('/v7/finance/quote');
    expect(quoteCalls).toHaveLength(1);
    expect(quoteCalls[0]?.query.get('symbols')?.split(',').sort()).toEqual([
      'AAPL',
      'BTC-USD',
      'NOPE.L',
      'OCDO.L',
    ]);
    expect(yahoo.dataCalls('/v1/test/getcrumb')).toHaveLength(1);
    expect(yahoo.dataCalls('/quote/AAPL')).toHaveLength(1);
    // The cookie jar (with its crumb) is kept in the store for the next process.
    const jar = await env.deps.store.db
      .selectFrom('market_cache')
      .select('value')
      .where('key', '=', 'yahoo:cookies')
      .executeTakeFirstOrThrow();
    expect(jar.value).toContain('REDACTEDCRUMB');
  });

  it('asks the upstream once for the quotes of a data request, whatever its fields', async () => {
    const answer = await DATA.run(env.deps, {
      tickers: ['AAPL', 'OCDO LN Equity', 'BTC-USD', 'QQQ'],
      fields: ['PX_LAST', 'NAME', 'VOLATILITY_30D'],
    });
    const prices = (answer.items as { values?: Record<string, unknown> }[]).map((i) => i.values?.PX_LAST);
    expect(prices.every((p) => typeof p === 'number')).toBe(true);
    const quoteCalls = yahoo.dataCalls('/v7/finance/quote');
    expect(quoteCalls).toHaveLength(1);
    expect(quoteCalls[0]?.query.get('symbols')?.split(',').sort()).toEqual([
      'AAPL',
      'BTC-USD',
      'OCDO.L',
      'QQQ',
    ]);
  });

  it('a field the quote lacks is sought once: a repeat while fresh asks nothing', async () => {
    // Yahoo's recorded quote of EURUSD=X has no market cap or P/E: none of its upstreams has them.
    const ask = () =>
      DATA.run(env.deps, { tickers: ['EURUSD=X'], fields: ['PX_LAST', 'CUR_MKT_CAP', 'PE_RATIO'] });
    const first = JSON.parse(JSON.stringify((await ask()).items[0]));
    expect(first.values.PX_LAST).toEqual(expect.any(Number));
    await ask();
    expect(yahoo.dataCalls('/v7/finance/quote')).toHaveLength(1);
  });

  it('answers a repeat from the shared cache, also from another instance on the same store', async () => {
    await QUOTES.run(env.deps, { tickers: ['AAPL', 'QQQ'] });
    await QUOTES.run(env.deps, { tickers: ['AAPL', 'QQQ'] });
    expect(yahoo.dataCalls('/v7/finance/quote')).toHaveLength(1);
    const other = await testEnv({
      clock: () => new Date(now),
      env: { ...yahoo.env(), QUARRY_DATA_DIR: env.dataDir },
    });
    try {
      const again = await QUOTES.run(other.deps, { tickers: ['QQQ'] });
      expect(again.items[0]).toMatchObject({ status: 'ok' });
      expect(yahoo.dataCalls('/v7/finance/quote')).toHaveLength(1);
    } finally {
      await other.deps.close();
      await other.app.close();
    }
    // The recorded quote says its market is closed: it stays fresh until the next opening, Wednesday 09:30
    // New York, and is asked for again then.
    now = Date.parse('2026-11-25T14:29:00Z');
    await QUOTES.run(env.deps, { tickers: ['AAPL'] });
    expect(yahoo.dataCalls('/v7/finance/quote')).toHaveLength(1);
    now = Date.parse('2026-11-25T14:31:00Z');
    await QUOTES.run(env.deps, { tickers: ['AAPL'] });
    expect(yahoo.dataCalls('/v7/finance/quote')).toHaveLength(2);
  });

  it('keeps the answer for a symbol the upstream does not know for the configured while', async () => {
    await QUOTES.run(env.deps, { tickers: ['NOPE.L'] });
    now += 14 * 60_000;
    await QUOTES.run(env.deps, { tickers: ['NOPE.L'] });
    expect(yahoo.dataCalls('/v7/finance/quote')).toHaveLength(1);
    now += 2 * 60_000;
    await QUOTES.run(env.deps, { tickers: ['NOPE.L'] });
    expect(yahoo.dataCalls('/v7/finance/quote')).toHaveLength(2);
  });

  it('makes one upstream call for 100 concurrent requests of an uncached symbol', async () => {
    yahoo.delayMs = 50;
    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        DATA.run(env.deps, { tickers: ['TSLA'], fields: ['PX_LAST', 'volatility30d'] }),
      ),
    );
    // The stand-in knows no TSLA quote or bars: every answer is the same not_found, none a timeout.
    expect(
      answers.every(
        (a) => (a.items[0] as { error?: { code: string } } | undefined)?.error?.code === 'not_found',
      ),
    ).toBe(true);
    expect(yahoo.dataCalls('/v7/finance/quote')).toHaveLength(1);
    expect(yahoo.dataCalls('/v8/finance/chart/TSLA')).toHaveLength(1);
  });

  it('retries a 500 and then answers', async () => {
    yahoo.fail('/v7/finance/quote', 500, 1);
    const answer = await QUOTES.run(env.deps, { tickers: ['QQQ'] });
    expect(answer.items[0]).toMatchObject({ status: 'ok' });
    expect(yahoo.dataCalls('/v7/finance/quote').map((c) => c.status)).toEqual([500, 200]);
  });

  it('opens the breaker on 429 for its Retry-After, serving what is held marked stale', async () => {
    await QUOTES.run(env.deps, { tickers: ['GC=F'] });
    now += 16 * 60_000;
    yahoo.fail('/v7/finance/quote', 429, 1, { 'retry-after': '120' });
    const stale = await QUOTES.run(env.deps, { tickers: ['GC=F', 'LDO.MI'] });
    expect(stale.items[0]).toMatchObject({ status: 'ok', quote: { stale: true } });
    expect(stale.items[1]).toMatchObject({ status: 'error' });
    const calls = yahoo.dataCalls('/v7/finance/quote').length;
    // While the breaker is open nothing is sent; after Retry-After, calls go again.
    await QUOTES.run(env.deps, { tickers: ['GC=F'] });
    expect(yahoo.dataCalls('/v7/finance/quote')).toHaveLength(calls);
    now += 121_000;
    const later = await QUOTES.run(env.deps, { tickers: ['LDO.MI'] });
    expect(yahoo.dataCalls('/v7/finance/quote')).toHaveLength(calls + 1);
    expect(later.items[0]).toMatchObject({ status: 'ok', quote: { currency: 'EUR' } });
  });

  it('a 429 pauses Yahoo for every instance on the store, not only the one it answered', async () => {
    yahoo.fail('/v7/finance/quote', 429, 1, { 'retry-after': '120' });
    await QUOTES.run(env.deps, { tickers: ['LDO.MI'] });
    const calls = yahoo.dataCalls('/v7/finance/quote').length;
    const other = await testEnv({
      clock: () => new Date(now),
      env: { ...yahoo.env(), QUARRY_DATA_DIR: env.dataDir },
    });
    try {
      // Another process on the same store learns of the pause from it: it sends nothing until it ends.
      const paused = await QUOTES.run(other.deps, { tickers: ['LDO.MI'] });
      expect(paused.items[0]).toMatchObject({ status: 'error' });
      expect(yahoo.dataCalls('/v7/finance/quote')).toHaveLength(calls);
      now += 121_000;
      const later = await QUOTES.run(other.deps, { tickers: ['LDO.MI'] });
      expect(later.items[0]).toMatchObject({ status: 'ok' });
      expect(yahoo.dataCalls('/v7/finance/quote')).toHaveLength(calls + 1);
    } finally {
      await other.deps.close();
      await other.app.close();
    }
  });

  it('answers timeout past the deadline, and the retry reads what the fetch left in the cache', async () => {
    await env.close();
    env = await open({ QUARRY_MARKET_DEADLINE_MS: '200' });
    // The upstream answers only when released: the deadline passes first on any machine.
    const release = yahoo.hold();
    const first = await DATA.run(env.deps, { tickers: ['EURUSD=X'], fields: ['PX_LAST'] });
    expect(first.items[0]).toMatchObject({ status: 'error', error: { code: 'timeout' } });
    const cached = () =>
      env.deps.store.db.selectFrom('market_cache').select('key').where('key', 'like', '%EURUSD=X%').execute();
    expect(await cached()).toEqual([]);
    const answered = yahoo.answers(1);
    release();
    await answered;
    // The fetch goes on after the answer: it writes what it got to the cache, which the retry reads.
    for (let i = 0; i < 500 && (await cached()).length === 0; i += 1)
      await new Promise((r) => setImmediate(r));
    const calls = yahoo.calls.length;
    const retry = await DATA.run(env.deps, { tickers: ['EURUSD=X'], fields: ['PX_LAST'] });
    const eur = recordedQuote('quote/quote-EURUSD=X.json', 'EURUSD=X');
    expect(retry.items[0]).toMatchObject({ status: 'ok', values: { PX_LAST: eur.regularMarketPrice } });
    expect(yahoo.calls.length).toBe(calls);
    // Each value says how old it is.
    expect((retry.items[0] as { asOf: Record<string, string> }).asOf.PX_LAST).toBe(
      new Date((eur.regularMarketTime as number) * 1000).toISOString(),
    );
  });

  it('serves daily bars from the upstream, extends them from the last held day, and says what range is held', async () => {
    const answer = await HISTORY.run(env.deps, {
      tickers: ['TSLA'],
      fields: ['PX_LAST'],
      start: '2023-08-01',
      end: '2023-09-30',
    });
    const item = answer.items[0] as unknown as { rows: unknown; held: unknown };
    const rows = JSON.parse(JSON.stringify(item.rows)) as { date: string; PX_LAST: number }[];
    // The recording's last bar: 2023-08-11, close 242.65 as Yahoo published it.
    expect(rows.at(-1)).toEqual({ date: '2023-08-11', PX_LAST: 242.65 });
    expect(item.held).toEqual({ start: '2023-08-01', end: '2023-08-11' });
    const first = yahoo.dataCalls('/v8/finance/chart/TSLA');
    expect(first).toHaveLength(1);
    expect(Number(first[0]?.query.get('period1'))).toBe(Date.parse('2006-11-24T00:00:00Z') / 1000);
    now += 16 * 60_000;
    await HISTORY.run(env.deps, {
      tickers: ['TSLA'],
      fields: ['PX_LAST'],
      start: '2023-08-01',
      end: '2023-09-30',
    });
    const calls = yahoo.dataCalls('/v8/finance/chart/TSLA');
    expect(calls).toHaveLength(2);
    expect(Number(calls[1]?.query.get('period1'))).toBe(Date.parse('2023-08-01T00:00:00Z') / 1000);
  });

  it('reads bars as deep as the fields asked need, and the whole history once a history asks for it', async () => {
    const period1s = () =>
      yahoo
        .dataCalls('/v8/finance/chart/NVDA')
        .map((c) => new Date(Number(c.query.get('period1')) * 1000).toISOString().slice(0, 10));
    // 31 closes: 44 calendar days and a month for holidays, 75 days before 2026-11-24.
    await DATA.run(env.deps, { tickers: ['NVDA'], fields: ['VOLATILITY_30D'] });
    expect(period1s()).toEqual(['2026-09-10']);
    // Beta's 105 weeks: three years.
    await DATA.run(env.deps, { tickers: ['NVDA'], fields: ['BETA_RAW_OVERRIDABLE'] });
    expect(period1s()).toEqual(['2026-09-10', '2023-11-24']);
    const history = await HISTORY.run(env.deps, {
      tickers: ['NVDA'],
      fields: ['PX_LAST'],
      start: '2021-06-01',
      end: '2021-06-04',
    });
    // Four trading days of the recorded chart (2021-02-01 to 2022-01-31).
    expect(JSON.parse(JSON.stringify(history.items[0])).rows).toHaveLength(4);
    expect(period1s()).toEqual(['2026-09-10', '2023-11-24', '2006-11-24']);
    // The whole history now held serves computed fields too: no further call.
    await DATA.run(env.deps, { tickers: ['NVDA'], fields: ['VOLATILITY_30D', 'BETA_RAW_OVERRIDABLE'] });
    expect(period1s()).toHaveLength(3);
  });

  it('fetches corporate actions with the bars, each known from the fetch that first brought it', async () => {
    const chart = recorded('chart/historical-via-chart-MSFT-dividends-2021-02-01-to-2022-01-31.csv.json') as {
      chart: { result: { events: { dividends: Record<string, { amount: number }> } }[] };
    };
    const amounts = Object.values(chart.chart.result[0]?.events.dividends ?? {}).map((d) => d.amount);
    const first = await ACTIONS.run(env.deps, { tickers: ['MSFT'] });
    const fetchedAt = new Date(now).toISOString();
    const item = first.items[0];
    expect(item).toMatchObject({ status: 'ok', currency: 'USD', asOf: fetchedAt });
    expect(item?.actions?.map((a) => a.amount)).toEqual(amounts);
    expect(item?.actions?.map((a) => a.knownAt)).toEqual(amounts.map(() => fetchedAt));
    expect(yahoo.dataCalls('/v8/finance/chart/MSFT')).toHaveLength(1);
    // Past the bars' freshness the last days are asked again; the actions held keep their time.
    now += 16 * 60_000;
    const again = await ACTIONS.run(env.deps, { tickers: ['MSFT'] });
    expect(yahoo.dataCalls('/v8/finance/chart/MSFT')).toHaveLength(2);
    expect(again.items[0]?.actions?.map((a) => a.knownAt)).toEqual(amounts.map(() => fetchedAt));
    // History with dividends reinvested reads the same actions: no further call.
    const total = await HISTORY.run(env.deps, {
      tickers: ['MSFT'],
      fields: ['PX_LAST', 'TOT_RETURN_INDEX_GROSS_DVDS'],
      start: '2021-02-01',
      end: '2021-02-05',
    });
    const rows = JSON.parse(JSON.stringify(total.items[0])).rows as Record<string, number>[];
    expect(rows).toHaveLength(5);
    expect(rows[0]?.TOT_RETURN_INDEX_GROSS_DVDS).toBeLessThan(rows[0]?.PX_LAST as number);
    expect(yahoo.dataCalls('/v8/finance/chart/MSFT')).toHaveLength(2);
  });

  it('keeps bars an operator loaded authoritative for their symbol', async () => {
    await loadFile(
      env.deps,
      LOADERS.prices as NonNullable<typeof LOADERS.prices>,
      path.resolve('test/fixtures/market/AAPL.csv'),
      { ticker: 'AAPL' },
    );
    const answer = await HISTORY.run(env.deps, {
      tickers: ['AAPL'],
      fields: ['PX_LAST'],
      start: '2021-01-01',
      end: '2021-12-31',
    });
    expect(answer.items[0]).toMatchObject({ status: 'ok' });
    expect(yahoo.dataCalls('/v8/finance/chart')).toHaveLength(0);
  });

  it('reads short interest from the summary of a symbol the store does not hold', async () => {
    const answer = await SHORT_INTEREST.run(env.deps, { tickers: ['AAPL'] });
    const stats = (
      recorded('quoteSummary/quoteSummary-defaultKeyStatistics-AAPL.json') as {
        quoteSummary: { result: { defaultKeyStatistics: Record<string, number> }[] };
      }
    ).quoteSummary.result[0]?.defaultKeyStatistics as Record<string, number>;
    expect(answer.items[0]).toMatchObject({ status: 'ok' });
    expect(JSON.stringify(answer.items[0])).toContain(String(stats.sharesShort));
  });

  it('finds instruments by symbol or name, stored ones first, each in the three forms', async () => {
    await loadFile(
      env.deps,
      LOADERS.yahoo as NonNullable<typeof LOADERS.yahoo>,
      path.join(YAHOO_DIR, 'quote/quote-AAPL.json'),
    );
    const key = await marketKey(env.deps);
    const res = await env.app.inject({ method: 'GET', url: '/v1/search?q=AAPL', headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-service-units']).toBe('1');
    const items = res.json().items as { symbol: string; source: string; forms: object }[];
    expect(items[0]).toMatchObject({
      symbol: 'AAPL',
      name: 'Apple Inc.',
      source: 'stored',
      forms: { service: 'AAPL', suffix: 'AAPL', terminal: 'AAPL US Equity' },
    });
    // The rest come from Yahoo's recorded search answer, each once; its options are not instruments served here.
    const answered = (
      recorded('search/search-AAPL.json') as { quotes: { symbol?: string; quoteType?: string }[] }
    ).quotes;
    expect(answered.filter((q) => q.quoteType === 'OPTION')).toHaveLength(4);
    expect(items.map((i) => [i.symbol, i.source])).toEqual([
      ['AAPL', 'stored'],
      ['AAPU', 'yahoo'],
    ]);
    const london = await env.app.inject({ method: 'GET', url: '/v1/search?q=OCDO.L', headers: bearer(key) });
    expect(london.json().items[0]).toMatchObject({
      symbol: 'OCDO.L',
      forms: { service: 'OCDO:XLON', suffix: 'OCDO.L', terminal: 'OCDO LN Equity' },
    });
    for (const bad of ['/v1/search', '/v1/search?q=', `/v1/search?q=${'x'.repeat(101)}`]) {
      const refused = await env.app.inject({ method: 'GET', url: bad, headers: bearer(key) });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toBe('invalid_params');
    }
  });
});
