// Every migration the store runs, owner by owner: the store's own, the market's, EDGAR's (the tables the EDGAR
// datasets share), then each dataset's from its folder in the registry's order. The migrator runs what a store has not applied in this order.
import { DATASETS } from '../datasets/registry.js';
import { SEC_MIGRATIONS } from '../ingest/sec/migrations.js';
import { MARKET_MIGRATIONS } from '../market/migrations/index.js';
import { type Migrations, ownedMigrations, STORE_MIGRATIONS } from '../store/migrate.js';

export const MIGRATIONS: Migrations = ownedMigrations([
  { owner: 'store', migrations: STORE_MIGRATIONS },
  { owner: 'market', migrations: MARKET_MIGRATIONS },
  { owner: 'sec', migrations: SEC_MIGRATIONS },
  ...DATASETS.map((d) => ({ owner: d.id, migrations: d.migrations ?? {} })),
]);
