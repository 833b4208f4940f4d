// The one place implementations are chosen: the store engine, the counters and the market provider, from the
// config. The server, the CLI, the tests and the benchmarks all build Deps here.
import type { Config } from '../kernel/config.js';
import type { Deps } from '../kernel/deps.js';
import type { MarketProvider } from '../kernel/market-provider.js';
import type { Counters } from '../limits/counters.js';
import { MemoryCounters } from '../limits/memory.js';
import type { CreditStore } from '../store/credits.js';
import { PostgresCredits } from '../store/credits-postgres.js';
import { SqliteCredits } from '../store/credits-sqlite.js';
import { openStore, type Store } from '../store/engine.js';
import { migrate } from '../store/migrate.js';
import { storeSecret } from '../store/secrets.js';
import { UsageBuffer } from '../store/usage-buffer.js';
import { systemClock } from './clock.js';
import { createMailer } from './mailers.js';
import { createMarketProvider } from './market.js';
import { MIGRATIONS } from './migrations.js';
import { createTelemetry } from './telemetry.js';

export type { Deps };

export interface DepsOptions {
  clock?: () => Date;
  /** Told of each failed market upstream call (the answer goes on with what is held): the server logs it. */
  onUpstreamError?: (what: string, error: unknown) => void;
  /**
   * The market data held in the store alone, whatever QUARRY_MARKET_UPSTREAM says: for a command that serves
   * no market data (the admin commands), which then loads none of the upstreams' clients.
   */
  storedMarketOnly?: boolean;
}

export async function createDeps(config: Config, options: DepsOptions = {}): Promise<Deps> {
  const store = openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const clock = options.clock ?? systemClock;
  let cursorSecret: string;
  let consoleSecret: string;
  let market: MarketProvider;
  try {
    await migrate(store, MIGRATIONS);
    cursorSecret = await storeSecret(store.db, 'cursor_secret');
    consoleSecret = await storeSecret(store.db, 'console_secret');
  } catch (error) {
    await store.close();
    throw error;
  }
  const counters = await createCounters(config.redisUrl, () => clock().getTime());
  try {
    market = await createMarketProvider(
      options.storedMarketOnly ? { ...config, market: { ...config.market, upstream: 'none' } } : config,
      store,
      counters,
      clock,
      options.onUpstreamError ?? (() => {}),
    );
  } catch (error) {
    await counters.close();
    await store.close();
    throw error;
  }
  const usage = new UsageBuffer(store.db);
  const mailer = await createMailer(config.smtpUrl, config.mailFrom, config.dataDir);
  const telemetry = createTelemetry(store.db);
  return {
    config,
    store,
    credits: createCreditStore(store),
    counters,
    usage,
    market,
    telemetry,
    cursorSecret,
    consoleSecret,
    mailer,
    clock,
    async close() {
      await mailer.close();
      await usage.close();
      await counters.close();
      await store.close();
      telemetry.close();
    },
  };
}

/** Redis's client is loaded only where REDIS_URL names a server. */
async function createCounters(redisUrl: string | null, now: () => number): Promise<Counters> {
  if (!redisUrl) return new MemoryCounters(now);
  const { RedisCounters } = await import('../limits/redis.js');
  return new RedisCounters(redisUrl, now);
}

function createCreditStore(store: Store): CreditStore {
  return store.engine === 'sqlite' ? new SqliteCredits(store.sqlite) : new PostgresCredits(store.pool);
}
