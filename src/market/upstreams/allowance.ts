// An upstream's allowance, kept across every instance: each call counts against its calls a minute and a day in
// the shared counters (Redis when configured), one set per host and key, and a 429 pauses it for every instance
// for as long as it asked (the pause is kept in the market cache, in the store). A call past the allowance or in
// a pause is not sent: it fails at once as a 429 would, and the next upstream answers. What its calls did is
// counted for /metrics.
import { createHash } from 'node:crypto';
import type { UpstreamConfig } from '../../kernel/config.js';
import { Breaker, UpstreamError } from '../providers/guard.js';
import type { UpstreamContext } from './port.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** What an upstream's calls did, for /metrics. */
export interface UpstreamCounts {
  calls: number;
  errors: number;
  tooMany: number;
  refused: number;
  totalMs: number;
}

/** Every upstream's counts in this process, by name. */
export const UPSTREAM_COUNTS = new Map<string, UpstreamCounts>();

export class SharedAllowance {
  /** Open while a pause this instance knows of lasts. */
  readonly breaker: Breaker;
  readonly counts: UpstreamCounts = { calls: 0, errors: 0, tooMany: 0, refused: 0, totalMs: 0 };
  /** Its counters' and its pause's key: one per upstream host and key. */
  private readonly key: string;

  constructor(
    private readonly config: UpstreamConfig,
    private readonly context: UpstreamContext,
  ) {
    this.breaker = new Breaker(() => context.clock().getTime());
    const account = createHash('sha256')
      .update(`${config.url} ${config.key ?? ''}`)
      .digest('hex')
      .slice(0, 12);
    this.key = `upstream:${config.name}:${account}`;
    UPSTREAM_COUNTS.set(config.name, this.counts);
  }

  /** Throws, counted as refused, for a call in a pause any instance learned of or past the allowance. */
  async admit(): Promise<void> {
    try {
      await this.check();
    } catch (error) {
      this.counts.refused += 1;
      throw error;
    }
  }

  private async check(): Promise<void> {
    const { name, perMinute, perDay } = this.config;
    const now = this.context.clock().getTime();
    const paused = await this.context.cache.get<number>(`pause:${this.key}`);
    if (paused && paused.value > now) this.breaker.trip(String((paused.value - now) / 1000));
    this.breaker.check();
    const counters = this.context.counters;
    const minute = await counters.hit(`${this.key}:minute`, 1, perMinute, MINUTE_MS);
    const day = minute.allowed ? await counters.hit(`${this.key}:day`, 1, perDay, DAY_MS) : minute;
    if (minute.allowed && day.allowed) return;
    if (minute.allowed) await counters.release(`${this.key}:minute`, 1, MINUTE_MS);
    const which = minute.allowed ? `${perDay} a day` : `${perMinute} a minute`;
    const seconds = Math.ceil((minute.allowed ? day : minute).resetMs / 1000);
    throw new UpstreamError(`${name}'s allowance of ${which} is spent for ${seconds} s`, 429, false);
  }

  /** A 429: this instance and every other stays away for the time the upstream asked. */
  async pause(retryAfter: string | null): Promise<void> {
    this.counts.tooMany += 1;
    this.breaker.trip(retryAfter);
    const until = this.context.clock().getTime() + this.breaker.waitMs;
    await this.context.cache.keep(`pause:${this.key}`, until, this.breaker.waitMs, () => {});
  }
}
