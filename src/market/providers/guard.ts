// What protects a market upstream from us and us from it: one call per key in flight (single-flight), a cap on
// calls in flight, retries with backoff for failures that may pass (5xx, timeouts, refused connections), and a
// circuit breaker that a 429 opens for as long as the upstream's Retry-After asks.

/** A failed upstream call: its HTTP status when it had one, and whether trying again may help. */
export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

/** Any error thrown by an upstream call, classified: 5xx, timeouts and network failures may pass. */
export function upstreamError(error: unknown): UpstreamError {
  if (error instanceof UpstreamError) return error;
  const e = error as { code?: unknown; name?: unknown; message?: unknown };
  const status = typeof e?.code === 'number' ? e.code : null;
  const message = typeof e?.message === 'string' ? e.message : String(error);
  if (status !== null) return new UpstreamError(message.slice(0, 300), status, status >= 500);
  const transient =
    e?.name === 'TimeoutError' || e?.name === 'AbortError' || /fetch failed|ECONN|socket/i.test(message);
  return new UpstreamError(message.slice(0, 300), null, transient);
}

/** Open after a 429 until the time the upstream asked us to wait; calls meanwhile fail at once. */
export class Breaker {
  private openUntil = 0;

  constructor(
    private readonly now: () => number,
    private readonly defaultWaitMs = 60_000,
  ) {}

  /** The upstream said 429: stay away for its Retry-After (seconds or an HTTP date), or the default wait. */
  trip(retryAfter: string | null): void {
    let wait = this.defaultWaitMs;
    if (retryAfter !== null && retryAfter.trim() !== '') {
      const seconds = Number(retryAfter);
      const date = Date.parse(retryAfter);
      if (Number.isFinite(seconds)) wait = seconds * 1000;
      else if (!Number.isNaN(date)) wait = date - this.now();
    }
    this.openUntil = Math.max(this.openUntil, this.now() + Math.max(0, wait));
  }

  /** Milliseconds until calls may go again; 0 when closed. */
  get waitMs(): number {
    return Math.max(0, this.openUntil - this.now());
  }

  check(): void {
    const wait = this.waitMs;
    if (wait > 0)
      throw new UpstreamError(`upstream asked for a pause: ${Math.ceil(wait / 1000)} s left`, 429, false);
  }
}

/** At most `max` calls in flight; the rest wait their turn in order, an urgent call ahead of the others. */
export class Limiter {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly max: number) {}

  async run<T>(work: () => Promise<T>, urgent = false): Promise<T> {
    if (this.running >= this.max)
      await new Promise<void>((resolve) =>
        urgent ? this.waiting.unshift(resolve) : this.waiting.push(resolve),
      );
    this.running += 1;
    try {
      return await work();
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }
}

/** `work` tried up to `attempts` times while its failure is retryable, waiting 250 ms, 500 ms, … between. */
export async function withRetries<T>(work: () => Promise<T>, attempts = 3, firstWaitMs = 250): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      const failure = upstreamError(error);
      if (!failure.retryable || attempt >= attempts) throw failure;
      await new Promise((resolve) => setTimeout(resolve, firstWaitMs * 2 ** (attempt - 1)));
    }
  }
}

/** One call per key in flight: callers that ask while it runs share its answer. */
export class SingleFlight<T> {
  private readonly flights = new Map<string, Promise<T>>();

  run(key: string, work: () => Promise<T>): Promise<T> {
    const flying = this.flights.get(key);
    if (flying) return flying;
    const flight = work().finally(() => this.flights.delete(key));
    this.flights.set(key, flight);
    return flight;
  }
}
