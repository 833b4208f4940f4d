// Financial Modeling Prep (its `stable` API): quotes, end-of-day prices (split-adjusted, newest first), the
// dividends (split-adjusted in `adjDividend`) and a company profile, of US listings. The key goes in the query
// (`apikey`), as FMP takes it.
import type { Bar, CorporateAction, ProviderQuote } from '../../../kernel/market-provider.js';
import type { DailyHistory, Summary } from '../../providers/upstream.js';
import type { UpstreamDeclaration, Vendor } from '../port.js';
import { today, UsVendor } from '../us.js';

type Row = Record<string, unknown>;

const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

/** FMP's quote fields, as the service's field ids. */
const QUOTE_FIELDS: [string, string][] = [
  ['price', 'price'],
  ['open', 'open'],
  ['dayHigh', 'high'],
  ['dayLow', 'low'],
  ['volume', 'volume'],
  ['previousClose', 'previousClose'],
  ['change', 'change'],
  ['changePercentage', 'changePercent'],
  ['yearHigh', 'high52w'],
  ['yearLow', 'low52w'],
  ['marketCap', 'marketCap'],
];

/** FMP's profile fields, as the service's field ids. */
const PROFILE_FIELDS: [string, string][] = [
  ['sector', 'sector'],
  ['industry', 'industry'],
  ['marketCap', 'marketCap'],
];

export function fmpQuote(row: Row): ProviderQuote | null {
  const symbol = str(row.symbol);
  const time = num(row.timestamp);
  if (!symbol || time === null || num(row.price) === null) return null;
  const fields: ProviderQuote['fields'] = {};
  for (const [from, to] of QUOTE_FIELDS) if (num(row[from]) !== null) fields[to] = num(row[from]);
  return {
    symbol,
    name: str(row.name) ?? symbol,
    // The listings it serves here are US listings, quoted in dollars.
    currency: 'USD',
    exchange: str(row.exchange) ?? '',
    assetType: 'equity',
    asOf: new Date(time * 1000).toISOString(),
    fields,
  };
}

/** End-of-day rows (any order) as bars, oldest first. */
export function fmpBars(rows: readonly Row[]): Bar[] {
  return rows
    .flatMap((r): Bar[] => {
      const date = str(r.date)?.slice(0, 10);
      const close = num(r.close);
      return date && close !== null
        ? [{ date, open: num(r.open), high: num(r.high), low: num(r.low), close, volume: num(r.volume) }]
        : [];
    })
    .sort((a, b) => (a.date < b.date ? -1 : 1));
}

/** Dividend rows as actions in today's shares, oldest first. */
export function fmpDividends(rows: readonly Row[]): CorporateAction[] {
  return rows
    .flatMap((r): CorporateAction[] => {
      const date = str(r.date)?.slice(0, 10);
      const amount = num(r.adjDividend) ?? num(r.dividend);
      return date && amount ? [{ date, type: 'dividend', amount }] : [];
    })
    .sort((a, b) => (a.date < b.date ? -1 : 1));
}

class Fmp extends UsVendor implements Vendor {
  readonly name = 'fmp';
  readonly quoteFields = new Set([
    ...QUOTE_FIELDS.map(([, id]) => id),
    'name',
    'currency',
    'exchange',
    'asOf',
  ]);

  private rows(path: string, query: Record<string, string>): Promise<Row[]> {
    return this.http
      .json(path, { ...query, apikey: this.config.key ?? '' })
      .then((body) => (Array.isArray(body) ? (body as Row[]) : []));
  }

  /** A quote a symbol: the stable API answers one symbol a call. */
  async quotes(symbols: string[]): Promise<Map<string, ProviderQuote>> {
    const out = new Map<string, ProviderQuote>();
    for (const symbol of symbols) {
      const quote = (await this.rows('/stable/quote', { symbol })).map(fmpQuote)[0];
      if (quote) out.set(symbol, quote);
    }
    return out;
  }

  /** The bars from `from`, and the dividends: both types' days known are the bars' (its splits are not read). */
  async bars(symbol: string, from: string): Promise<DailyHistory> {
    const [prices, dividends] = await Promise.all([
      this.rows('/stable/historical-price-eod/full', { symbol, from, to: today(this.context.clock) }),
      this.rows('/stable/dividends', { symbol }),
    ]);
    const bars = fmpBars(prices);
    const first = bars[0]?.date ?? from;
    return { bars, actions: fmpDividends(dividends).filter((a) => a.date >= first), known: ['dividend'] };
  }

  async summary(symbol: string): Promise<Summary | null> {
    const row = (await this.rows('/stable/profile', { symbol }))[0];
    if (!row) return null;
    const fields: Summary['fields'] = {};
    for (const [from, to] of PROFILE_FIELDS) {
      const value = row[from];
      if (typeof value === 'number' || (typeof value === 'string' && value !== '')) fields[to] = value;
    }
    return { asOf: this.context.clock().toISOString(), fields };
  }
}

export const FMP: UpstreamDeclaration = {
  settings: {
    name: 'fmp',
    keyVariable: 'FMP_API_KEY',
    urlVariable: 'QUARRY_FMP_URL',
    url: 'https://financialmodelingprep.com',
    // FMP's starter plan: three hundred calls a minute.
    perMinute: 300,
    perDay: 1_000_000,
  },
  serves: 'quotes, daily bars (split-adjusted), dividends and the company profile of US listings',
  make: (config, context) => new Fmp(config, context),
};
