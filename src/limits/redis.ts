import { Redis } from 'ioredis';
import type { MaybePromise } from '../kernel/steps.js';
import { type Counters, type Hit, type HitOptions, windowOf } from './counters.js';

// The hits on one window's key in one turn, in order. ARGV[1] is the limit, ARGV[2] the key's time to live in
// ms, ARGV[3] the share divisor (0: no share is taken), ARGV[4] what this process gives back of a share it
// held; each amount from ARGV[5] on is added unless the total would pass the limit. Then, with a divisor, a
// share of what remains is taken for the process to answer later hits from. The reply is each hit's allowed
// flag and the total after it, then the share taken and the key's total after everything.
const HITS = `
local held = tonumber(redis.call('GET', KEYS[1]) or '0')
local limit = tonumber(ARGV[1])
local divisor = tonumber(ARGV[3])
local used = held - tonumber(ARGV[4])
local out = {}
for i = 5, #ARGV do
  local amount = tonumber(ARGV[i])
  if used + amount > limit then
    out[#out + 1] = 0
  else
    used = used + amount
    out[#out + 1] = 1
  end
  out[#out + 1] = used
end
local share = 0
if divisor > 0 and limit > used then share = math.floor((limit - used) / divisor) end
local after = used + share
if after ~= held then
  redis.call('INCRBY', KEYS[1], after - held)
  if held == 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
end
out[#out + 1] = share
out[#out + 1] = after
return out`;

/** A process takes 1/SHARE_DIVISOR of what remains of a window when it takes a share. */
export const SHARE_DIVISOR = 32;

interface Waiting {
  amount: number;
  resolve(hit: Hit): void;
  reject(error: unknown): void;
}

/** The hits of one turn on one window's key: one script call. */
interface Group {
  redisKey: string;
  /** Where this process keeps its share of the window, when the hits take one. */
  shareKey: string | null;
  index: number;
  limit: number;
  ttl: number;
  resetMs: number;
  hits: Waiting[];
}

/** What this process holds of a window: counted in Redis ahead of its hits and not spent yet. */
interface Share {
  index: number;
  unspent: number;
  /** The key's total when last seen, this share included. */
  total: number;
}

/** Counters shared by every process through one Redis. */
export class RedisCounters implements Counters {
  private readonly redis: Redis;
  /** Hits waiting for the end of this turn, by window key, limit and whether they take a share. */
  private waiting = new Map<string, Group>();
  /** Shares held, by window length and key (each knows its window). */
  private readonly shares = new Map<string, Share>();

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

  hit(
    key: string,
    amount: number,
    limit: number,
    windowMs: number,
    options: HitOptions = {},
  ): MaybePromise<Hit> {
    const { index, resetMs } = windowOf(this.clock(), windowMs);
    const shareKey = options.share ? `${windowMs}:${key}` : null;
    const held = shareKey === null ? undefined : this.shares.get(shareKey);
    if (held && held.index === index && held.unspent >= amount) {
      held.unspent -= amount;
      return { allowed: true, used: held.total - held.unspent, resetMs };
    }
    const redisKey = `quarry:${windowMs}:${index}:${key}`;
    return new Promise((resolve, reject) => {
      if (this.waiting.size === 0) setImmediate(() => this.flush());
      const slot = `${limit}:${shareKey !== null}:${redisKey}`;
      let group = this.waiting.get(slot);
      if (!group) {
        group = { redisKey, shareKey, index, limit, ttl: resetMs + 1000, resetMs, hits: [] };
        this.waiting.set(slot, group);
      }
      group.hits.push({ amount, resolve, reject });
    });
  }

  private flush(): void {
    const groups = [...this.waiting.values()];
    this.waiting = new Map();
    for (const group of groups) this.decide(group);
  }

  private decide({ redisKey, shareKey, index, limit, ttl, resetMs, hits }: Group): void {
    const redis = this.redis as Redis & {
      quarryHits(key: string, ...args: number[]): Promise<number[]>;
    };
    // What is left of this window's share goes back with the hits: they are decided on what is spent.
    const held = shareKey === null ? undefined : this.shares.get(shareKey);
    const returned = held?.index === index ? held.unspent : 0;
    if (held?.index === index) held.unspent = 0;
    const divisor = shareKey === null ? 0 : SHARE_DIVISOR;
    const amounts = hits.map((h) => h.amount);
    redis.quarryHits(redisKey, limit, ttl, divisor, returned, ...amounts).then(
      (reply) => {
        if (shareKey !== null)
          this.keep(shareKey, index, reply[hits.length * 2]!, reply[hits.length * 2 + 1]!);
        hits.forEach((h, i) => {
          h.resolve({ allowed: reply[2 * i] === 1, used: reply[2 * i + 1]!, resetMs });
        });
      },
      (error) => {
        for (const h of hits) h.reject(error);
      },
    );
  }

  /** Adds a share taken to what this process holds of the window (a share of an earlier window is dropped). */
  private keep(shareKey: string, index: number, taken: number, total: number): void {
    const held = this.shares.get(shareKey);
    if (held && held.index === index) {
      held.unspent += taken;
      held.total = total;
    } else if (!held || held.index < index) {
      this.shares.set(shareKey, { index, unspent: taken, total });
    }
  }

  async release(key: string, amount: number, windowMs: number): Promise<void> {
    const { index } = windowOf(this.clock(), windowMs);
    // An amount taken while this process holds a share of the window goes back into the share.
    const held = this.shares.get(`${windowMs}:${key}`);
    if (held && held.index === index) {
      held.unspent += amount;
      return;
    }
    await this.redis.decrby(`quarry:${windowMs}:${index}:${key}`, amount);
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
