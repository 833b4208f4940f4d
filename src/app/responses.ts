// Declared responses: each route lists every status it can answer, errors with the shared body.
import type { TSchema } from 'typebox';
import { ErrorBody } from './errors.js';

export function responses(ok: TSchema, ...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = { 200: ok };
  for (const status of [...statuses, 500]) out[status] = ErrorBody;
  return out;
}

/** Statuses of every keyed stored-datasets route. */
export const KEYED_STATUSES = [400, 401, 402, 403, 404, 429, 503];
