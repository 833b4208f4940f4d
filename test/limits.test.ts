// Counters behind one interface: in-process and Redis behave the same; with Redis, processes share them.
import { afterAll, describe, expect, it } from 'vitest';
import { randomToken } from '../src/accounts/key-text.js';
import type { Counters } from '../src/limits/counters.js';
import { MemoryCounters } from '../src/limits/memory.js';
import { RedisCounters } from '../src/limits/redis.js';
import { redisUrl, testEnv } from './helpers/env.js';

/** The counters' clock: 10 s into a minute, moved only by the tests. */
let now = Date.UTC(2031, 2, 3, 10, 20, 10);
const clock = () => now;

const IMPLEMENTATIONS: { name: string; skip: boolean; make: () => Counters }[] = [
  { name: 'in-process', skip: false, make: () => new MemoryCounters(clock) },
  { name: 'Redis', skip: redisUrl() === null, make: () => new RedisCounters(redisUrl() as string, clock) },
];

for (const { name, skip, make } of IMPLEMENTATIONS) {
  describe.skipIf(skip)(`${name} counters`, () => {
    const counters = skip ? (null as unknown as Counters) : make();
    afterAll(() => counters?.close());
    const key = () => `test:${randomToken(8)}`;

    it('admits amounts up to the limit and refuses the one that would pass it, adding nothing', async () => {
      const k = key();
      expect(await counters.hit(k, 4, 10, 60_000)).toMatchObject({ allowed: true, used: 4 });
      expect(await counters.hit(k, 4, 10, 60_000)).toMatchObject({ allowed: true, used: 8 });
      expect(await counters.hit(k, 4, 10, 60_000)).toMatchObject({ allowed: false, used: 8 });
      expect(await counters.hit(k, 2, 10, 60_000)).toMatchObject({ allowed: true, used: 10 });
    });

    it('hits in one turn are decided in order, exactly as one after another', async () => {
      const k = key();
      const hits = await Promise.all([4, 4, 4, 2, 1].map((amount) => counters.hit(k, amount, 10, 60_000)));
      expect(hits.map((h) => [h.allowed, h.used])).toEqual([
        [true, 4],
        [true, 8],
        [false, 8],
        [true, 10],
        [false, 10],
      ]);
      expect(await counters.hit(k, 1, 11, 60_000)).toMatchObject({ allowed: true, used: 11 });
    });

    it('release gives back an amount in the current window', async () => {
      const k = key();
      await counters.hit(k, 10, 10, 60_000);
      await counters.release(k, 3, 60_000);
      expect(await counters.hit(k, 3, 10, 60_000)).toMatchObject({ allowed: true, used: 10 });
    });

    it('reports the time left in the window', async () => {
      // 10:20:10: 50 s are left of the minute and 39 min 50 s of the hour.
      expect((await counters.hit(key(), 1, 10, 60_000)).resetMs).toBe(50_000);
      expect((await counters.hit(key(), 1, 10, 3_600_000)).resetMs).toBe(3_600_000 - 20 * 60_000 - 10_000);
    });

    it('a new window starts empty, and not a millisecond before', async () => {
      const k = key();
      const start = now;
      try {
        expect((await counters.hit(k, 1, 1, 200)).allowed).toBe(true);
        now = start + 199;
        expect((await counters.hit(k, 1, 1, 200)).allowed).toBe(false);
        now = start + 200;
        expect((await counters.hit(k, 1, 1, 200)).allowed).toBe(true);
      } finally {
        now = start;
      }
    });
  });
}

describe.skipIf(redisUrl() === null)('limits shared through Redis', () => {
  it('two app instances share one client address allowance for samples', async () => {
    // Both at one instant of an hour, so the count cannot straddle two windows.
    const at = () => new Date(Date.UTC(2031, 2, 3, 10, 20, 10));
    const a = await testEnv({ redis: true, clock: at });
    const b = await testEnv({ redis: true, clock: at });
    try {
      const ip = `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
      const hit = (env: typeof a) =>
        env.app.inject({ method: 'GET', url: '/v1/datasets/events/sample', remoteAddress: ip });
      for (let i = 0; i < 15; i += 1) {
        expect((await hit(a)).statusCode).toBe(200);
        expect((await hit(b)).statusCode).toBe(200);
      }
      expect((await hit(a)).statusCode).toBe(429);
      expect((await hit(b)).statusCode).toBe(429);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
