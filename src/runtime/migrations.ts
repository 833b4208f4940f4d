// Every migration the store runs: the store's own and those each dataset declares in its folder, handed to
// the store's migrator, which runs them in the order of their numbers.
import { DATASETS } from '../datasets/registry.js';
import { type Migrations, STORE_MIGRATIONS } from '../store/migrate.js';

function allMigrations(): Migrations {
  const out = { ...STORE_MIGRATIONS };
  for (const dataset of DATASETS) {
    for (const [name, migration] of Object.entries(dataset.migrations ?? {})) {
      if (out[name]) throw new Error(`migration ${name} is declared twice (dataset ${dataset.id})`);
      out[name] = migration;
    }
  }
  return out;
}

export const MIGRATIONS: Migrations = allMigrations();
