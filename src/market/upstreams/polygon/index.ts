// Polygon.io (now Massive): daily aggregates of US listings, split-adjusted (`adjusted=true` adjusts for splits
// only: AAPL's close of 2023-01-03 is its traded 125.07), and the newest bid and ask (its NBBO quotes: no last
// price, so it gives a quote's bid and ask beside another upstream's price). Its dividends and splits are not
// read here, so its bars leave a listing's actions unknown. The key goes in the query (`apiKey`), as Polygon
// takes it.
import type { Bar, ProviderQuote } from '../../../kernel/market-provider.js';
import type { DailyHistory } from '../../providers/upstream.js';
import type { UpstreamDeclaration, Vendor } from '../port.js';
import { today, UsVendor } from '../us.js';

/** One of Polygon's NBBO quotes: prices in dollars, the SIP's time in nanoseconds. */
interface Nbbo {
  bid_price?: number;
  ask_price?: number;
  sip_timestamp?: number;
}

/** The newest NBBO quote as a quote's bid and ask; null without a time or either price. */
export function polygonQuote(symbol: string, nbbo: Nbbo | undefined): ProviderQuote | null {
  if (!nbbo?.sip_timestamp) return null;
  const fields: ProviderQuote['fields'] = {};
  if (typeof nbbo.bid_price === 'number') fields.bid = nbbo.bid_price;
  if (typeof nbbo.ask_price === 'number') fields.ask = nbbo.ask_price;
  if (Object.keys(fields).length === 0) return null;
  return {
    symbol,
    name: symbol,
    currency: 'USD',
    exchange: '',
    assetType: 'equity',
    // Nanoseconds past the epoch: milliseconds are exact enough, and within a double's range.
    asOf: new Date(Math.floor(nbbo.sip_timestamp / 1e6)).toISOString(),
    fields,
  };
}

interface Aggregate {
  t: number;
  o?: number;
  h?: number;
  l?: number;
  c?: number;
  v?: number;
}

/** Polygon writes a share class with a dot (BRK.B), the service with a hyphen (BRK-B). */
const polygonTicker = (symbol: string) => symbol.replace('-', '.');

/** An aggregate's day: its start is midnight in New York, so noon after it is the same date at UTC. */
const dayOf = (t: number) => new Date(t + 12 * 3_600_000).toISOString().slice(0, 10);

class Polygon extends UsVendor implements Vendor {
  readonly name = 'polygon';
  readonly quoteFields = new Set(['bid', 'ask']);

  /** The newest NBBO quote of each symbol: a call each. */
  async quotes(symbols: string[]): Promise<Map<string, ProviderQuote>> {
    const out = new Map<string, ProviderQuote>();
    for (const symbol of symbols) {
      const path = `/v3/quotes/${encodeURIComponent(polygonTicker(symbol))}`;
      const query = { order: 'desc', sort: 'timestamp', limit: '1', apiKey: this.config.key ?? '' };
      const body = (await this.http.json(path, query)) as { results?: Nbbo[] } | null;
      const quote = polygonQuote(symbol, body?.results?.[0]);
      if (quote) out.set(symbol, quote);
    }
    return out;
  }

  async bars(symbol: string, from: string): Promise<DailyHistory> {
    const path = `/v2/aggs/ticker/${encodeURIComponent(polygonTicker(symbol))}/range/1/day/${from}/${today(this.context.clock)}`;
    const query = { adjusted: 'true', sort: 'asc', limit: '50000', apiKey: this.config.key ?? '' };
    const body = (await this.http.json(path, query)) as { results?: Aggregate[] } | null;
    const bars: Bar[] = (body?.results ?? []).flatMap((a) =>
      typeof a.c === 'number'
        ? [
            {
              date: dayOf(a.t),
              open: a.o ?? null,
              high: a.h ?? null,
              low: a.l ?? null,
              close: a.c,
              volume: a.v ?? null,
            },
          ]
        : [],
    );
    return { bars, actions: [], known: [] };
  }
}

export const POLYGON: UpstreamDeclaration = {
  settings: {
    name: 'polygon',
    keyVariable: 'POLYGON_API_KEY',
    urlVariable: 'QUARRY_POLYGON_URL',
    url: 'https://api.polygon.io',
    // Polygon's free plan: five calls a minute.
    perMinute: 5,
    perDay: 100_000,
  },
  serves:
    'daily bars of US listings, split-adjusted (its dividends and splits are not read: actions stay unknown), and their newest bid and ask',
  make: (config, context) => new Polygon(config, context),
};
