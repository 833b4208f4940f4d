// The market provider chosen once at start-up: the stored data alone (QUARRY_MARKET_UPSTREAM=none), or the
// stored data with Yahoo Finance filling the rest through the market cache.
import type { Config } from '../kernel/config.js';
import type { MarketProvider } from '../kernel/market-provider.js';
import { MarketCache } from '../market/providers/cache.js';
import { LiveProvider } from '../market/providers/live.js';
import { StoredProvider } from '../market/providers/stored.js';
import { YahooUpstream } from '../market/providers/yahoo.js';
import type { Store } from '../store/engine.js';

const COOKIES_KEY = 'yahoo:cookies';
const DAY_MS = 86_400_000;

export async function createMarketProvider(
  config: Config,
  store: Store,
  clock: () => Date,
  onError: (what: string, error: unknown) => void,
): Promise<MarketProvider> {
  const stored = new StoredProvider(store.db);
  const market = config.market;
  if (market.upstream === 'none') return stored;
  const cache = new MarketCache(store.db, clock);
  const cookies = await cache.get<string>(COOKIES_KEY);
  const upstream = new YahooUpstream({
    baseUrl: market.yahooUrl,
    timeoutMs: market.upstreamTimeoutMs,
    concurrency: market.upstreamConcurrency,
    cookies: cookies?.value ?? null,
    saveCookies: (json) => cache.put(COOKIES_KEY, json, 365 * DAY_MS),
    now: () => clock().getTime(),
  });
  return new LiveProvider(stored, upstream, cache, {
    quoteFreshMs: market.quoteFreshMs,
    quoteClosedFreshMs: market.quoteClosedFreshMs,
    barsFreshMs: market.quoteClosedFreshMs,
    summaryFreshMs: DAY_MS,
    now: clock,
    onError,
  });
}
