// A consistent copy of a serving embedded store: each of its two files written by `VACUUM INTO` in one read
// transaction of its own, so a server answering and a load writing beside it neither wait for the copy nor
// change what it holds. Starting a server on the folder of the copy answers what the store held then.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Store } from './engine.js';
import { ACCOUNTS_SCHEMA } from './sqlite-locks.js';

export interface BackupReport {
  folder: string;
  files: { name: string; bytes: number }[];
  seconds: number;
}

/** The files of a copy, as an embedded store names them in its folder. */
const COPIES = [
  { schema: 'main', name: 'quarry.db' },
  { schema: ACCOUNTS_SCHEMA, name: 'accounts.db' },
] as const;

export class BackupRefused extends Error {}

/** Copies the embedded store into `folder` (made if need be; it must hold no store already). */
export function backupStore(store: Store, folder: string): BackupReport {
  if (store.engine !== 'sqlite')
    throw new BackupRefused(
      'quarry backup copies the embedded store; back PostgreSQL up with pg_dump or its base backups (docs/operations.md)',
    );
  const started = performance.now();
  mkdirSync(folder, { recursive: true });
  const held = COPIES.filter(({ name }) => existsSync(path.join(folder, name)));
  if (held.length > 0)
    throw new BackupRefused(
      `${folder} holds a store already (${held.map((c) => c.name).join(', ')}): give an empty folder`,
    );
  const files = COPIES.map(({ schema, name }) => {
    const file = path.join(folder, name);
    store.sqlite.prepare(`VACUUM ${schema} INTO ?`).run(file);
    return { name, bytes: statSync(file).size };
  });
  return { folder, files, seconds: Math.round((performance.now() - started) / 100) / 10 };
}
