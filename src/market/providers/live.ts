// The live provider: what an operator loaded stays authoritative for its symbols (bars, statements), and the
// upstream fills everything else through the market cache, which every instance shares. A quote is the
// fresher of the stored one and the upstream's. A stale document is asked for again; while the upstream fails,
// the last copy is served marked stale, never nothing when something is held. Quote calls are batched and each
// symbol has one call in flight whoever asks; calls that outlive a request's deadline still land in the cache.

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
import { barRange, closesSince } from '../compute/periods.js';
import { formsOf } from '../symbology/forms.js';
import { nextOpen, sessionOf } from '../symbology/sessions.js';
import type { Cached, MarketCache } from './cache.js';
import { SingleFlight } from './guard.js';
import { jobOf, type OpenFigi } from './openfigi.js';
import type { StoredProvider } from './stored.js';
import { shortInterestOf, withFacts } from './stored-quote.js';
import { FOUND_AT_MOST } from './stored-search.js';
import {
  type Found,
  QUOTES_PER_CALL,
  type StatementsSource,
  type Summary,
  type Upstream,
} from './upstream.js';
import { UpstreamBars } from './upstream-bars.js';
import { UpstreamStatements } from './upstream-statements.js';

export interface LiveOptions {
  /** A quote's freshness while its market trades; while it is closed with no known next opening; bars'. */
  quoteFreshMs: number;
  quoteClosedFreshMs: number;
  barsFreshMs: number;
  summaryFreshMs: number;
  now: () => Date;
  /** Told of every upstream failure (the answer goes on with what is held). */
  onError(what: string, error: unknown): void;
}

type Waiter = {
  instrument: Instrument;
  /** The quote fields asked (another upstream may answer those the first one's quote lacks). */
  wanted: readonly string[];
  resolve(quote: ProviderQuote | null): void;
  reject(error: unknown): void;
};

export class LiveProvider implements MarketProvider {
  private readonly quoteFlights = new SingleFlight<ProviderQuote | null>();
  private readonly summaryFlights = new SingleFlight<Summary | null>();
  private readonly queued = new Map<string, Waiter>();
  private flushScheduled = false;
  private readonly readQuotes = new Map<string, Cached<ProviderQuote | null>>();
  private readonly upstreamBars: UpstreamBars;
  private readonly upstreamStatements: UpstreamStatements;

  constructor(
    private readonly stored: StoredProvider,
    private readonly upstream: Upstream,
    private readonly cache: MarketCache,
    private readonly options: LiveOptions,
    /** Where US listings' statements are read first (SEC EDGAR, when a contact is configured). */
    filings: StatementsSource | null = null,
    /** Where listings' FIGIs are found (OpenFIGI). */
    private readonly figi: OpenFigi | null = null,
  ) {
    this.upstreamBars = new UpstreamBars(upstream, cache, options);
    const { summaryFreshMs: freshMs, onError } = options;
    this.upstreamStatements = new UpstreamStatements(upstream, cache, { freshMs, onError }, filings);
  }

  async quotes(
    instruments: readonly Instrument[],
    fields: readonly string[] = [],
  ): Promise<Map<string, ProviderQuote>> {
    const out = new Map<string, ProviderQuote>();
    if (instruments.length === 0) return out;
    const symbols = instruments.map((i) => i.symbol);
    // Fresh copies this process read before are used as they are; the rest are read from the shared cache.
    const now = this.options.now().toISOString();
    const isFresh = (copy: Cached<unknown> | undefined) => (copy?.freshUntil ?? '') > now;
    const unread = symbols.filter((s) => !isFresh(this.readQuotes.get(s)));
    const [own, held] = await Promise.all([
      this.stored.quotes(instruments),
      unread.length ? this.cache.many<ProviderQuote | null>(unread.map(quoteKey)) : new Map(),
    ]);
    for (const symbol of unread) {
      const copy = held.get(quoteKey(symbol));
      if (copy) this.readQuotes.set(symbol, copy);
    }
    const wantsSummary = fields.some((id) => !this.upstream.quoteFields.has(id));
    await Promise.all(
      instruments.map(async (instrument) => {
        const { symbol } = instrument;
        const copy = this.readQuotes.get(symbol);
        let live: ProviderQuote | null;
        if (copy && isFresh(copy) && !this.lacks(copy.value, fields)) live = copy.value;
        else {
          try {
            live = await this.fetchQuote(instrument, fields);
          } catch (error) {
            this.options.onError(`quote ${symbol}`, error);
            live = copy?.value ? { ...copy.value, stale: true } : null;
          }
        }
        if (live && wantsSummary) {
          const summary = await this.summary(symbol);
          if (summary) live = withSummary(live, summary);
        }
        const stored = own.get(symbol);
        const best = stored && (!live || stored.asOf >= live.asOf) ? stored : live;
        if (best) out.set(symbol, best);
      }),
    );
    return out;
  }

  /** Whether a kept quote lacks a field asked that an upstream's quote answers and was not sought before. */
  private lacks(quote: ProviderQuote | null, fields: readonly string[]): boolean {
    if (!quote) return false;
    const { quoteFields } = this.upstream;
    return fields.some((id) => quoteFields.has(id) && !(id in quote.fields) && !quote.sought?.includes(id));
  }

  /** The upstream's quote of an instrument (null: it knows none), batched with the others asked this turn. */
  private fetchQuote(instrument: Instrument, wanted: readonly string[]): Promise<ProviderQuote | null> {
    return this.quoteFlights.run(
      instrument.symbol,
      () =>
        new Promise((resolve, reject) => {
          this.queued.set(instrument.symbol, { instrument, wanted, resolve, reject });
          if (this.flushScheduled) return;
          this.flushScheduled = true;
          setImmediate(() => this.flush());
        }),
    );
  }

  private flush(): void {
    this.flushScheduled = false;
    const queued = [...this.queued];
    this.queued.clear();
    for (let i = 0; i < queued.length; i += QUOTES_PER_CALL) {
      const batch = queued.slice(i, i + QUOTES_PER_CALL);
      const symbols = batch.map(([symbol]) => symbol);
      const wanted = [...new Set(batch.flatMap(([, waiter]) => waiter.wanted))];
      this.upstream.quotes(symbols, wanted).then(
        async (found) => {
          for (const [symbol, waiter] of batch) {
            const quote = found.get(symbol) ?? null;
            await this.cache.keep(
              quoteKey(symbol),
              quote,
              this.quoteFreshFor(waiter.instrument, quote),
              this.options.onError,
            );
            waiter.resolve(quote);
          }
        },
        (error) => {
          for (const [, waiter] of batch) waiter.reject(error);
        },
      );
    }
  }

  /**
   * How long a quote stays fresh: a few seconds while its market trades; while it is closed, until its next
   * opening when that is known, else the configured while (a symbol the upstream does not know included).
   */
  private quoteFreshFor(instrument: Instrument, quote: ProviderQuote | null): number {
    if (quote?.fields.marketState === 'REGULAR') return this.options.quoteFreshMs;
    const session = quote ? sessionOf(instrument) : null;
    if (!session) return this.options.quoteClosedFreshMs;
    const now = this.options.now();
    return nextOpen(session, now).getTime() - now.getTime();
  }

  /** A symbol's summary fields (profile, estimates, key statistics): cached for a day. */
  private async summary(symbol: string): Promise<Summary | null> {
    const key = `summary:${symbol}`;
    const copy = await this.cache.get<Summary | null>(key);
    if (copy?.fresh) return copy.value;
    try {
      const summary = await this.summaryFlights.run(symbol, async () => {
        const found = await this.upstream.summary(symbol);
        await this.cache.keep(key, found, this.options.summaryFreshMs, this.options.onError);
        return found;
      });
      return summary;
    } catch (error) {
      this.options.onError(`summary ${symbol}`, error);
      return copy?.value ?? null;
    }
  }

  /**
   * Bars an operator loaded for the symbol, else the upstream's. `since` is the earliest date the caller
   * needs: a first fetch reads from there (the last three years serve every computed field, where the whole
   * history would cost twenty years of bars), and a later caller needing more has the series read deeper.
   */
  async series(instrument: Instrument, since?: string): Promise<readonly Bar[]> {
    return (await this.listing(instrument, since)).bars;
  }

  /**
   * What an operator loaded for the listing (its bars with their actions), else the upstream's bars and the
   * actions fetched with them: fetched actions are known from the fetch that first brought them.
   */
  async listing(instrument: Instrument, since?: string, knownBy?: string): Promise<HeldListing> {
    const own = await this.stored.listing(instrument, since, knownBy);
    if (own.bars.length > 0) return own;
    const held = await this.upstreamBars.listing(instrument.symbol, since);
    if (knownBy === undefined) return held;
    const actions = held.actions.actions.filter((a) => (a.knownAt ?? '') <= knownBy);
    return { ...held, actions: { ...held.actions, actions } };
  }

  /** Stored instruments first, then the upstream's search (kept a day); without the upstream, stored ones. */
  async find(text: string): Promise<InstrumentFound[]> {
    const stored = await this.stored.find(text);
    const key = `search:${text.toLowerCase()}`;
    const copy = await this.cache.get<Found[]>(key);
    let upstream = copy?.value ?? [];
    if (!copy?.fresh) {
      try {
        upstream = await this.upstream.search(text);
        await this.cache.keep(key, upstream, this.options.summaryFreshMs, this.options.onError);
      } catch (error) {
        this.options.onError(`search ${text}`, error);
      }
    }
    const held = new Set(stored.map((f) => f.symbol));
    const more = upstream
      .filter((f) => !held.has(f.symbol))
      .map((f) => ({ ...f, source: f.source ?? this.upstream.name }));
    return [...stored, ...more].slice(0, FOUND_AT_MOST);
  }

  /** Actions an operator loaded for a listing whose bars it loaded, else the upstream's, fetched with its bars. */
  async actions(instrument: Instrument, since?: string, knownBy?: string): Promise<HeldActions> {
    return (await this.listing(instrument, since, knownBy)).actions;
  }

  /** The listing's FIGIs from OpenFIGI (none configured: none known). */
  async identifiers(
    instruments: readonly Instrument[],
  ): Promise<Map<string, InstrumentIdentifiers | null | 'unreachable'>> {
    const out = new Map<string, InstrumentIdentifiers | null | 'unreachable'>();
    if (!this.figi) return out;
    const asked = instruments.flatMap((instrument) => {
      const job = jobOf(formsOf(instrument.symbol)?.terminal ?? null);
      return job ? [{ symbol: instrument.symbol, job }] : [];
    });
    const answers = await this.figi.identifyMany(asked.map((a) => a.job));
    for (const [i, { symbol }] of asked.entries()) out.set(symbol, answers[i] ?? null);
    return out;
  }

  staleBars(instrument: Instrument): boolean {
    return this.upstreamBars.isStale(instrument.symbol);
  }

  async bars(instrument: Instrument, from?: string, to?: string): Promise<Bar[]> {
    const all = await this.series(instrument, from);
    const [first, end] = barRange(all, from, to);
    return all.slice(first, end);
  }

  async lastCloses(instrument: Instrument, count: number): Promise<number[]> {
    const since = closesSince(this.options.now().toISOString().slice(0, 10), count);
    return (await this.series(instrument, since)).slice(-count).map((b) => b.close);
  }

  /** Statements an operator loaded for the ticker; else the upstream's (upstream-statements.ts). */
  async statements(instrument: Instrument): Promise<Map<string, StatementFact[]>> {
    const own = await this.stored.statements(instrument);
    if (own.size > 0) return own;
    const { assetType } = instrument;
    if (assetType !== 'equity' && assetType !== 'fund') return own;
    return this.upstreamStatements.statements(instrument);
  }

  factsOf(instrument: Instrument, knownOn?: string): Promise<ProviderQuote['fields'] | null> {
    return this.stored.factsOf(instrument, knownOn);
  }

  hasFacts(instrument: Instrument): Promise<boolean> {
    return this.stored.hasFacts(instrument);
  }

  /** Whether the statements last served for an instrument were a kept copy, the upstream failing. */
  staleStatements(instrument: Instrument): boolean {
    return this.upstreamStatements.stale(instrument);
  }

  async shortInterest(instruments: readonly Instrument[]): Promise<Map<string, ShortInterest>> {
    const out = await this.stored.shortInterest(instruments);
    await Promise.all(
      instruments
        .map((i) => i.symbol)
        .filter((symbol) => !out.has(symbol))
        .map(async (symbol) => {
          const summary = await this.summary(symbol);
          const copy = summary ? shortInterestOf(summary.fields, summary.asOf) : null;
          if (copy) out.set(symbol, copy);
        }),
    );
    return out;
  }
}

const quoteKey = (symbol: string) => `quote:${symbol}`;

/** A quote with the summary's fields beside its own, each saying its source where the summary's differs. */
function withSummary(quote: ProviderQuote, summary: Summary): ProviderQuote {
  const fields = withFacts(quote.fields, quote.asOf, summary);
  const fieldSources = { ...quote.fieldSources };
  for (const id of Object.keys(fields)) {
    const from = id in quote.fields ? null : (summary.fieldSources?.[id] ?? summary.source);
    if (from && from !== quote.source) fieldSources[id] = from;
  }
  return { ...quote, fields, ...(Object.keys(fieldSources).length ? { fieldSources } : {}) };
}
