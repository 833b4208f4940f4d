// A vendor's JSON over HTTP, kept within the operator's allowance across every instance: each call counts
// against the vendor's calls a minute and a day in the shared counters (Redis when configured), and a 429 pauses
// the vendor for every instance for as long as it asked (the pause is kept in the market cache, in the store).
// A call past the allowance or in a pause is not sent: it fails at once, and the next upstream answers.
import { createHash } from 'node:crypto';
import type { UpstreamConfig } from '../../kernel/config.js';
import { Breaker, Limiter, UpstreamError, upstreamError, withRetries } from '../providers/guard.js';
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

export class VendorHttp {
  private readonly breaker: Breaker;
  private readonly limiter: Limiter;
  /** Its allowance's counters: one per vendor host and key, shared by every instance that holds them. */
  private readonly allowanceKey: string;
  readonly counts: UpstreamCounts = { calls: 0, errors: 0, tooMany: 0, refused: 0, totalMs: 0 };

  constructor(
    private readonly config: UpstreamConfig,
    private readonly context: UpstreamContext,
  ) {
    this.breaker = new Breaker(() => context.clock().getTime());
    this.limiter = new Limiter(context.concurrency);
    const account = createHash('sha256')
      .update(`${config.url} ${config.key ?? ''}`)
      .digest('hex')
      .slice(0, 12);
    this.allowanceKey = `upstream:${config.name}:${account}`;
    UPSTREAM_COUNTS.set(config.name, this.counts);
  }

  /** The JSON at `path` (with its query) on the vendor's host; null when it answers 404 (nothing known). */
  async json(
    path: string,
    query: Record<string, string>,
    auth: 'query' | 'header' = 'query',
  ): Promise<unknown> {
    const { name, url, key } = this.config;
    const target = new URL(`${url}${path}`);
    for (const [k, v] of Object.entries(query)) target.searchParams.set(k, v);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (key && auth === 'header') headers.authorization = `Token ${key}`;
    try {
      await this.admit();
    } catch (error) {
      this.counts.refused += 1;
      throw error;
    }
    const started = performance.now();
    this.counts.calls += 1;
    try {
      return await this.limiter.run(() =>
        withRetries(async () => {
          const response = await fetch(target, {
            headers,
            signal: AbortSignal.timeout(this.context.timeoutMs),
          });
          if (response.status === 429) {
            this.counts.tooMany += 1;
            await this.pause(response.headers.get('retry-after'));
            throw new UpstreamError(`${name} answered 429 (too many requests)`, 429, false);
          }
          if (response.status === 404) return null;
          if (!response.ok)
            throw new UpstreamError(
              `${name} answered ${response.status}`,
              response.status,
              response.status >= 500,
            );
          return response.json();
        }),
      );
    } catch (error) {
      this.counts.errors += 1;
      throw upstreamError(error);
    } finally {
      this.counts.totalMs += performance.now() - started;
    }
  }

  /** Refuses a call in a pause any instance learned of, or past the allowance of the minute or the day. */
  private async admit(): Promise<void> {
    const { name, perMinute, perDay } = this.config;
    const paused = await this.context.cache.get<number>(`pause:${this.allowanceKey}`);
    if (paused && paused.value > this.context.clock().getTime())
      this.breaker.trip(String((paused.value - this.context.clock().getTime()) / 1000));
    this.breaker.check();
    const counters = this.context.counters;
    const minute = await counters.hit(`${this.allowanceKey}:minute`, 1, perMinute, MINUTE_MS);
    const day = minute.allowed ? await counters.hit(`${this.allowanceKey}:day`, 1, perDay, DAY_MS) : minute;
    if (!minute.allowed || !day.allowed) {
      if (minute.allowed) await counters.release(`${this.allowanceKey}:minute`, 1, MINUTE_MS);
      const which = minute.allowed ? `${perDay} a day` : `${perMinute} a minute`;
      throw new UpstreamError(
        `${name}'s allowance of ${which} is spent for ${Math.ceil((minute.allowed ? day : minute).resetMs / 1000)} s`,
        429,
        false,
      );
    }
  }

  /** A 429: this instance and every other stays away for the time the vendor asked. */
  private async pause(retryAfter: string | null): Promise<void> {
    this.breaker.trip(retryAfter);
    const until = this.context.clock().getTime() + this.breaker.waitMs;
    await this.context.cache.keep(`pause:${this.allowanceKey}`, until, this.breaker.waitMs, () => {});
  }
}
