// Windowed counters behind one interface: in-process by default, Redis when REDIS_URL is set, so that
// every server process shares the same per-minute and per-hour limits.
import type { MaybePromise } from '../kernel/steps.js';

export interface Hit {
  allowed: boolean;
  /** Amount counted in the window, after this hit if it was allowed. */
  used: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

export interface HitOptions {
  /**
   * A process may answer from a share of the window it took ahead (shared counters only): most hits then need
   * no round trip, at the price that one process can refuse while another still holds a share of what
   * remained (at most 1/32 of it when taken; docs/adr/028). Limits a caller must see exact across processes
   * (pacing an agency, sign-in attempts) leave it off.
   */
  share?: boolean;
}

export interface Counters {
  /**
   * Adds `amount` to the fixed window of `windowMs` that holds now, unless that would pass `limit`;
   * a refused hit adds nothing. In-process counters answer at once, as do shared ones from a share.
   */
  hit(key: string, amount: number, limit: number, windowMs: number, options?: HitOptions): MaybePromise<Hit>;
  /** Takes back an amount added in the current window (a charge that did not go through). */
  release(key: string, amount: number, windowMs: number): Promise<void>;
  /** Resolves when the counters can be reached (always, in process). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The window that holds `now`: its index and the milliseconds until it ends. */
export function windowOf(now: number, windowMs: number): { index: number; resetMs: number } {
  const index = Math.floor(now / windowMs);
  return { index, resetMs: (index + 1) * windowMs - now };
}
