// What every verb runs on, chosen once at start-up (src/runtime/deps.ts) and passed as the first argument.
// Its members are the infrastructure below the domains: the store, the counters, the market provider.
import type { Counters } from '../limits/counters.js';
import type { CreditStore } from '../store/credits.js';
import type { Store } from '../store/engine.js';
import type { UsageBuffer } from '../store/usage-buffer.js';
import type { Config } from './config.js';
import type { Mailer } from './mailer.js';
import type { MarketProvider } from './market-provider.js';
import type { Telemetry } from './telemetry.js';

export interface Deps {
  config: Config;
  store: Store;
  credits: CreditStore;
  counters: Counters;
  usage: UsageBuffer;
  /** Where market data comes from: the stored provider, or an upstream composed over it. */
  market: MarketProvider;
  /** What the service counts about itself (metrics). */
  telemetry: Telemetry;
  /** Signs cursors; the same for every process on the store. */
  cursorSecret: string;
  /** Signs the console's sessions, forms and emailed links; the same for every process on the store. */
  consoleSecret: string;
  /** The console's confirmation and reset mail. */
  mailer: Mailer;
  clock: () => Date;
  close(): Promise<void>;
}
