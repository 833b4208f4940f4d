// What a live market source answers. The live provider asks it for what the store does not hold, and keeps
// the answers in the market cache; Yahoo Finance is the one implementation (yahoo.ts).
import type { Bar, ProviderQuote } from '../../kernel/market-provider.js';

/** Quote symbols one upstream call carries at most. */
export const QUOTES_PER_CALL = 100;

/** Fields of a symbol beyond its quote (profile, estimates, key statistics), prices in main units. */
export interface Summary {
  asOf: string;
  fields: Record<string, number | string | null>;
}

/** An instrument the upstream's search found. */
export interface Found {
  symbol: string;
  name: string;
  exchange: string;
  type: string;
}

export interface Upstream {
  readonly name: string;
  /** The field ids its plain quote answers; others need the summary. */
  readonly quoteFields: ReadonlySet<string>;
  /** Quotes of up to 100 symbols in one call; unknown symbols are absent from the map. */
  quotes(symbols: string[]): Promise<Map<string, ProviderQuote>>;
  /** Daily bars from a date (YYYY-MM-DD) to today, split-adjusted, oldest first. */
  bars(symbol: string, from: string): Promise<Bar[]>;
  /** Profile, estimates and key statistics (short interest among them); null when the symbol is unknown. */
  summary(symbol: string): Promise<Summary | null>;
  search(query: string): Promise<Found[]>;
}
