// Statements from the live upstreams: a US listing's from SEC EDGAR (company_tickers.json for its CIK, then its
// company facts), paced to at most ten requests in any second and naming the operator; a listing EDGAR has no
// facts for from Yahoo's fundamentals time series. Both replayed from their recorded real answers by local
// stand-ins; what an operator loaded stays authoritative, and a failing upstream serves the kept copy as stale.
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../../src/ingest/run.js';
import { DATA } from '../../../src/market/data/index.js';
import { HISTORY } from '../../../src/market/history/index.js';
import { instrumentOf } from '../../../src/market/instrument/instrument.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { MockAgency } from '../../helpers/agency.js';
import { type TestEnv, testEnv } from '../../helpers/env.js';
import { asset } from '../../helpers/real-data.js';
import { MockYahoo } from '../../helpers/yahoo.js';

const FACTS = asset('sec/companyfacts');

describe('statements from SEC EDGAR and Yahoo (recorded answers)', () => {
  let yahoo: MockYahoo;
  let sec: MockAgency;
  let env: TestEnv;
  // The recordings' day, running by the monotonic clock (EDGAR's pacing waits real time), moved by a test that
  // lets two days pass.
  const START = Date.parse('2026-11-24T15:00:00Z');
  const started = performance.now();
  let offsetMs = 0;
  const open = (extra: Record<string, string> = {}) =>
    testEnv({
      clock: () => new Date(START + (performance.now() - started) + offsetMs),
      env: { ...yahoo.env(), QUARRY_CONTACT: 'ops@quarry.example', QUARRY_SEC_URL: sec.url, ...extra },
    });
  const value = async (ticker: string, field: string) => {
    const item = JSON.parse(
      JSON.stringify((await DATA.run(env.deps, { tickers: [ticker], fields: [field] })).items[0]),
    );
    return item as {
      values: Record<string, number | null>;
      asOf?: Record<string, string>;
      stale?: boolean;
      source?: string;
      sources?: Record<string, string>;
    };
  };
  const secPaths = () => sec.requests.map((r) => r.path);

  beforeAll(async () => {
    yahoo = await new MockYahoo().start();
    sec = await new MockAgency().start();
    sec.serve('/files/company_tickers.json', asset('sec/company_tickers.json'));
    sec.serve('/api/xbrl/companyfacts/CIK0001045810.json', path.join(FACTS, 'CIK0001045810.json'));
    sec.serve('/api/xbrl/companyfacts/CIK0000320193.json', path.join(FACTS, 'CIK0000320193.json'));
  });
  afterEach(async () => {
    await env?.close();
    sec.requests.length = 0;
    yahoo.reset();
    offsetMs = 0;
  });
  afterAll(async () => {
    await yahoo.stop();
    await sec.stop();
  });

  it("reads a US listing's statements from its filings, naming the operator, and keeps them a day", async () => {
    env = await open();
    // NVIDIA's fiscal 2026 revenue as its 10-K (filed 2026-02-25) states it: 215,938 million.
    const nvda = await value('NVDA', 'SALES_REV_TURN');
    expect(nvda.values.SALES_REV_TURN).toBe(215938);
    expect(nvda.asOf?.SALES_REV_TURN).toBe('2026-02-25');
    // No quote of NVIDIA is held or recorded: the item's values are the filings'.
    expect(nvda.source).toBe('edgar');
    expect(nvda.sources).toBeUndefined();
    expect(secPaths()).toEqual(['/files/company_tickers.json', '/api/xbrl/companyfacts/CIK0001045810.json']);
    expect(
      sec.requests.every((r) => r.headers['user-agent'] === 'Quarry data collector (ops@quarry.example)'),
    ).toBe(true);
    // The fourth quarter derived from one concept's year and quarters: 68,127 million.
    const history = await HISTORY.run(env.deps, {
      tickers: ['NVDA'],
      fields: ['SALES_REV_TURN'],
      period: 'quarterly',
      start: '2025-11-01',
      end: '2026-02-01',
    });
    expect(JSON.parse(JSON.stringify(history.items[0])).rows).toEqual([
      { date: '2026-01-25', SALES_REV_TURN: 68127 },
    ]);
    expect(history.items[0]).toMatchObject({ source: 'edgar' });
    expect(secPaths()).toHaveLength(2);
    expect(yahoo.dataCalls('/ws/fundamentals-timeseries')).toHaveLength(0);
  });

  it('falls back to Yahoo where EDGAR has no facts, and to Yahoo alone without a contact', async () => {
    env = await open();
    // EDGAR knows GOOG's CIK but the stand-in has no facts for it (404): Yahoo's series give Alphabet's
    // fourth quarter of 2023, 86,310 million as published.
    const goog = await HISTORY.run(env.deps, {
      tickers: ['GOOG'],
      fields: ['SALES_REV_TURN'],
      period: 'quarterly',
      start: '2023-10-01',
      end: '2023-12-31',
    });
    expect(JSON.parse(JSON.stringify(goog.items[0])).rows).toEqual([
      { date: '2023-12-31', SALES_REV_TURN: 86310 },
    ]);
    expect(goog.items[0]).toMatchObject({ source: 'yahoo' });
    expect(secPaths()).toEqual(['/files/company_tickers.json', '/api/xbrl/companyfacts/CIK0001652044.json']);
    expect(yahoo.dataCalls('/ws/fundamentals-timeseries/v1/finance/timeseries/GOOG')).toHaveLength(1);
    await env.close();
    sec.requests.length = 0;
    env = await open({ QUARRY_CONTACT: '' });
    // Yahoo's recordings hold nothing of NVIDIA: no quote, bars or statements, so the item is not found.
    const nvda = await value('NVDA', 'SALES_REV_TURN');
    expect(nvda).toMatchObject({ status: 'error', error: { code: 'not_found' } });
    expect(secPaths()).toEqual([]);
    expect(yahoo.dataCalls('/ws/fundamentals-timeseries/v1/finance/timeseries/NVDA')).toHaveLength(1);
  });

  it('keeps statements an operator loaded authoritative: no upstream call for them', async () => {
    env = await open();
    const secFacts = LOADERS['sec-facts'] as NonNullable<(typeof LOADERS)['sec-facts']>;
    await loadFile(env.deps, secFacts, path.join(FACTS, 'CIK0000320193.json'), { ticker: 'AAPL' });
    // Apple's fiscal 2025 revenue, 416,161 million, from the file loaded (the quote is the upstream's).
    const apple = await value('AAPL', 'SALES_REV_TURN');
    expect(apple.values.SALES_REV_TURN).toBe(416161);
    expect(apple.sources?.SALES_REV_TURN ?? apple.source).toBe('stored');
    expect(secPaths()).toEqual([]);
    expect(yahoo.dataCalls('/ws/fundamentals-timeseries')).toHaveLength(0);
  });

  it('serves the kept copy marked stale while EDGAR fails', async () => {
    env = await open();
    expect((await value('NVDA', 'SALES_REV_TURN')).stale).toBeUndefined();
    offsetMs = 2 * 86_400_000;
    sec.fail('/api/xbrl/companyfacts/CIK0001045810.json', 500);
    const again = await value('NVDA', 'SALES_REV_TURN');
    expect(again).toMatchObject({ values: { SALES_REV_TURN: 215938 }, stale: true });
    // Three tries of the failing document, each paced.
    expect(sec.requests.filter((r) => r.status === 500)).toHaveLength(3);
    sec.fail('/api/xbrl/companyfacts/CIK0001045810.json', null);
  });

  it("EDGAR's 429 pauses it: another listing's statements are not asked of it meanwhile, and /metrics says so", async () => {
    env = await open();
    sec.fail('/api/xbrl/companyfacts/CIK0001045810.json', 429);
    // NVIDIA's facts answer 429: nothing from EDGAR, and Yahoo's recordings hold no NVIDIA statements.
    expect(await value('NVDA', 'SALES_REV_TURN')).toMatchObject({ status: 'error' });
    sec.fail('/api/xbrl/companyfacts/CIK0001045810.json', null);
    const asked = sec.requests.length;
    // Within the minute EDGAR's 429 pauses it for (it sent no Retry-After): Apple's statements go to Yahoo.
    offsetMs = 30_000;
    await value('AAPL', 'SALES_REV_TURN');
    expect(sec.requests.length).toBe(asked);
    expect(yahoo.dataCalls('/ws/fundamentals-timeseries/v1/finance/timeseries/AAPL')).toHaveLength(1);
    const metrics = (await env.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(/quarry_upstream_calls_total\{upstream="edgar",outcome="too_many"\} [1-9]/);
    expect(metrics).toMatch(/quarry_upstream_calls_total\{upstream="edgar",outcome="paused"\} [1-9]/);
    // Past the pause, EDGAR is asked again.
    offsetMs = 61_000;
    await value('MSFT', 'SALES_REV_TURN');
    expect(sec.requests.length).toBeGreaterThan(asked);
  });

  it('sends EDGAR at most ten requests in any second, however many statements are asked at once', async () => {
    env = await open();
    const tickers = ['NVDA', 'AAPL', 'MSFT', 'AMZN', 'META', 'TSLA', 'JPM', 'XOM', 'WMT', 'UNH', 'MA', 'PG'];
    const more = ['JNJ', 'COST', 'HD', 'MRK', 'ORCL', 'CVX', 'BAC', 'KO', 'CRM', 'NFLX', 'AMD', 'PEP'];
    await Promise.all([...tickers, ...more].map((t) => env.deps.market.statements(instrumentOf(t))));
    const times = sec.requests.map((r) => r.at).sort((a, b) => a - b);
    expect(times).toHaveLength(25);
    const busiest = Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + 1000).length));
    expect(busiest).toBeLessThanOrEqual(10);
    // Twenty-five requests at ten a second take at least 2.4 s from the first to the last.
    expect((times.at(-1) as number) - (times[0] as number)).toBeGreaterThanOrEqual(2300);
  }, 20_000);
});
