import { Redis } from 'ioredis';
import { type Counters, type Hit, windowOf } from './counters.js';

// The hits on one window's key in one turn, in order: each amount from ARGV[3] on is added unless the total
// would pass ARGV[1]; the reply is each hit's allowed flag and the total after it. The key expires with its
// window (ARGV[2] ms).
const HITS = `
local start = tonumber(redis.call('GET', KEYS[1]) or '0')
local limit = tonumber(ARGV[1])
local used = start
local out = {}
for i = 3, #ARGV do
  local amount = tonumber(ARGV[i])
  if used + amount > limit then
    out[#out + 1] = 0
  else
    used = used + amount
    out[#out + 1] = 1
  end
  out[#out + 1] = used
end
if used > start then
  redis.call('INCRBY', KEYS[1], used - start)
  if start == 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
end
return out`;

interface Waiting {
  amount: number;
  resolve(hit: Hit): void;
  reject(error: unknown): void;
}

/** Counters shared by every process through one Redis. */
export class RedisCounters implements Counters {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly clock: () => number,
  ) {
    // Commands issued in one turn of the event loop go to Redis as one pipeline: one round trip for them all.
    this.redis = new Redis(url, {
      maxRetriesPerRequest: 2,
      enableOfflineQueue: true,
      lazyConnect: false,
      enableAutoPipelining: true,
    });
    this.redis.defineCommand('quarryHits', { numberOfKeys: 1, lua: HITS });
    // Connection errors surface on the commands that need the connection; don't crash on the event.
    this.redis.on('error', () => {});
  }

  /** Hits waiting for the end of this turn, by window key and limit: one script call for each. */
  private waiting = new Map<
    string,
    { key: string; limit: number; ttl: number; resetMs: number; hits: Waiting[] }
  >();

  hit(key: string, amount: number, limit: number, windowMs: number): Promise<Hit> {
    const { index, resetMs } = windowOf(this.clock(), windowMs);
    const windowKey = `quarry:${windowMs}:${index}:${key}`;
    return new Promise((resolve, reject) => {
      if (this.waiting.size === 0) setImmediate(() => this.flush());
      const slot = `${limit}:${windowKey}`;
      let group = this.waiting.get(slot);
      if (!group) {
        group = { key: windowKey, limit, ttl: resetMs + 1000, resetMs, hits: [] };
        this.waiting.set(slot, group);
      }
      group.hits.push({ amount, resolve, reject });
    });
  }

  private flush(): void {
    const groups = [...this.waiting.values()];
    this.waiting = new Map();
    const redis = this.redis as Redis & {
      quarryHits(key: string, limit: number, ttl: number, ...amounts: number[]): Promise<number[]>;
    };
    for (const { key, limit, ttl, resetMs, hits } of groups) {
      redis.quarryHits(key, limit, ttl, ...hits.map((h) => h.amount)).then(
        (reply) => {
          hits.forEach((h, i) => {
            h.resolve({ allowed: reply[2 * i] === 1, used: reply[2 * i + 1]!, resetMs });
          });
        },
        (error) => {
          for (const h of hits) h.reject(error);
        },
      );
    }
  }

  async release(key: string, amount: number, windowMs: number): Promise<void> {
    const { index } = windowOf(this.clock(), windowMs);
    await this.redis.decrby(`quarry:${windowMs}:${index}:${key}`, amount);
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
