// What the app runs on, chosen once at start-up from the config: the store engine and the counters.
import { UsageBuffer } from '../accounts/usage.js';
import { type Counters, createCounters } from '../limits/counters.js';
import { type CreditStore, createCreditStore } from '../store/credits.js';
import { openStore, type Store } from '../store/engine.js';
import { migrate } from '../store/migrate.js';
import { storeSecret } from '../store/secrets.js';
import type { Config } from './config.js';

export interface Deps {
  store: Store;
  credits: CreditStore;
  counters: Counters;
  usage: UsageBuffer;
  /** Signs cursors; the same for every process on the store. */
  cursorSecret: string;
  clock: () => Date;
  close(): Promise<void>;
}

export interface DepsOptions {
  clock?: () => Date;
}

export async function createDeps(config: Config, options: DepsOptions = {}): Promise<Deps> {
  const store = openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  let cursorSecret: string;
  try {
    await migrate(store);
    cursorSecret = await storeSecret(store.db, 'cursor_secret');
  } catch (error) {
    await store.close();
    throw error;
  }
  const counters = createCounters(config.redisUrl);
  const usage = new UsageBuffer(store.db);
  return {
    store,
    credits: createCreditStore(store),
    counters,
    usage,
    cursorSecret,
    clock: options.clock ?? (() => new Date()),
    async close() {
      await usage.close();
      await counters.close();
      await store.close();
    },
  };
}
