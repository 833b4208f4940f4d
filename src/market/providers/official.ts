// Daily figures an agency publishes, served as index instruments beside another provider's: Treasury's 2-year
// par yield (USGG2YR Index) and 13-week bill coupon equivalent (USGG3M Index). End of day only: a value is the
// close of its date, true from when it was published; no open, high, low or volume.
import type {
  Bar,
  InstrumentFound,
  MarketProvider,
  ProviderQuote,
  Repair,
  ShortInterest,
  StatementFact,
} from '../../kernel/market-provider.js';

/** A published daily series: each value with its date and when it became known, oldest first. */
export interface OfficialSeries {
  name: string;
  /** Who publishes it, as a quote's exchange names it. */
  publisher: string;
  read(): Promise<readonly { date: string; value: number; knownAt: string }[]>;
}

const round = (value: number) => Math.round(value * 1e8) / 1e8;

export class OfficialSeriesProvider implements MarketProvider {
  constructor(
    private readonly inner: MarketProvider,
    private readonly own: ReadonlyMap<string, OfficialSeries>,
  ) {}

  async quotes(symbols: string[], fields?: readonly string[]): Promise<Map<string, ProviderQuote>> {
    const others = symbols.filter((s) => !this.own.has(s));
    const out = others.length ? await this.inner.quotes(others, fields) : new Map<string, ProviderQuote>();
    for (const symbol of symbols) {
      const series = this.own.get(symbol);
      if (!series) continue;
      const values = await series.read();
      const last = values.at(-1);
      if (!last) continue;
      const previous = values.at(-2)?.value ?? null;
      out.set(symbol, {
        symbol,
        name: series.name,
        currency: 'USD',
        exchange: series.publisher,
        assetType: 'index',
        asOf: last.knownAt,
        fields: {
          price: last.value,
          previousClose: previous,
          change: previous === null ? null : round(last.value - previous),
          changePercent: previous ? round(((last.value - previous) / previous) * 100) : null,
          marketState: 'CLOSED',
        },
      });
    }
    return out;
  }

  async series(symbol: string, since?: string): Promise<readonly Bar[]> {
    const series = this.own.get(symbol);
    if (!series) return this.inner.series(symbol, since);
    return (await series.read()).map((v) => ({
      date: v.date,
      open: null,
      high: null,
      low: null,
      close: v.value,
      volume: null,
    }));
  }

  async bars(symbol: string, from?: string, to?: string): Promise<Bar[]> {
    if (!this.own.has(symbol)) return this.inner.bars(symbol, from, to);
    return (await this.series(symbol)).filter(
      (b) => (from === undefined || b.date >= from) && (to === undefined || b.date <= to),
    );
  }

  async lastCloses(symbol: string, count: number): Promise<number[]> {
    if (!this.own.has(symbol)) return this.inner.lastCloses(symbol, count);
    return (await this.series(symbol)).slice(-count).map((b) => b.close);
  }

  shortInterest(symbols: string[]): Promise<Map<string, ShortInterest>> {
    return this.inner.shortInterest(symbols.filter((s) => !this.own.has(s)));
  }

  statements(ticker: string): Promise<Map<string, StatementFact[]>> {
    return this.inner.statements(ticker);
  }

  staleBars(symbol: string): boolean {
    return !this.own.has(symbol) && (this.inner.staleBars?.(symbol) ?? false);
  }

  async hasFacts(symbol: string): Promise<boolean> {
    return !this.own.has(symbol) && ((await this.inner.hasFacts?.(symbol)) ?? false);
  }

  staleStatements(ticker: string): boolean {
    return this.inner.staleStatements?.(ticker) ?? false;
  }

  async repairs(symbol: string): Promise<readonly Repair[]> {
    return this.own.has(symbol) ? [] : ((await this.inner.repairs?.(symbol)) ?? []);
  }

  /** The own series whose symbol or name holds the text, before the other provider's finds. */
  async find(text: string): Promise<InstrumentFound[]> {
    const words = text.toLowerCase();
    const own = [...this.own].flatMap(([symbol, series]) =>
      symbol.toLowerCase().includes(words) || series.name.toLowerCase().includes(words)
        ? [
            {
              symbol,
              name: series.name,
              exchange: series.publisher,
              type: 'INDEX',
              source: 'stored' as const,
            },
          ]
        : [],
    );
    return [...own, ...(await this.inner.find(text))];
  }
}
