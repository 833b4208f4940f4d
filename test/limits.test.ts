// Counters behind one interface: in-process and Redis behave the same; with Redis, processes share them.
import { afterAll, describe, expect, it } from 'vitest';
import { randomToken } from '../src/accounts/key-text.js';
import type { Counters } from '../src/limits/counters.js';
import { MemoryCounters } from '../src/limits/memory.js';
import { RedisCounters } from '../src/limits/redis.js';
import { redisUrl, testEnv } from './helpers/env.js';

const IMPLEMENTATIONS: { name: string; skip: boolean; make: () => Counters }[] = [
  { name: 'in-process', skip: false, make: () => new MemoryCounters() },
  { name: 'Redis', skip: redisUrl() === null, make: () => new RedisCounters(redisUrl() as string) },
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

    it('release gives back an amount in the current window', async () => {
      const k = key();
      await counters.hit(k, 10, 10, 60_000);
      await counters.release(k, 3, 60_000);
      expect(await counters.hit(k, 3, 10, 60_000)).toMatchObject({ allowed: true, used: 10 });
    });

    it('reports the time left in the window', async () => {
      const hit = await counters.hit(key(), 1, 10, 60_000);
      expect(hit.resetMs).toBeGreaterThan(0);
      expect(hit.resetMs).toBeLessThanOrEqual(60_000);
    });

    it('a new window starts empty', async () => {
      const k = key();
      expect((await counters.hit(k, 1, 1, 200)).allowed).toBe(true);
      await new Promise((r) => setTimeout(r, 250));
      expect((await counters.hit(k, 1, 1, 200)).allowed).toBe(true);
    });
  });
}

describe.skipIf(redisUrl() === null)('limits shared through Redis', () => {
  it('two app instances share one client address allowance for samples', async () => {
    const a = await testEnv({ redis: true });
    const b = await testEnv({ redis: true });
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
