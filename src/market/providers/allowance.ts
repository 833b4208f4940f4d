// An upstream's allowance, kept across every instance: each call counts against its calls a window (a vendor's
// minute, OpenFIGI's six seconds) and a day in the shared counters (Redis when configured), one set per host and
// key, and a 429 pauses it for every instance for as long as it asked (the pause is kept in the market cache, in
// the store). A call past the allowance or in a pause is not sent: a vendor's fails at once as a 429 would, and
// the next upstream answers; OpenFIGI's waits its turn. What its calls did is counted for /metrics.
import { createHash } from 'node:crypto';
import type { UpstreamConfig } from '../../kernel/config.js';
import type { Counters } from '../../limits/counters.js';
import type { MarketCache } from './cache.js';
import { Breaker, UpstreamError } from './guard.js';

/** Where an allowance is kept: the shared counters (Redis when configured) and the store's market cache. */
export interface AllowanceContext {
  cache: MarketCache;
  counters: Counters;
  clock: () => Date;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** The most slots a window is kept in (see slotsOf). */
const MOST_SLOTS = 12;

/** What an upstream's calls did, for /metrics. */
export interface UpstreamCounts {
  calls: number;
  errors: number;
  tooMany: number;
  /** Not sent: the allowance was spent. */
  refused: number;
  /** Not sent: a pause any instance learned of. */
  paused: number;
  totalMs: number;
  /** Until when this instance knows the upstream is paused (epoch ms; 0: never). */
  pausedUntil: number;
}

/** Every upstream's counts in this process, by name. */
export const UPSTREAM_COUNTS = new Map<string, UpstreamCounts>();

/** So many requests in any span of a window's length. */
export interface Window {
  requests: number;
  ms: number;
}

/**
 * An allowance of so many requests in any span of a window, kept with fixed slots the shared counters can count:
 * a span of the window's length meets at most k + 1 of k slots, so a slot holds the allowance over k + 1. A
 * vendor counting over a sliding minute then never sees more than its allowance from all instances together
 * (fixed minutes would let twice the allowance through across a minute's turn). Of up to twelve slots, the
 * count that keeps up the most requests a window is taken, the fewer slots (bigger bursts) on a tie: 22 of 25,
 * 4 of 5, 913 of 1,000. An allowance of one a window is the exception: one slot of the window, so two calls may
 * fall less than a window apart across its turn.
 */
export function slotsOf({ requests, ms }: Window): { slotMs: number; perSlot: number } {
  let best = { slots: 1, perSlot: Math.max(1, Math.floor(requests / 2)) };
  for (let slots = 2; slots <= Math.min(MOST_SLOTS, requests - 1); slots += 1) {
    const perSlot = Math.floor(requests / (slots + 1));
    if (slots * perSlot > best.slots * best.perSlot) best = { slots, perSlot };
  }
  // Whole milliseconds, rounded up: a longer slot only keeps the span within k + 1 of them.
  return { slotMs: Math.ceil(ms / best.slots), perSlot: best.perSlot };
}

export class SharedAllowance {
  /** Open while a pause this instance knows of lasts. */
  readonly breaker: Breaker;
  /** This process's counts of the upstream (shared by every allowance of its name). */
  readonly counts: UpstreamCounts;
  /** Its counters' and its pause's key: one per upstream host and key. */
  private readonly key: string;
  private readonly window: Window;

  constructor(
    private readonly config: UpstreamConfig,
    private readonly context: AllowanceContext,
    window?: Window,
  ) {
    this.breaker = new Breaker(() => context.clock().getTime());
    this.window = window ?? { requests: config.perMinute, ms: MINUTE_MS };
    const account = createHash('sha256')
      .update(`${config.url} ${config.key ?? ''}`)
      .digest('hex')
      .slice(0, 12);
    this.key = `upstream:${config.name}:${account}`;
    const counts = UPSTREAM_COUNTS.get(config.name) ?? {
      ...{ calls: 0, errors: 0, tooMany: 0, refused: 0, paused: 0, totalMs: 0, pausedUntil: 0 },
    };
    UPSTREAM_COUNTS.set(config.name, counts);
    this.counts = counts;
  }

  /** Throws for a call in a pause any instance learned of, or past the allowance; each counted. */
  async admit(): Promise<void> {
    await this.checkPause();
    const spent = await this.spent();
    if (!spent) return;
    this.counts.refused += 1;
    throw spent.error;
  }

  /**
   * Resolves when this instance may send a call, waiting (with `sleep`) while the window's allowance is spent;
   * throws in a pause, or when the day's is spent.
   */
  async turn(sleep: (ms: number) => Promise<void>): Promise<void> {
    for (;;) {
      await this.checkPause();
      const spent = await this.spent();
      if (!spent) return;
      if (spent.day) {
        this.counts.refused += 1;
        throw spent.error;
      }
      await sleep(spent.waitMs);
    }
  }

  /** Throws, counted as paused, while any instance knows of a pause (for an upstream paced elsewhere: EDGAR). */
  async checkPause(): Promise<void> {
    const now = this.context.clock().getTime();
    const paused = await this.context.cache.get<number>(`pause:${this.key}`);
    if (paused && paused.value > now) this.breaker.trip(String((paused.value - now) / 1000));
    try {
      this.breaker.check();
    } catch (error) {
      this.counts.paused += 1;
      this.counts.pausedUntil = now + this.breaker.waitMs;
      throw error;
    }
  }

  /** Counts a call against the window and the day; what was spent, when either was, and nothing counted. */
  private async spent(): Promise<{ day: boolean; waitMs: number; error: UpstreamError } | null> {
    const { name, perDay } = this.config;
    const { slotMs, perSlot } = slotsOf(this.window);
    const counters = this.context.counters;
    const slot = await counters.hit(`${this.key}:slot`, 1, perSlot, slotMs);
    const day = slot.allowed ? await counters.hit(`${this.key}:day`, 1, perDay, DAY_MS) : slot;
    if (slot.allowed && day.allowed) return null;
    if (slot.allowed) await counters.release(`${this.key}:slot`, 1, slotMs);
    const { requests, ms } = this.window;
    const which = slot.allowed ? `${perDay} a day` : `${requests} in ${ms / 1000} s`;
    const waitMs = (slot.allowed ? day : slot).resetMs;
    const error = new UpstreamError(
      `${name}'s allowance of ${which} is spent for ${Math.ceil(waitMs / 1000)} s`,
      429,
      false,
    );
    return { day: slot.allowed, waitMs, error };
  }

  /** A 429: this instance and every other stays away for the time the upstream asked. */
  async pause(retryAfter: string | null): Promise<void> {
    this.counts.tooMany += 1;
    this.breaker.trip(retryAfter);
    const until = this.context.clock().getTime() + this.breaker.waitMs;
    this.counts.pausedUntil = Math.max(this.counts.pausedUntil, until);
    await this.context.cache.keep(`pause:${this.key}`, until, this.breaker.waitMs, () => {});
  }
}
