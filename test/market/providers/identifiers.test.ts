// Listings' FIGIs from OpenFIGI's mapping API, replayed from recorded real answers (IBM and Xerox, and a job
// that finds nothing): the listing's own FIGI, its composite and its share class, by the exchange of the form
// asked; jobs of one request batched; answers kept; a failing upstream an error of the field, not of the call.
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Counters } from '../../../src/limits/counters.js';
import { MemoryCounters } from '../../../src/limits/memory.js';
import { RedisCounters } from '../../../src/limits/redis.js';
import { DATA } from '../../../src/market/data/index.js';
import { lookupField } from '../../../src/market/fields/dictionary.js';
import { MarketCache } from '../../../src/market/providers/cache.js';
import { OpenFigi } from '../../../src/market/providers/openfigi.js';
import { redisUrl, type TestEnv, testEnv } from '../../helpers/env.js';
import { cassette, type FigiRow, MockOpenFigi, OPENFIGI_DIR } from '../../helpers/openfigi.js';
import { MockYahoo } from '../../helpers/yahoo.js';

const FIELDS = ['ID_BB_GLOBAL', 'COMPOSITE_ID_BB_GLOBAL', 'ID_BB_GLOBAL_SHARE_CLASS'];

/** The recorded equity row of a ticker on an exchange, read from the cassette here. */
function recorded(ticker: string, exchCode: string): FigiRow {
  const { jobs, answer } = cassette(
    path.join(OPENFIGI_DIR, 'pyopenfigi_mapping_IBM_XRX_rec-2023-04-25.yaml'),
  );
  const entry = answer[jobs.findIndex((j) => j.idValue === ticker)] as { data: FigiRow[] };
  return entry.data.find((r) => r.exchCode === exchCode && r.marketSector === 'Equity') as FigiRow;
}

type Item = {
  input: string;
  status: string;
  values?: Record<string, unknown>;
  errors?: Record<string, { code: string; message: string }>;
};

describe('FIGIs from OpenFIGI (recorded answers)', () => {
  let yahoo: MockYahoo;
  let figi: MockOpenFigi;
  let env: TestEnv;
  const open = (extra: Record<string, string> = {}) =>
    testEnv({
      clock: () => new Date('2026-11-27T15:00:00Z'),
      env: { ...yahoo.env(), ...figi.env(), QUARRY_MARKET_DEADLINE_MS: '3000', ...extra },
    });
  beforeAll(async () => {
    yahoo = await new MockYahoo().start();
    figi = await new MockOpenFigi().start();
  });
  afterAll(async () => {
    await yahoo.stop();
    await figi.stop();
  });
  beforeEach(async () => {
    figi.calls.length = 0;
    figi.failWith = null;
    env = await open();
  });
  afterEach(() => env.close());

  const values = async (tickers: string[], fields = FIELDS) =>
    (await DATA.run(env.deps, { tickers, fields })).items as unknown as Item[];

  it("answers each listing's FIGI, composite and share class, by the exchange of the form asked", async () => {
    const [ibm, ibmXetra, xerox] = await values(['IBM', 'IBM GY Equity', 'XRX']);
    for (const [item, row] of [
      [ibm, recorded('IBM', 'US')],
      [ibmXetra, recorded('IBM', 'GY')],
      [xerox, recorded('XRX', 'US')],
    ] as const) {
      expect(item?.status).toBe('ok');
      expect(item?.values).toEqual({
        ID_BB_GLOBAL: row.figi,
        COMPOSITE_ID_BB_GLOBAL: row.compositeFIGI,
        ID_BB_GLOBAL_SHARE_CLASS: row.shareClassFIGI,
      });
    }
    // As the provenance names them: IBM's US composite BBG000BLNNH6, share class BBG001S5S399 on every venue.
    expect(ibm?.values?.ID_BB_GLOBAL).toBe('BBG000BLNNH6');
    expect(ibmXetra?.values?.ID_BB_GLOBAL_SHARE_CLASS).toBe('BBG001S5S399');
    expect(ibmXetra?.values?.ID_BB_GLOBAL).not.toBe(ibm?.values?.ID_BB_GLOBAL);
    // One mapping request for the three, each job with its exchange.
    expect(figi.calls).toHaveLength(1);
    expect(figi.calls[0]?.jobs).toEqual([
      { idType: 'TICKER', idValue: 'IBM', exchCode: 'US' },
      { idType: 'TICKER', idValue: 'IBM', exchCode: 'GY' },
      { idType: 'TICKER', idValue: 'XRX', exchCode: 'US' },
    ]);
  });

  it('a listing OpenFIGI does not know is not_found on its fields; the others are answered', async () => {
    const [ibm, nope] = await values(['IBM', 'ZZZQ']);
    expect(ibm?.status).toBe('ok');
    expect(nope?.status).toBe('error');
    expect(figi.calls[0]?.jobs.map((j) => j.idValue)).toEqual(['IBM', 'ZZZQ']);
  });

  it('sends ten jobs a request without a key, and keeps the answers a month', async () => {
    const tickers = ['IBM', 'XRX', ...'ABCDEFGHIJ'.split('').map((c) => `ZZ${c}`)];
    await values(tickers, ['ID_BB_GLOBAL']);
    expect(figi.calls.map((c) => c.jobs.length)).toEqual([10, 2]);
    expect(figi.calls.every((c) => c.apiKey === null)).toBe(true);
    const again = await values(['IBM', 'XRX'], ['ID_BB_GLOBAL']);
    expect(again.map((i) => i.values?.ID_BB_GLOBAL)).toEqual(['BBG000BLNNH6', 'BBG00NNG2ZJ8']);
    expect(figi.calls).toHaveLength(2);
  });

  it('with OPENFIGI_API_KEY: the key is sent and a hundred jobs go in one request', async () => {
    await env.close();
    env = await open({ OPENFIGI_API_KEY: 'test-key' });
    const tickers = ['IBM', 'XRX', ...'ABCDEFGHIJKL'.split('').map((c) => `ZZ${c}`)];
    await values(tickers, ['ID_BB_GLOBAL']);
    expect(figi.calls.map((c) => [c.jobs.length, c.apiKey])).toEqual([[14, 'test-key']]);
  });

  it('an upstream that fails is an error of the identifier fields; the item answers its other fields', async () => {
    figi.failWith = 500;
    // Apple's quote comes from the Yahoo stand-in; its FIGI from nowhere.
    const [apple] = await values(['AAPL'], ['ID_BB_GLOBAL', 'NAME']);
    expect(apple?.status).toBe('partial');
    expect(apple?.values?.NAME).toEqual(expect.any(String));
    expect(apple?.errors?.ID_BB_GLOBAL).toEqual({
      code: 'not_found',
      message: 'figi: OpenFIGI could not be reached; ask again later',
    });
  });

  /** An instance's OpenFIGI client on its own counters, all on one store's cache and one moved clock. */
  function instance(counters: Counters, clock: { now: number; waits: number[] }, apiKey: string | null) {
    return new OpenFigi(
      {
        baseUrl: figi.url,
        apiKey,
        timeoutMs: 3000,
        sleep: async (ms) => {
          clock.waits.push(ms);
          clock.now += ms;
        },
      },
      {
        cache: new MarketCache(env.deps.store.db, () => new Date(clock.now)),
        counters,
        clock: () => new Date(clock.now),
      },
    );
  }

  /** The most requests sent in any span of `ms`, from the times they were sent. */
  const busiest = (sent: number[], ms: number) =>
    Math.max(...sent.map((t) => sent.filter((u) => u >= t && u < t + ms).length));

  it('paces its requests to the allowance: no minute holds more than 25, and one past it waits its turn', async () => {
    const clock = { now: Date.parse('2026-11-27T15:00:20Z'), waits: [] as number[] };
    const client = instance(new MemoryCounters(() => clock.now), clock, null);
    const sent: number[] = [];
    // A request every half second for three minutes, across the turn of each minute.
    for (let i = 0; sent.length < 75; i += 1) {
      const before = figi.calls.length;
      await client.identify({ idType: 'TICKER', idValue: `ZZ${i}`, exchCode: 'US' });
      if (figi.calls.length > before) sent.push(clock.now);
      clock.now += 500;
    }
    expect(busiest(sent, 60_000)).toBeLessThanOrEqual(25);
    expect(clock.waits.length).toBeGreaterThan(0);
    // Eleven slots a minute, two requests each: 22 a minute kept up.
    expect(sent.at(-1)! - sent[0]!).toBeLessThan(4 * 60_000);
  });

  describe.runIf(redisUrl() !== null)('across instances (Redis)', () => {
    const opened: RedisCounters[] = [];
    afterAll(async () => {
      for (const counters of opened) await counters.close();
    });
    const redis = (clock: { now: number }) => {
      const counters = new RedisCounters(redisUrl() as string, () => clock.now);
      opened.push(counters);
      return counters;
    };

    it('two instances with one key send no more than 25 in any six seconds together', async () => {
      const clock = { now: Date.parse('2026-11-27T15:00:03Z'), waits: [] as number[] };
      // A key of this run: its allowance is counted apart from any other run's.
      const key = `key-${process.pid}-${Date.now()}`;
      const clients = [instance(redis(clock), clock, key), instance(redis(clock), clock, key)];
      const sent: number[] = [];
      for (let i = 0; sent.length < 60; i += 1) {
        const before = figi.calls.length;
        await clients[i % 2]?.identify({ idType: 'TICKER', idValue: `ZY${i}`, exchCode: 'US' });
        if (figi.calls.length > before) sent.push(clock.now);
        clock.now += 50;
      }
      expect(busiest(sent, 6_000)).toBeLessThanOrEqual(25);
      expect(clock.waits.length).toBeGreaterThan(0);
      expect(figi.calls.at(-1)?.apiKey).toBe(key);
    });

    it("one instance's 429 pauses the other for the time OpenFIGI asked", async () => {
      const clock = { now: Date.parse('2026-11-27T16:00:00Z'), waits: [] as number[] };
      const key = `pause-${process.pid}-${Date.now()}`;
      const [first, second] = [instance(redis(clock), clock, key), instance(redis(clock), clock, key)];
      figi.failWith = 429;
      figi.retryAfter = '30';
      expect(await first?.identify({ idType: 'TICKER', idValue: 'IBM', exchCode: 'US' })).toBe('unreachable');
      figi.failWith = null;
      const calls = figi.calls.length;
      clock.now += 29_000;
      expect(await second?.identify({ idType: 'TICKER', idValue: 'XRX', exchCode: 'US' })).toBe(
        'unreachable',
      );
      expect(figi.calls.length).toBe(calls);
      clock.now += 1_000;
      expect(await second?.identify({ idType: 'TICKER', idValue: 'XRX', exchCode: 'US' })).toEqual(
        expect.objectContaining({ figi: recorded('XRX', 'US').figi }),
      );
      expect(figi.calls.length).toBe(calls + 1);
      const metrics = (await env.app.inject({ method: 'GET', url: '/metrics' })).body;
      expect(metrics).toMatch(/quarry_upstream_calls_total\{upstream="openfigi",outcome="too_many"\} [1-9]/);
      expect(metrics).toMatch(/quarry_upstream_calls_total\{upstream="openfigi",outcome="paused"\} [1-9]/);
      expect(metrics).toMatch(/quarry_upstream_pause_end_timestamp_seconds\{upstream="openfigi"\} 17\d{8}/);
    });
  });

  it('ISIN and CUSIP stay unserved and say why; the FIGI fields are in the dictionary', () => {
    expect(lookupField('ID_ISIN')).toMatchObject({
      kind: 'not_served',
      reason: expect.stringMatching(/licenses/),
    });
    expect(lookupField('ID_CUSIP')).toMatchObject({ kind: 'not_served' });
    for (const name of FIELDS)
      expect(lookupField(name)).toMatchObject({ kind: 'field', field: { group: 'identifier' } });
  });
});
