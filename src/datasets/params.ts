// Parameter definitions shared by the dataset routes (spec: Parameter definitions).
import { Type } from 'typebox';
import { AppError } from '../kernel/errors.js';

/** A string of 1 to `max` characters, not all blank. */
export const nonBlank = (max: number, description: string) =>
  Type.String({ minLength: 1, maxLength: max, pattern: '\\S', description });

export const P = {
  symbol: Type.String({
    pattern: '^[A-Za-z0-9.:-]{1,32}$',
    description: 'Ticker symbol: 1-32 of A-Z a-z 0-9 . : -; upper-cased before use.',
    examples: ['AAPL'],
  }),
  from: Type.String({ format: 'date', description: 'Calendar date YYYY-MM-DD; on or before to.' }),
  to: Type.String({ format: 'date', description: 'Calendar date YYYY-MM-DD; on or after from.' }),
  asOf: Type.String({ format: 'date', description: 'Point in time YYYY-MM-DD: only what was known then.' }),
  year: Type.Integer({ minimum: 1900, maximum: 2100, description: 'Year, 1900-2100.' }),
  cursor: nonBlank(1024, 'Opaque cursor from a previous nextCursor.'),
  limit: Type.Integer({
    minimum: 1,
    maximum: 200,
    default: 50,
    description: 'Rows per page, 1-200; default 50.',
  }),
};

/** from must be on or before to. */
export function checkRange({ query }: { query: { from?: string; to?: string } }): void {
  const { from, to } = query;
  if (from !== undefined && to !== undefined && from > to) {
    throw new AppError('invalid_params', `parameter "from" (${from}) is after "to" (${to})`);
  }
}
