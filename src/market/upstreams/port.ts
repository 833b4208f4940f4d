// What a market upstream is: a vendor Quarry fetches live data from, declared in its own folder (its client, what
// it serves, how it writes a ticker, its allowance, its key) and listed once in registry.ts. The live provider
// asks them through chain.ts, in the order the operator configures.
import type { UpstreamConfig, UpstreamSettings } from '../../kernel/config.js';
import type { ProviderQuote, StatementFact } from '../../kernel/market-provider.js';
import type { Counters } from '../../limits/counters.js';
import type { MarketCache } from '../providers/cache.js';
import type { DailyHistory, Found, Summary } from '../providers/upstream.js';

/** What an upstream's client is made with besides its own configuration. */
export interface UpstreamContext {
  /** The store's market cache: what every instance shares (a vendor's pause among it). */
  cache: MarketCache;
  /** The shared counters (Redis when configured): each vendor's calls a minute and a day. */
  counters: Counters;
  clock: () => Date;
  /** How long one call may run before it is abandoned. */
  timeoutMs: number;
  /** Calls in flight at once, per process. */
  concurrency: number;
}

/** What an upstream answers; each verb it lacks is asked of the next upstream in the order. */
export interface Vendor {
  readonly name: string;
  /** Whether it knows a listing at all (its markets and asset types), by provider symbol. */
  covers(symbol: string): boolean;
  /** The field ids its quote answers. */
  readonly quoteFields?: ReadonlySet<string>;
  /** Quotes of the symbols it knows; unknown ones are absent from the map. */
  quotes?(symbols: string[]): Promise<Map<string, ProviderQuote>>;
  /** Daily bars from a date to today, split-adjusted (today's shares), and the actions it knows among them. */
  bars?(symbol: string, from: string): Promise<DailyHistory>;
  summary?(symbol: string): Promise<Summary | null>;
  search?(query: string): Promise<Found[]>;
  statements?(symbol: string): Promise<Map<string, StatementFact[]>>;
}

export interface UpstreamDeclaration {
  settings: UpstreamSettings;
  /** What it serves, in words, for the operator's documentation. */
  serves: string;
  make(config: UpstreamConfig, context: UpstreamContext): Vendor | Promise<Vendor>;
}
