// Numbered migrations, the same on both engines. A landed migration is never edited: add the next number.
// The store's own (accounts, the market, tables several datasets share) are here; each dataset's live in its
// folder, and the composition root (runtime/) hands the whole list to migrate(), which runs it in name order.
import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { Engine, Store } from './engine.js';
import * as m001 from './migrations/001-accounts.js';
import * as m005 from './migrations/005-dataset-versions.js';
import * as m006 from './migrations/006-awards.js';
import * as m007 from './migrations/007-filings.js';
import * as m009 from './migrations/009-source-files.js';
import * as m011 from './migrations/011-market.js';
import * as m012 from './migrations/012-statements.js';
import * as m013 from './migrations/013-market-facts.js';
import * as m014 from './migrations/014-unit-usage.js';
import * as m015 from './migrations/015-fetches.js';
import * as m016 from './migrations/016-jobs.js';
import * as m017 from './migrations/017-registrants.js';
import * as m020 from './migrations/020-console.js';
import * as m022 from './migrations/022-market-cache.js';
import * as m025 from './migrations/025-statement-concepts.js';
import * as m031 from './migrations/031-registrants-known-at.js';
import * as m032 from './migrations/032-statement-first-report.js';
import * as m034 from './migrations/034-statement-reports.js';
import * as m035 from './migrations/035-bulk-downloads.js';
import * as m043 from './migrations/043-registrants-known-from.js';
import * as m045 from './migrations/045-market-listings.js';

export type EngineMigration = { up(db: Kysely<unknown>, engine: Engine): Promise<void> };

/** Migrations by name: their numbers order them across the store's and the datasets' folders. */
export type Migrations = Readonly<Record<string, EngineMigration>>;

export const STORE_MIGRATIONS: Migrations = {
  '001-accounts': m001,
  '005-dataset-versions': m005,
  '006-awards': m006,
  '007-filings': m007,
  '009-source-files': m009,
  '011-market': m011,
  '012-statements': m012,
  '013-market-facts': m013,
  '014-unit-usage': m014,
  '015-fetches': m015,
  '016-jobs': m016,
  '017-registrants': m017,
  '020-console': m020,
  '022-market-cache': m022,
  '025-statement-concepts': m025,
  '031-registrants-known-at': m031,
  '032-statement-first-report': m032,
  '034-statement-reports': m034,
  '035-bulk-downloads': m035,
  '043-registrants-known-from': m043,
  '045-market-listings': m045,
};

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
    migrationTableName: 'quarry_migrations',
    migrationLockTableName: 'quarry_migrations_lock',
  });
}

/** The migrations this code knows that the store has not applied yet. */
export async function pendingMigrations(store: Store, migrations: Migrations): Promise<string[]> {
  const known = await migratorOf(store, migrations).getMigrations();
  return known.filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/** Brings the store to the newest schema; returns the names applied now. Throws on any failure. */
export async function migrate(store: Store, migrations: Migrations): Promise<string[]> {
  const migrator = migratorOf(store, migrations);
  const { error, results = [] } = await migrator.migrateToLatest();
  const failed = results.find((r) => r.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error.message : String(error ?? '');
    throw new MigrationError(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${cause}`);
  }
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
