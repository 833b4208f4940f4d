// Daily figures an agency publishes, served as index instruments beside another provider's: Treasury's 2-year
// par yield (USGG2YR Index) and 13-week bill coupon equivalent (USGG3M Index). End of day only: a value is the
// close of its date, true from when it was published; no open, high, low or volume.
import type {
  Bar,
  HeldActions,
  HeldListing,
  Instrument,
  InstrumentFound,
  InstrumentIdentifiers,
  MarketProvider,
  ProviderQuote,
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

const NONE: HeldActions = { actions: [], known: [] };

const round = (value: number) => Math.round(value * 1e8) / 1e8;

export class OfficialSeriesProvider implements MarketProvider {
  constructor(
    private readonly inner: MarketProvider,
    private readonly own: ReadonlyMap<string, OfficialSeries>,
  ) {}

  async quotes(
    instruments: readonly Instrument[],
    fields?: readonly string[],
  ): Promise<Map<string, ProviderQuote>> {
    const others = instruments.filter((i) => !this.own.has(i.symbol));
    const out = others.length ? await this.inner.quotes(others, fields) : new Map<string, ProviderQuote>();
    for (const { symbol } of instruments) {
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

  async series(instrument: Instrument, since?: string): Promise<readonly Bar[]> {
    const series = this.own.get(instrument.symbol);
    if (!series) return this.inner.series(instrument, since);
    return (await series.read()).map((v) => ({
      date: v.date,
      open: null,
      high: null,
      low: null,
      close: v.value,
      volume: null,
    }));
  }

  async bars(instrument: Instrument, from?: string, to?: string): Promise<Bar[]> {
    if (!this.own.has(instrument.symbol)) return this.inner.bars(instrument, from, to);
    return (await this.series(instrument)).filter(
      (b) => (from === undefined || b.date >= from) && (to === undefined || b.date <= to),
    );
  }

  async lastCloses(instrument: Instrument, count: number): Promise<number[]> {
    if (!this.own.has(instrument.symbol)) return this.inner.lastCloses(instrument, count);
    return (await this.series(instrument)).slice(-count).map((b) => b.close);
  }

  shortInterest(instruments: readonly Instrument[]): Promise<Map<string, ShortInterest>> {
    return this.inner.shortInterest(instruments.filter((i) => !this.own.has(i.symbol)));
  }

  statements(instrument: Instrument): Promise<Map<string, StatementFact[]>> {
    return this.inner.statements(instrument);
  }

  staleBars(instrument: Instrument): boolean {
    return !this.own.has(instrument.symbol) && (this.inner.staleBars?.(instrument) ?? false);
  }

  async factsOf(instrument: Instrument, knownOn?: string): Promise<ProviderQuote['fields'] | null> {
    return this.own.has(instrument.symbol)
      ? null
      : ((await this.inner.factsOf?.(instrument, knownOn)) ?? null);
  }

  async hasFacts(instrument: Instrument): Promise<boolean> {
    return !this.own.has(instrument.symbol) && ((await this.inner.hasFacts?.(instrument)) ?? false);
  }

  staleStatements(instrument: Instrument): boolean {
    return this.inner.staleStatements?.(instrument) ?? false;
  }

  /** A published rate has no FIGI here. */
  identifiers(
    instruments: readonly Instrument[],
  ): Promise<Map<string, InstrumentIdentifiers | null | 'unreachable'>> {
    return this.inner.identifiers(instruments.filter((i) => !this.own.has(i.symbol)));
  }

  /** A published rate has no corporate actions. */
  async actions(instrument: Instrument, since?: string, knownBy?: string): Promise<HeldActions> {
    return this.own.has(instrument.symbol) ? NONE : this.inner.actions(instrument, since, knownBy);
  }

  /** A published rate's values, with no actions and nothing repaired. */
  async listing(instrument: Instrument, since?: string, knownBy?: string): Promise<HeldListing> {
    if (!this.own.has(instrument.symbol)) return this.inner.listing(instrument, since, knownBy);
    return { bars: await this.series(instrument), actions: NONE, repairs: [] };
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
