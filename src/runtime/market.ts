// The market provider chosen once at start-up: the stored data alone (QUARRY_MARKET_UPSTREAM=none), or the
// stored data with the configured upstreams (licensed vendors, Yahoo) filling the rest through the market cache
// in the operator's order, SEC EDGAR the statements of US listings when an operator contact is configured, and
// OpenFIGI the listings' FIGIs.

import { rateSeries } from '../datasets/rates/series.js';
import type { Config } from '../kernel/config.js';
import type { MarketProvider } from '../kernel/market-provider.js';
import type { Counters } from '../limits/counters.js';
import { OfficialSeriesProvider } from '../market/providers/official.js';
import { StoredProvider } from '../market/providers/stored.js';
import type { Store } from '../store/engine.js';

const DAY_MS = 86_400_000;

export async function createMarketProvider(
  config: Config,
  store: Store,
  counters: Counters,
  clock: () => Date,
  onError: (what: string, error: unknown) => void,
): Promise<MarketProvider> {
  const stored = new StoredProvider(store.db);
  const market = config.market;
  if (market.upstream === 'none') return withTreasury(stored, store);
  // The live path (Yahoo's client, EDGAR's) is loaded only by a process that serves it.
  const [
    { MarketCache },
    { LiveProvider },
    { SecStatements },
    { UPSTREAMS },
    { UpstreamChain },
    { userAgent },
    { SecClient },
    { OpenFigi },
    { disputeRecorder },
  ] = await Promise.all([
    import('../market/providers/cache.js'),
    import('../market/providers/live.js'),
    import('../market/providers/sec.js'),
    import('../market/upstreams/registry.js'),
    import('../market/upstreams/chain.js'),
    import('../ingest/collect.js'),
    import('../ingest/sec/client.js'),
    import('../market/providers/openfigi.js'),
    import('../market/providers/disputes.js'),
  ]);
  const cache = new MarketCache(store.db, clock);
  const context = {
    cache,
    counters,
    clock,
    timeoutMs: market.upstreamTimeoutMs,
    concurrency: market.upstreamConcurrency,
  };
  const vendors = await Promise.all(
    market.upstreams.flatMap((configured) => {
      const declared = UPSTREAMS.find((u) => u.settings.name === configured.name);
      return declared ? [declared.make(configured, context)] : [];
    }),
  );
  const upstream = new UpstreamChain(
    vendors,
    onError,
    market.secondOpinionDays > 0
      ? { days: market.secondOpinionDays, record: disputeRecorder(store.db, clock) }
      : null,
  );
  // SEC EDGAR asks every client to name itself: with no contact configured, statements come from Yahoo alone.
  const filings = config.contact
    ? new SecStatements(
        Object.assign(new SecClient({ config, counters }), { userAgent: userAgent(config.contact) }),
        cache,
        market.upstreamTimeoutMs,
        context,
      )
    : null;
  const live = new LiveProvider(
    stored,
    upstream,
    cache,
    {
      quoteFreshMs: market.quoteFreshMs,
      quoteClosedFreshMs: market.quoteClosedFreshMs,
      barsFreshMs: market.quoteClosedFreshMs,
      summaryFreshMs: DAY_MS,
      now: clock,
      onError,
    },
    filings,
    market.openFigiUrl
      ? new OpenFigi(
          { baseUrl: market.openFigiUrl, apiKey: market.openFigiKey, timeoutMs: market.upstreamTimeoutMs },
          context,
        )
      : null,
  );
  return withTreasury(live, store);
}

/** Treasury's 2-year par yield and 13-week bill (USGG2YR Index, USGG3M Index) from the treasury-rates dataset. */
function withTreasury(provider: MarketProvider, store: Store): MarketProvider {
  const treasury = (name: string, series: 'par' | 'bill-coupon', tenor: string) => ({
    name,
    publisher: 'U.S. Treasury',
    read: () => rateSeries(store.db, series, tenor),
  });
  return new OfficialSeriesProvider(
    provider,
    new Map([
      ['^UST2Y', treasury('US Treasury 2-year par yield', 'par', '2Y')],
      ['^UST13W', treasury('US Treasury 13-week bill, coupon equivalent', 'bill-coupon', '13W')],
    ]),
  );
}
