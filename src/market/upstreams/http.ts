// A vendor's JSON over HTTP, kept within its allowance across every instance (allowance.ts): a call past it or
// in a pause is not sent, a 429 pauses the vendor for every instance, 5xx answers are retried, a 404 is nothing
// known.
import type { UpstreamConfig } from '../../kernel/config.js';
import { SharedAllowance } from '../providers/allowance.js';
import { Limiter, UpstreamError, upstreamError, withRetries } from '../providers/guard.js';
import type { UpstreamContext } from './port.js';

export class VendorHttp {
  private readonly limiter: Limiter;
  private readonly allowance: SharedAllowance;

  constructor(
    private readonly config: UpstreamConfig,
    private readonly context: UpstreamContext,
  ) {
    this.limiter = new Limiter(context.concurrency);
    this.allowance = new SharedAllowance(config, context);
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
    await this.allowance.admit();
    const { counts } = this.allowance;
    const started = performance.now();
    counts.calls += 1;
    try {
      return await this.limiter.run(() =>
        withRetries(async () => {
          const response = await fetch(target, {
            headers,
            signal: AbortSignal.timeout(this.context.timeoutMs),
          });
          if (response.status === 429) {
            await this.allowance.pause(response.headers.get('retry-after'));
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
      counts.errors += 1;
      throw upstreamError(error);
    } finally {
      counts.totalMs += performance.now() - started;
    }
  }
}
