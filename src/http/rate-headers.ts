// IETF RateLimit-Policy and RateLimit fields for a fixed window.
import { secondsUntil } from '../kernel/errors.js';

export function rateHeaders(
  policy: string,
  limit: number,
  windowMs: number,
  remaining: number,
  resetMs: number,
): Record<string, string> {
  return {
    'ratelimit-policy': `"${policy}";q=${limit};w=${windowMs / 1000}`,
    ratelimit: `"${policy}";r=${Math.max(0, remaining)};t=${secondsUntil(resetMs)}`,
  };
}
