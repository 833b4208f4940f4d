// A vendor's allowance kept over any span of its window, not only over the clock's fixed minutes: a vendor that
// counts a sliding minute never sees more than its allowance, however the calls fall across a minute's turn.
// The span is read here from the times the calls were admitted, on a moved clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryCounters } from '../../../src/limits/memory.js';
import { SharedAllowance } from '../../../src/market/providers/allowance.js';
import { MarketCache } from '../../../src/market/providers/cache.js';
import { type TestEnv, testEnv } from '../../helpers/env.js';

const MINUTE = 60_000;

/** The most of `times` in any span of `ms` starting at one of them. */
const busiest = (times: number[], ms: number) =>
  Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + ms).length));

describe('an allowance of calls a minute', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await testEnv();
  });
  afterAll(() => env.close());

  /** The times calls were admitted when one is tried every `step` ms for five minutes from 37.3 s past one. */
  async function admitted(perMinute: number, step: number): Promise<number[]> {
    let now = Date.parse('2026-11-27T15:00:37.300Z');
    const clock = () => new Date(now);
    const allowance = new SharedAllowance(
      { name: `vendor-${perMinute}`, url: 'http://vendor.test', key: 'k', perMinute, perDay: 1_000_000 },
      { cache: new MarketCache(env.deps.store.db, clock), counters: new MemoryCounters(() => now), clock },
    );
    const times: number[] = [];
    for (const end = now + 5 * MINUTE; now < end; now += step) {
      const sent = await allowance.admit().then(
        () => true,
        () => false,
      );
      if (sent) times.push(now);
    }
    return times;
  }

  it.each([2, 3, 4, 5, 9, 14, 25, 100])(
    '%i a minute: never more in any minute, and most of it kept up',
    async (perMinute) => {
      const times = await admitted(perMinute, Math.max(10, Math.floor(MINUTE / (8 * perMinute))));
      expect(busiest(times, MINUTE)).toBeLessThanOrEqual(perMinute);
      // Five minutes of calls: at least three quarters of the allowance a minute (half, for two or three).
      const share = perMinute < 4 ? 0.5 : 0.75;
      expect(times.length).toBeGreaterThanOrEqual(Math.floor(5 * perMinute * share));
    },
  );

  it('a spent allowance says which and for how long, and is counted as refused', async () => {
    let now = Date.parse('2026-11-27T15:00:00Z');
    const clock = () => new Date(now);
    const allowance = new SharedAllowance(
      { name: 'vendor-spent', url: 'http://vendor.test', key: 'k', perMinute: 5, perDay: 1_000_000 },
      { cache: new MarketCache(env.deps.store.db, clock), counters: new MemoryCounters(() => now), clock },
    );
    await allowance.admit();
    now += 1000;
    await expect(allowance.admit()).rejects.toThrow(
      /vendor-spent's allowance of 5 in 60 s is spent for 14 s/,
    );
    expect(allowance.counts.refused).toBe(1);
  });
});
