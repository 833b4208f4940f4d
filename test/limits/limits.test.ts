// Counters behind one interface: in-process and Redis behave the same; with Redis, processes share them.
import { afterAll, describe, expect, it } from 'vitest';
import { randomToken } from '../../src/accounts/key-text.js';
import type { Counters } from '../../src/limits/counters.js';
import { MemoryCounters } from '../../src/limits/memory.js';
import { RedisCounters } from '../../src/limits/redis.js';
import { redisUrl, testEnv } from '../helpers/env.js';

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

describe.skipIf(redisUrl() === null)('shares of a window taken ahead through Redis', () => {
  const opened: RedisCounters[] = [];
  const process = () => {
    const counters = new RedisCounters(redisUrl() as string, clock);
    opened.push(counters);
    return counters;
  };
  afterAll(() => Promise.all(opened.map((c) => c.close())));
  const key = () => `test:${randomToken(8)}`;
  const answeredAtOnce = (hit: unknown) => !(hit instanceof Promise);
  const shared = { share: true };

  it('answers most hits from the share without a round trip, and admits exactly up to the limit', async () => {
    const counters = process();
    const k = key();
    // One, then threes: the last hits need what is left of a share given back to be decided right.
    const first = counters.hit(k, 1, 100, 60_000, shared);
    expect(answeredAtOnce(first)).toBe(false);
    expect(await first).toMatchObject({ allowed: true, used: 1 });
    let admitted = 1;
    let atOnce = 0;
    for (let i = 0; i < 34; i += 1) {
      const pending = counters.hit(k, 3, 100, 60_000, shared);
      if (answeredAtOnce(pending)) atOnce += 1;
      const hit = await pending;
      if (!hit.allowed) break;
      admitted += 3;
      expect(hit.used).toBe(admitted);
    }
    expect(admitted).toBe(100);
    expect(await counters.hit(k, 1, 100, 60_000, shared)).toMatchObject({ allowed: false, used: 100 });
    expect(atOnce).toBeGreaterThan(0);
  });

  it('takes a share of 1/32 of what remains, and a hit given back goes into it', async () => {
    const counters = process();
    const k = key();
    expect(await counters.hit(k, 1, 3201, 60_000, shared)).toMatchObject({ allowed: true, used: 1 });
    // 3,200 remained: a share of 100 is held, and the hit given back joins it.
    await counters.release(k, 1, 60_000);
    for (let i = 1; i <= 101; i += 1) {
      const hit = counters.hit(k, 1, 3201, 60_000, shared);
      expect(answeredAtOnce(hit), `hit ${i}`).toBe(true);
      expect(await hit).toMatchObject({ allowed: true, used: i });
    }
    expect(answeredAtOnce(counters.hit(k, 1, 3201, 60_000, shared))).toBe(false);
  });

  it('two processes never admit more than the limit together, and lose nothing of it', async () => {
    const [a, b] = [process(), process()];
    const k = key();
    const drain = async (counters: RedisCounters) => {
      let n = 0;
      while ((await counters.hit(k, 1, 3200, 60_000, shared)).allowed) n += 1;
      return n;
    };
    expect((await a.hit(k, 1, 3200, 60_000, shared)).allowed).toBe(true);
    const byB = await drain(b);
    // B is refused while A still holds its share: at most 1/32 of what remained when A took it.
    const byA = await drain(a);
    expect(1 + byB + byA).toBe(3200);
    expect(byA).toBeLessThanOrEqual(Math.floor(3199 / 32));
    expect(byA).toBeGreaterThan(0);
  });

  it('spends a share only in its own window', async () => {
    const counters = process();
    const k = key();
    const start = now;
    try {
      expect(await counters.hit(k, 1, 3201, 60_000, shared)).toMatchObject({ allowed: true, used: 1 });
      expect(answeredAtOnce(counters.hit(k, 1, 3201, 60_000, shared))).toBe(true);
      now += 60_000;
      const next = counters.hit(k, 1, 3201, 60_000, shared);
      expect(answeredAtOnce(next)).toBe(false);
      expect(await next).toMatchObject({ allowed: true, used: 1 });
    } finally {
      now = start;
    }
  });

  it('keeps no share for limits a caller must see exact', async () => {
    const [a, b] = [process(), process()];
    const k = key();
    expect(await a.hit(k, 1, 3200, 60_000)).toMatchObject({ allowed: true, used: 1 });
    const second = a.hit(k, 1, 3200, 60_000);
    expect(answeredAtOnce(second)).toBe(false);
    expect(await second).toMatchObject({ allowed: true, used: 2 });
    expect(await b.hit(k, 3199, 3200, 60_000)).toMatchObject({ allowed: false, used: 2 });
    expect(await b.hit(k, 3198, 3200, 60_000)).toMatchObject({ allowed: true, used: 3200 });
  });
});

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
