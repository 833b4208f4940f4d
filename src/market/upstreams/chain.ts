// The upstreams asked in the operator's order, as one: each request asks the first upstream that serves the verb
// for the listing, and on an error, a timeout, a 429, a spent allowance or "not found" the next one. Every answer
// says which upstream gave it (`source`). The live provider keeps the answers in the market cache, so a fallback
// costs the next caller nothing.
import type { ProviderQuote, StatementFact } from '../../kernel/market-provider.js';
import type { DailyHistory, Found, Summary, Upstream } from '../providers/upstream.js';
import type { Vendor } from './port.js';

type Verb = 'quotes' | 'bars' | 'summary' | 'search' | 'statements';
/** An upstream known to serve a verb. */
type Serving<V extends Verb> = Vendor & Required<Pick<Vendor, V>>;

export class UpstreamChain implements Upstream {
  readonly name: string;
  readonly quoteFields: ReadonlySet<string>;

  constructor(
    private readonly vendors: readonly Vendor[],
    /** Told of each upstream's failure before the next is asked. */
    private readonly onError: (what: string, error: unknown) => void = () => {},
  ) {
    this.name = vendors.map((v) => v.name).join(',');
    this.quoteFields = new Set(vendors.flatMap((v) => (v.quotes ? [...(v.quoteFields ?? [])] : [])));
  }

  /** The upstreams that serve a verb for a symbol (all that serve it, for a verb of no symbol), in order. */
  private serving<V extends Verb>(verb: V, symbol?: string): Serving<V>[] {
    return this.vendors.filter(
      (v): v is Serving<V> => v[verb] !== undefined && (symbol === undefined || v.covers(symbol)),
    );
  }

  /**
   * Asks the upstreams in order until one answers with something; the last failure is thrown when none
   * answered and one failed, else the empty answer.
   */
  private async first<V extends Verb, T>(
    verb: V,
    symbol: string | undefined,
    ask: (vendor: Serving<V>) => Promise<T>,
    found: (answer: T) => boolean,
    empty: T,
  ): Promise<T> {
    let failure: unknown = null;
    for (const vendor of this.serving(verb, symbol)) {
      try {
        const answer = await ask(vendor);
        if (found(answer)) return answer;
      } catch (error) {
        this.onError(`${vendor.name} ${verb}${symbol ? ` ${symbol}` : ''}`, error);
        failure = error;
      }
    }
    if (failure) throw failure;
    return empty;
  }

  /** Each symbol's quote from the first upstream that knows it; a batch that fails goes to the next. */
  async quotes(symbols: string[]): Promise<Map<string, ProviderQuote>> {
    const out = new Map<string, ProviderQuote>();
    let failure: unknown = null;
    for (const vendor of this.serving('quotes')) {
      const asked = symbols.filter((s) => !out.has(s) && vendor.covers(s));
      if (asked.length === 0) continue;
      try {
        for (const [symbol, quote] of await vendor.quotes(asked))
          out.set(symbol, { ...quote, source: vendor.name });
      } catch (error) {
        this.onError(`${vendor.name} quotes`, error);
        failure = error;
      }
    }
    if (out.size === 0 && failure) throw failure;
    return out;
  }

  bars(symbol: string, from: string): Promise<DailyHistory> {
    return this.first<'bars', DailyHistory>(
      'bars',
      symbol,
      async (v) => ({ ...(await v.bars(symbol, from)), source: v.name }),
      (h) => h.bars.length > 0,
      { bars: [], actions: [] },
    );
  }

  summary(symbol: string): Promise<Summary | null> {
    return this.first(
      'summary',
      symbol,
      async (v) => {
        const summary = await v.summary(symbol);
        return summary && { ...summary, source: v.name };
      },
      (s) => s !== null,
      null,
    );
  }

  search(query: string): Promise<Found[]> {
    return this.first(
      'search',
      undefined,
      async (v) => (await v.search(query)).map((f) => ({ ...f, source: v.name })),
      (found) => found.length > 0,
      [],
    );
  }

  statements(symbol: string): Promise<Map<string, StatementFact[]>> {
    return this.first(
      'statements',
      symbol,
      (v) => v.statements(symbol),
      (facts) => facts.size > 0,
      new Map(),
    );
  }
}
