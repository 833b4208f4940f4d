import { parseArgs } from 'node:util';
import { UsageError } from './output.js';

type Options = Record<string, { type: 'string' | 'boolean' }>;

/** Parses a command's arguments, turning parser errors into usage errors. */
export function parse<O extends Options, P extends string>(
  args: string[],
  options: O,
  positionals: readonly P[],
) {
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>
  >;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.positionals.length !== positionals.length) {
    throw new UsageError(`expected ${positionals.length ? positionals.join(' ') : 'no arguments'}`);
  }
  // Every name of `positionals` is given: their count was checked above.
  const named = Object.fromEntries(positionals.map((name, i) => [name, parsed.positionals[i]!])) as Record<
    P,
    string
  >;
  return { values: parsed.values, args: named };
}

export function wholeNumber(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,15}$/.test(text)) throw new UsageError(`${name} must be a whole number, got "${text}"`);
  return Number(text);
}

export function oneOf<T extends string>(text: string, allowed: readonly T[], name: string): T {
  const found = allowed.find((value) => value === text);
  if (found === undefined)
    throw new UsageError(`${name} must be one of ${allowed.join(', ')}, got "${text}"`);
  return found;
}
