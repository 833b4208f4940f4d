import { parseArgs } from 'node:util';
import { UsageError } from './output.js';

type Options = Record<string, { type: 'string' | 'boolean' }>;

/** Parses a command's arguments, turning parser errors into usage errors. */
export function parse<O extends Options>(args: string[], options: O, positionals: string[]) {
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
  const named = Object.fromEntries(positionals.map((name, i) => [name, parsed.positionals[i]!]));
  return { values: parsed.values, args: named };
}

export function wholeNumber(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,15}$/.test(text)) throw new UsageError(`${name} must be a whole number, got "${text}"`);
  return Number(text);
}

export function oneOf<T extends string>(text: string, allowed: readonly T[], name: string): T {
  if (!(allowed as readonly string[]).includes(text)) {
    throw new UsageError(`${name} must be one of ${allowed.join(', ')}, got "${text}"`);
  }
  return text as T;
}
