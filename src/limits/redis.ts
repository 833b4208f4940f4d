import { Redis } from 'ioredis';
import { type Counters, type Hit, windowOf } from './counters.js';

// Adds ARGV[1] unless the total would pass ARGV[2]; the key expires with its window.
const HIT = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local amount = tonumber(ARGV[1])
if used + amount > tonumber(ARGV[2]) then return {0, used} end
used = redis.call('INCRBY', KEYS[1], amount)
if used == amount then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return {1, used}`;

type HitReply = [number, number];

/** Counters shared by every process through one Redis. */
export class RedisCounters implements Counters {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly clock: () => number = () => Date.now(),
  ) {
    // Commands issued in one turn of the event loop go to Redis as one pipeline: one round trip for them all.
    this.redis = new Redis(url, {
      maxRetriesPerRequest: 2,
      enableOfflineQueue: true,
      lazyConnect: false,
      enableAutoPipelining: true,
    });
    this.redis.defineCommand('quarryHit', { numberOfKeys: 1, lua: HIT });
    // Connection errors surface on the commands that need the connection; don't crash on the event.
    this.redis.on('error', () => {});
  }

  async hit(key: string, amount: number, limit: number, windowMs: number): Promise<Hit> {
    const { index, resetMs } = windowOf(this.clock(), windowMs);
    const redis = this.redis as Redis & {
      quarryHit(key: string, amount: number, limit: number, ttl: number): Promise<HitReply>;
    };
    const [allowed, used] = await redis.quarryHit(
      `quarry:${windowMs}:${index}:${key}`,
      amount,
      limit,
      resetMs + 1000,
    );
    return { allowed: allowed === 1, used, resetMs };
  }

  async release(key: string, amount: number, windowMs: number): Promise<void> {
    const { index } = windowOf(this.clock(), windowMs);
    await this.redis.decrby(`quarry:${windowMs}:${index}:${key}`, amount);
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
