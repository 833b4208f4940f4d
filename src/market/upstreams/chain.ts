// The upstreams asked in the operator's order, as one: each request asks the first upstream that serves the verb
// for the listing, and on an error, a timeout, a 429, a spent allowance or "not found" the next one. Every answer
// says which upstream gave it (`source`). The live provider keeps the answers in the market cache, so a fallback
// costs the next caller nothing.
import type { Dispute, ProviderQuote, StatementFact } from '../../kernel/market-provider.js';
import type { DailyHistory, Found, Summary, Upstream } from '../providers/upstream.js';
import type { Vendor } from './port.js';
import { completeQuotes, quotesPrices, withFieldsOf } from './quote-fields.js';

type Verb = 'quotes' | 'bars' | 'summary' | 'search' | 'statements';
/** An upstream known to serve a verb. */
type Serving<V extends Verb> = Vendor & Required<Pick<Vendor, V>>;

export interface SecondOpinion {
  /** How many of the newest closes a fetch brings are asked of the next upstream serving bars. */
  days: number;
  /** Told of the closes it answered otherwise, to keep them (quarry status counts them). */
  record(symbol: string, served: DailyHistory & { source: string }, disputes: Dispute[]): Promise<void>;
}

/**
 * Two closes of one day disagree past this share of the served one (after each upstream's split adjustment):
 * wider than a cent's rounding on a $10 share, narrower than any real correction.
 */
export const DISPUTE_TOLERANCE = 0.001;

/** A summary with the fields another upstream gave that it lacked, each naming that upstream. */
function withFields(summary: Summary, other: Summary, source: string): Summary {
  const added = Object.keys(other.fields).filter(
    (id) => other.fields[id] !== null && (summary.fields[id] === undefined || summary.fields[id] === null),
  );
  return added.length ? withFieldsOf(summary, other.fields, added, source) : summary;
}

export class UpstreamChain implements Upstream {
  readonly name: string;
  readonly quoteFields: ReadonlySet<string>;

  constructor(
    private readonly vendors: readonly Vendor[],
    /** Told of each upstream's failure before the next is asked. */
    private readonly onError: (what: string, error: unknown) => void = () => {},
    private readonly secondOpinion: SecondOpinion | null = null,
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

  /**
   * Each symbol's quote from the first upstream quoting prices that knows it (a batch that fails goes to the
   * next; one quoting only some fields answers a symbol none of them knows), and each field wanted from the
   * first upstream whose quote carries it (quote-fields.ts).
   */
  async quotes(symbols: string[], wanted: readonly string[] = []): Promise<Map<string, ProviderQuote>> {
    const out = new Map<string, ProviderQuote>();
    let failure: unknown = null;
    // Upstreams quoting prices first; one quoting only some fields (Polygon's bid and ask) for the rest.
    const quoting = this.serving('quotes');
    const order = [...quoting.filter(quotesPrices), ...quoting.filter((v) => !quotesPrices(v))];
    for (const vendor of order) {
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
    if (wanted.length) await completeQuotes(quoting, out, wanted, this.onError);
    return out;
  }

  async bars(symbol: string, from: string): Promise<DailyHistory> {
    let served: Vendor | null = null;
    const history = await this.first<'bars', DailyHistory>(
      'bars',
      symbol,
      async (v) => {
        served = v;
        return { ...(await v.bars(symbol, from)), source: v.name };
      },
      (h) => h.bars.length > 0,
      { bars: [], actions: [] },
    );
    if (!served || !history.bars.length || !this.secondOpinion) return history;
    const disputes = await this.disputes(symbol, served, history);
    return disputes.length ? { ...history, disputes } : history;
  }

  /**
   * The newest closes of a fetch asked of the next upstream that serves bars for the listing: each it answers
   * otherwise past the tolerance, with its close. Its failure (or spent allowance) only leaves them unchecked.
   */
  private async disputes(symbol: string, served: Vendor, history: DailyHistory): Promise<Dispute[]> {
    const opinion = this.secondOpinion;
    const other = this.serving('bars', symbol).find((v) => v !== served);
    if (!opinion || !other) return [];
    const sample = history.bars.slice(-opinion.days);
    const first = sample[0];
    if (!first) return [];
    try {
      const theirs = new Map((await other.bars(symbol, first.date)).bars.map((b) => [b.date, b.close]));
      const disputes = sample.flatMap((bar): Dispute[] => {
        const close = theirs.get(bar.date);
        return close !== undefined && Math.abs(close - bar.close) > DISPUTE_TOLERANCE * Math.abs(bar.close)
          ? [{ date: bar.date, source: other.name, close }]
          : [];
      });
      if (disputes.length) await opinion.record(symbol, { ...history, source: served.name }, disputes);
      return disputes;
    } catch (error) {
      this.onError(`${other.name} second opinion ${symbol}`, error);
      return [];
    }
  }

  /**
   * A listing's summary per field: the first upstream's that knows it, and each field it lacks from the next
   * upstream that has it (FMP's profile carries a sector, Yahoo's a beta). A summary is kept a day, so every
   * upstream serving summaries is asked once a day a listing.
   */
  async summary(symbol: string): Promise<Summary | null> {
    let merged: Summary | null = null;
    let failure: unknown = null;
    for (const vendor of this.serving('summary', symbol)) {
      try {
        const summary = await vendor.summary(symbol);
        if (summary)
          merged = merged ? withFields(merged, summary, vendor.name) : { ...summary, source: vendor.name };
      } catch (error) {
        this.onError(`${vendor.name} summary ${symbol}`, error);
        failure = error;
      }
    }
    if (!merged && failure) throw failure;
    return merged;
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
