// A market request as the verbs take it from a GET query: its comma lists split and the other named
// parameters kept where given (a POST body or MCP arguments already are one). The route's schema has checked
// the shapes.

import { AppError } from '../../kernel/errors.js';

/** The verb's request from a GET query: `lists` split at commas, `options` kept where given. */
export function fromQuery(
  query: Record<string, unknown>,
  lists: readonly string[],
  options: readonly string[] = [],
): Record<string, unknown> {
  const text = (name: string) => (typeof query[name] === 'string' ? query[name] : undefined);
  const request: Record<string, unknown> = {};
  for (const name of lists) request[name] = (text(name) ?? '').split(',');
  for (const name of options) {
    const value = text(name);
    if (value) request[name] = value;
  }
  return request;
}

/** Inputs answered once each, in the order first given. */
export function uniqueInputs(inputs: string[]): string[] {
  const seen = new Set<string>();
  return inputs.map((i) => i.trim()).filter((i) => i !== '' && !seen.has(i) && seen.add(i));
}

/** An asOf date of a market request: YYYY-MM-DD, not after today; null when not given. */
export function checkedAsOf(asOf: string | undefined, today: string): string | null {
  if (asOf === undefined) return null;
  checkedDate('asOf', asOf);
  if (asOf > today)
    throw new AppError('invalid_params', `asOf (${asOf}) is in the future; today is ${today}`);
  return asOf;
}

/** A date parameter as given: YYYY-MM-DD and a real day, or invalid_params naming the parameter. */
export function checkedDate(name: string, value: string | undefined): void {
  if (
    value !== undefined &&
    (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`)))
  )
    throw new AppError('invalid_params', `${name} "${value}" is not a date YYYY-MM-DD`);
}

/** The calendar date (UTC) of a time. */
export const isoDate = (time: Date): string => time.toISOString().slice(0, 10);
