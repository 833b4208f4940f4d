// Admin commands print exactly one JSON object on stdout; messages go to stderr.

import { ImportError } from '../ingest/import.js';
import { SourceError } from '../ingest/source.js';
import { ConfigError } from '../kernel/config.js';
import { AppError } from '../kernel/errors.js';
import { MigrationError } from '../store/migrate.js';
import { UsageError } from './usage-error.js';

export { UsageError };

export function printResult(value: object): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function say(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** A clear one-line message; no stack traces on the terminal. */
export function explain(error: unknown): string {
  if (error instanceof UsageError) return `quarry: ${error.message}\nRun "quarry help" for the commands.`;
  if (error instanceof ConfigError) return `quarry: configuration: ${error.message}`;
  if (error instanceof AppError) return `quarry: ${error.code}: ${error.message}`;
  if (error instanceof MigrationError) return `quarry: ${error.message}`;
  if (error instanceof ImportError || error instanceof SourceError) {
    return `quarry: load failed, nothing of the file was kept: ${error.message}`;
  }
  const errno = error as NodeJS.ErrnoException;
  if (errno?.code === 'ENOENT' && errno.path) return `quarry: no such file: ${errno.path}`;
  if (error instanceof Error && 'code' in error && error.code === 'ECONNREFUSED') {
    return `quarry: cannot reach the store: ${error.message}`;
  }
  return `quarry: unexpected failure: ${error instanceof Error ? error.message : String(error)}`;
}
