// Admin commands print exactly one JSON object on stdout; messages go to stderr.

import { ImportError, keptBefore } from '../ingest/import.js';
import { SourceError } from '../ingest/source.js';
import { ConfigError } from '../kernel/config.js';
import { AppError } from '../kernel/errors.js';
import { BackupRefused } from '../store/backup.js';
import { MigrationError } from '../store/migrate.js';
import { LOCKED_FOR_MS, StoreLocked } from '../store/sqlite-locks.js';
import { UsageError } from './usage-error.js';

export { UsageError };

export function printResult(value: object): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function say(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** What stays as it was when a command that changes something could not make its change. */
const STILL: Readonly<Record<string, string>> = {
  'keys revoke': 'the key is still live',
  'keys create': 'no key was made',
  'accounts set-balance': 'the balance is as it was',
  'accounts set-plan': 'the plan and the balance are as they were',
  'accounts set-contract': 'the contract and the balance are as they were',
};

/** A clear one-line message; no stack traces on the terminal. `argv`: the command that failed. */
export function explain(error: unknown, argv: readonly string[] = []): string {
  if (error instanceof StoreLocked) {
    const command = argv.slice(0, 2).join(' ');
    const still = STILL[command] ?? 'nothing was changed';
    return `quarry: ${command || 'the command'} did not happen: another process held the store's lock for ${LOCKED_FOR_MS / 1000} s, so ${still}. Run the command again.`;
  }
  if (error instanceof UsageError) return `quarry: ${error.message}\nRun "quarry help" for the commands.`;
  if (error instanceof ConfigError) return `quarry: configuration: ${error.message}`;
  if (error instanceof AppError) return `quarry: ${error.code}: ${error.message}`;
  if (error instanceof MigrationError || error instanceof BackupRefused) return `quarry: ${error.message}`;
  if (error instanceof ImportError || error instanceof SourceError) {
    // A sliced load's message says itself what was committed before the failure.
    if (keptBefore(error) > 0) return `quarry: load failed part way: ${error.message}`;
    return `quarry: load failed, nothing of the file was kept: ${error.message}`;
  }
  const errno = error as NodeJS.ErrnoException;
  if (errno?.code === 'ENOENT' && errno.path) return `quarry: no such file: ${errno.path}`;
  if (error instanceof Error && 'code' in error && error.code === 'ECONNREFUSED') {
    return `quarry: cannot reach the store: ${error.message}`;
  }
  return `quarry: unexpected failure: ${error instanceof Error ? error.message : String(error)}`;
}
