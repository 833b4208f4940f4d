// The answer deadline of data and history: an item not ready in time is a timeout error on that item, the
// others are answered, and the late work goes on so that a retry finds its result. The slow provider below
// is the stored provider on a real store, with the first read of one symbol held back the way a slow
// upstream would hold it.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../../src/ingest/run.js';
import type { Bar, Instrument, MarketProvider } from '../../../src/kernel/market-provider.js';
import { data, readData } from '../../../src/market/data/data.js';
import { history } from '../../../src/market/history/history.js';
import { readHistory } from '../../../src/market/history/request.js';
import { StoredProvider } from '../../../src/market/providers/stored.js';
import { Deadline } from '../../../src/market/verb/deadline.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { type TestEnv, testEnv } from '../../helpers/env.js';

const FIXTURES = path.resolve('test/fixtures/market');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The first read of `slow`'s bars waits until the test opens the gate; later reads are served at once, as from
 * a cache. `done` settles when that first read has finished, so a test waits on the work, not on a timer.
 */
function slowFirstRead(inner: MarketProvider, slow: string) {
  let open = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  let first: Promise<readonly Bar[]> | null = null;
  let ready = false;
  const series = (instrument: Instrument): Promise<readonly Bar[]> => {
    if (instrument.symbol !== slow || ready) return inner.series(instrument);
    first ??= gate
      .then(() => inner.series(instrument))
      .finally(() => {
        ready = true;
      });
    return first;
  };
  const provider: MarketProvider = {
    statements: (instrument) => inner.statements(instrument),
    quotes: (instruments) => inner.quotes(instruments),
    shortInterest: (instruments) => inner.shortInterest(instruments),
    series,
    listing: async (instrument, since, knownBy) => ({
      ...(await inner.listing(instrument, since, knownBy)),
      bars: await series(instrument),
    }),
    lastCloses: async (instrument, count) => (await series(instrument)).slice(-count).map((bar) => bar.close),
    bars: (instrument, from, to) => inner.bars(instrument, from, to),
    find: (text) => inner.find(text),
    actions: (instrument, since, knownBy) => inner.actions(instrument, since, knownBy),
    identifiers: (instruments) => inner.identifiers(instruments),
  };
  /** Lets the held read go on, and settles once it (and what waited on it) has finished. */
  const release = async () => {
    open();
    await first;
  };
  return { provider, release };
}

describe('Deadline', () => {
  it('work done in time is the answer; work still running at the deadline is answered as late', async () => {
    const deadline = new Deadline(30);
    // The slow work finishes only when the test lets it, after the deadline has answered.
    let finish = () => {};
    const slow = new Promise<string>((resolve) => {
      finish = () => resolve('done');
    });
    const [early, late] = await Promise.all([
      deadline.race(
        sleep(5).then(() => 'early'),
        () => 'late',
      ),
      deadline.race(slow, () => 'late'),
    ]);
    finish();
    deadline.clear();
    expect([early, late]).toEqual(['early', 'late']);
    expect(deadline.error).toEqual({
      code: 'timeout',
      message: 'not ready within 0.03 seconds; retry in a moment',
    });
  });

  it('work that fails after its deadline is not an unhandled rejection', async () => {
    const deadline = new Deadline(5);
    const answer = await deadline.race(
      sleep(30).then(() => Promise.reject(new Error('too late to matter'))),
      () => 'late',
    );
    expect(answer).toBe('late');
    await sleep(40);
  });

  it('work that fails before its deadline fails the race', async () => {
    const deadline = new Deadline(1000);
    await expect(deadline.race(Promise.reject(new Error('broken')), () => 'late')).rejects.toThrow('broken');
    deadline.clear();
  });
});

describe('timeout items in data and history', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await testEnv();
    const prices = LOADERS.prices as NonNullable<typeof LOADERS.prices>;
    await loadFile(env.deps, prices, path.join(FIXTURES, 'AAPL.csv'), { ticker: 'AAPL US Equity' });
    await loadFile(env.deps, prices, path.join(FIXTURES, 'BARC.L.csv'), { ticker: 'BARC.L' });
  });
  afterAll(() => env.close());

  it('history: the slow ticker is a timeout item, the other is answered; a retry reads it', async () => {
    const { provider, release } = slowFirstRead(new StoredProvider(env.deps.store.db), 'BARC.L');
    const request = {
      tickers: ['AAPL', 'BARC.L'],
      fields: ['price'],
      start: '2023-08-25',
      end: '2023-08-25',
    };
    const first = await history(
      { market: provider, clock: () => new Date('2024-01-01T12:00:00Z') },
      readHistory(request, '2024-01-01'),
      500,
    );
    expect(first.items[0]).toMatchObject({ input: 'AAPL', status: 'ok' });
    expect(first.items[1]).toEqual({
      input: 'BARC.L',
      status: 'error',
      error: { code: 'timeout', message: 'not ready within 0.5 seconds; retry in a moment' },
    });
    await release();
    const retry = await history(
      { market: provider, clock: () => new Date('2024-01-01T12:00:00Z') },
      readHistory(request, '2024-01-01'),
      500,
    );
    expect(retry.items[1]).toMatchObject({ input: 'BARC.L', status: 'ok' });
    expect(JSON.parse(JSON.stringify(retry.items[1]?.rows))).toEqual([
      { date: '2023-08-25', price: 1.43979996 },
    ]);
  });

  it('data: a computed field waiting on slow bars makes its item a timeout, with what it resolved to', async () => {
    const { provider, release } = slowFirstRead(new StoredProvider(env.deps.store.db), 'BARC.L');
    const request = readData(
      { tickers: ['AAPL', 'BARC.L'], fields: ['price', 'volatility10d'] },
      env.deps.clock().toISOString().slice(0, 10),
    );
    const first = await data({ market: provider, clock: env.deps.clock }, request, 500);
    expect(first.items[0]).toMatchObject({ input: 'AAPL', status: 'ok' });
    expect(first.items[1]).toMatchObject({
      input: 'BARC.L',
      status: 'error',
      resolved: { symbol: 'BARC.L' },
      error: { code: 'timeout' },
    });
    await release();
    expect((await data({ market: provider, clock: env.deps.clock }, request, 500)).items[1]).toMatchObject({
      input: 'BARC.L',
      status: 'ok',
    });
  });
});
