// Migrations, the same on both engines, each declared by the module whose tables it shapes: the store's own
// (accounts, usage, jobs, bulk downloads, settings) here, the market's, EDGAR's (ingest/sec/) and each dataset's
// in their folders. An owner's
// migrations run in the order it lists them, owners in the order the composition root (runtime/) hands them
// over; a new one is named `owner/what` and added at the end of its owner's list, with no number to pick.
// Those that landed with a number (`006-awards`) keep it: a store records migrations by name. A landed
// migration is never edited in what it does to a store that ran it.
import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { Engine, Store } from './engine.js';
import * as m001 from './migrations/001-accounts.js';
import * as m005 from './migrations/005-dataset-versions.js';
import * as m009 from './migrations/009-source-files.js';
import * as m014 from './migrations/014-unit-usage.js';
import * as m015 from './migrations/015-fetches.js';
import * as m016 from './migrations/016-jobs.js';
import * as m020 from './migrations/020-console.js';
import * as m035 from './migrations/035-bulk-downloads.js';
import * as accountsFile from './migrations/accounts-file.js';
import * as bulkDownloadClaims from './migrations/bulk-download-claims.js';
import * as settings from './migrations/settings.js';

export type EngineMigration = { up(db: Kysely<unknown>, engine: Engine): Promise<void> };

/** An owner's migrations by name, in the order they run. */
export type Migrations = Readonly<Record<string, EngineMigration>>;

export const STORE_MIGRATIONS: Migrations = {
  '001-accounts': m001,
  '005-dataset-versions': m005,
  '009-source-files': m009,
  '014-unit-usage': m014,
  '015-fetches': m015,
  '016-jobs': m016,
  '020-console': m020,
  '035-bulk-downloads': m035,
  'store/settings': settings,
  'store/bulk-download-claims': bulkDownloadClaims,
  'store/accounts-file': accountsFile,
};

/**
 * The owners' lists as one, in run order; a name declared twice is refused. The order of the result is the
 * order the migrator runs what a store has not applied yet.
 */
export function ownedMigrations(owners: readonly { owner: string; migrations: Migrations }[]): Migrations {
  const out: Record<string, EngineMigration> = {};
  for (const { owner, migrations } of owners)
    for (const [name, migration] of Object.entries(migrations)) {
      if (out[name]) throw new Error(`migration ${name} is declared twice (the second by ${owner})`);
      out[name] = migration;
    }
  return out;
}

class StaticProvider implements MigrationProvider {
  constructor(
    private readonly engine: Engine,
    private readonly migrations: Migrations,
  ) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    for (const [name, migration] of Object.entries(this.migrations)) {
      out[name] = { up: (db) => migration.up(db, this.engine) };
    }
    return out;
  }
}

export class MigrationError extends Error {}

function migratorOf(store: Store, migrations: Migrations): Migrator {
  return new Migrator({
    db: store.db,
    provider: new StaticProvider(store.engine, migrations),
    // The migrator runs what is pending in name order; migrate() hands it one stretch at a time so that the
    // owners' order holds, and a migration new to one owner may follow another owner's applied ones.
    allowUnorderedMigrations: true,
    migrationTableName: 'quarry_migrations',
    migrationLockTableName: 'quarry_migrations_lock',
  });
}

/** The migrations this code knows that the store has not applied yet, in the order they run. */
export async function pendingMigrations(store: Store, migrations: Migrations): Promise<string[]> {
  const known = await migratorOf(store, migrations).getMigrations();
  const applied = new Set(known.filter((m) => m.executedAt !== undefined).map((m) => m.name));
  return Object.keys(migrations).filter((name) => !applied.has(name));
}

/**
 * Brings the store to the newest schema; returns the names applied now, in the order they ran. Throws on any
 * failure. Each step hands the migrator what the store has applied and the next stretch of pending migrations
 * whose names are in the order they are to run; another instance migrating the same store meanwhile is kept
 * out by the migrator's lock, and what it applied is not pending at the next step.
 */
export async function migrate(store: Store, migrations: Migrations): Promise<string[]> {
  const ran: string[] = [];
  let before: string | undefined;
  for (;;) {
    const pending = await pendingMigrations(store, migrations);
    if (pending.length === 0) return ran;
    if (pending[0] === before) throw new MigrationError(`migration ${before} did not run`);
    before = pending[0];
    let end = 1;
    while (end < pending.length && (pending[end] as string) > (pending[end - 1] as string)) end += 1;
    const pendingSet = new Set(pending);
    const step = Object.fromEntries(
      Object.entries(migrations).filter(([name]) => !pendingSet.has(name) || pending.indexOf(name) < end),
    );
    const { error, results = [] } = await migratorOf(store, step).migrateToLatest();
    const failed = results.find((r) => r.status === 'Error');
    if (error || failed) {
      const cause = error instanceof Error ? error.message : String(error ?? '');
      throw new MigrationError(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${cause}`);
    }
    ran.push(...results.filter((r) => r.status === 'Success').map((r) => r.migrationName));
  }
}
