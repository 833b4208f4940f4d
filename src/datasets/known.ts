// Reading a dataset as it was known: a revisioned row is the one current now, or, at an instant, the one
// published by then and not yet superseded (known_at <= T < superseded_at).
import { type SqlBool, sql } from 'kysely';
import type { Deps } from '../kernel/deps.js';
import { AppError } from '../kernel/errors.js';

/** The instant an `asOf` date names: the end of that day in UTC; null without one. A future date is refused. */
export function asOfInstant(deps: Pick<Deps, 'clock'>, asOf: string | undefined): string | null {
  if (asOf === undefined) return null;
  const today = deps.clock().toISOString().slice(0, 10);
  if (asOf > today)
    throw new AppError('invalid_params', `parameter "asOf" (${asOf}) is in the future; today is ${today}`);
  return `${asOf}T23:59:59.999Z`;
}

/** The instant an answer reads the store as known at: the asOf instant, else now. */
export function readInstant(deps: Pick<Deps, 'clock'>, at: string | null): string {
  return at ?? deps.clock().toISOString();
}

/** The greatest of ISO times or dates (they sort as text), null when there are none. */
export function newest(values: readonly (string | null)[]): string | null {
  let found: string | null = null;
  for (const v of values) if (v !== null && (found === null || v > found)) found = v;
  return found;
}

/** The revision known last of `rows` (by known_at), or null: an answer's asOf and where it came from. */
export function newestKnown<R extends { known_at: string; known_from?: string | null }>(
  rows: readonly R[],
): { knownAt: string; knownFrom: string | null } | null {
  let found: R | null = null;
  for (const r of rows) if (found === null || r.known_at > found.known_at) found = r;
  return found ? { knownAt: found.known_at, knownFrom: found.known_from ?? null } : null;
}

/** The rows of a revisioned table as known at `at` (the current ones when null), for a query of that table alone. */
export function knownAt(at: string | null) {
  return at === null
    ? sql<SqlBool>`is_current = 1`
    : sql<SqlBool>`known_at <= ${at} AND (superseded_at IS NULL OR superseded_at > ${at})`;
}
