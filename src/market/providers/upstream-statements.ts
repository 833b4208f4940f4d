// A listing's statements when the store holds none: a US listing's from its filings (SEC EDGAR) first, then the
// upstream's fundamentals (also while EDGAR fails or is paused), kept a day in the market cache every instance
// shares. While neither answers, the last copy is served and said to be stale.
import type { Instrument, StatementFact } from '../../kernel/market-provider.js';
import type { MarketCache } from './cache.js';
import { SingleFlight } from './guard.js';
import type { StatementsSource, Upstream } from './upstream.js';

type Facts = Map<string, StatementFact[]>;

export class UpstreamStatements {
  private readonly kept = new Set<string>();
  private readonly flights = new SingleFlight<Facts>();

  constructor(
    private readonly upstream: Upstream,
    private readonly cache: MarketCache,
    private readonly options: { freshMs: number; onError(what: string, error: unknown): void },
    /** Where US listings' statements are read first (SEC EDGAR, when a contact is configured). */
    private readonly filings: StatementsSource | null,
  ) {}

  /** The instrument's statements, fetched or as kept; empty when none are known. */
  async statements(instrument: Instrument): Promise<Facts> {
    const { symbol, mic } = instrument;
    const key = `statements:${symbol}`;
    const copy = await this.cache.get<Record<string, StatementFact[]>>(key);
    if (copy?.fresh) return new Map(Object.entries(copy.value));
    try {
      const found = await this.flights.run(symbol, async () => {
        const filed = mic === null && this.filings ? await this.fromFilings(this.filings, symbol) : null;
        const facts = (filed instanceof Map ? filed : null) ?? (await this.upstream.statements(symbol));
        // EDGAR failing (or paused) and the upstream holding none: the kept copy is served.
        if (filed && !(filed instanceof Map) && facts.size === 0) throw filed.failed;
        await this.cache.keep(key, Object.fromEntries(facts), this.options.freshMs, this.options.onError);
        return facts;
      });
      this.kept.delete(symbol);
      return found;
    } catch (error) {
      this.options.onError(`statements ${symbol}`, error);
      if (!copy) return new Map();
      this.kept.add(symbol);
      return new Map(Object.entries(copy.value));
    }
  }

  /** Whether the statements last served for an instrument were a kept copy, the upstream failing. */
  stale(instrument: Instrument): boolean {
    return this.kept.has(instrument.symbol);
  }

  /** A listing's statements from its filings: null when it has none there, what failed when EDGAR did. */
  private async fromFilings(
    filings: StatementsSource,
    symbol: string,
  ): Promise<Facts | { failed: unknown } | null> {
    try {
      return await filings.statements(symbol);
    } catch (error) {
      this.options.onError(`filings ${symbol}`, error);
      return { failed: error };
    }
  }
}
