// Numbered migrations, the same on both engines. A landed migration is never edited: add the next number.
import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { Engine, Store } from './engine.js';
import * as m001 from './migrations/001-accounts.js';
import * as m002 from './migrations/002-cot.js';
import * as m003 from './migrations/003-energy.js';
import * as m004 from './migrations/004-cpi.js';
import * as m005 from './migrations/005-dataset-versions.js';
import * as m006 from './migrations/006-awards.js';
import * as m007 from './migrations/007-filings.js';
import * as m008 from './migrations/008-kpis.js';
import * as m009 from './migrations/009-source-files.js';
import * as m010 from './migrations/010-cpi-series.js';
import * as m011 from './migrations/011-market.js';
import * as m012 from './migrations/012-statements.js';
import * as m013 from './migrations/013-market-facts.js';
import * as m014 from './migrations/014-unit-usage.js';
import * as m015 from './migrations/015-fetches.js';
import * as m016 from './migrations/016-jobs.js';
import * as m017 from './migrations/017-registrants.js';
import * as m018 from './migrations/018-guidance-range.js';
import * as m019 from './migrations/019-award-details.js';
import * as m020 from './migrations/020-console.js';
import * as m021 from './migrations/021-award-indexes.js';
import * as m022 from './migrations/022-market-cache.js';
import * as m023 from './migrations/023-award-filter-indexes.js';
import * as m024 from './migrations/024-award-words-in-memory.js';
import * as m025 from './migrations/025-statement-concepts.js';

type EngineMigration = { up(db: Kysely<unknown>, engine: Engine): Promise<void> };

const MIGRATIONS: Record<string, EngineMigration> = {
  '001-accounts': m001,
  '002-cot': m002,
  '003-energy': m003,
  '004-cpi': m004,
  '005-dataset-versions': m005,
  '006-awards': m006,
  '007-filings': m007,
  '008-kpis': m008,
  '009-source-files': m009,
  '010-cpi-series': m010,
  '011-market': m011,
  '012-statements': m012,
  '013-market-facts': m013,
  '014-unit-usage': m014,
  '015-fetches': m015,
  '016-jobs': m016,
  '017-registrants': m017,
  '018-guidance-range': m018,
  '019-award-details': m019,
  '020-console': m020,
  '021-award-indexes': m021,
  '022-market-cache': m022,
  '023-award-filter-indexes': m023,
  '024-award-words-in-memory': m024,
  '025-statement-concepts': m025,
};

class StaticProvider implements MigrationProvider {
  constructor(private readonly engine: Engine) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    for (const [name, migration] of Object.entries(MIGRATIONS)) {
      out[name] = { up: (db) => migration.up(db, this.engine) };
    }
    return out;
  }
}

export class MigrationError extends Error {}

function migratorOf(store: Store): Migrator {
  return new Migrator({
    db: store.db,
    provider: new StaticProvider(store.engine),
    migrationTableName: 'quarry_migrations',
    migrationLockTableName: 'quarry_migrations_lock',
  });
}

/** The migrations this code knows that the store has not applied yet. */
export async function pendingMigrations(store: Store): Promise<string[]> {
  const known = await migratorOf(store).getMigrations();
  return known.filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/** Brings the store to the newest schema; returns the names applied now. Throws on any failure. */
export async function migrate(store: Store): Promise<string[]> {
  const migrator = migratorOf(store);
  const { error, results = [] } = await migrator.migrateToLatest();
  const failed = results.find((r) => r.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error.message : String(error ?? '');
    throw new MigrationError(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${cause}`);
  }
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
