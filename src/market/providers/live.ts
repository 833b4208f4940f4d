// The live provider: what an operator loaded stays authoritative for its symbols (bars, statements), and the
// upstream fills everything else through the market cache, which every instance shares. A quote is the
// fresher of the stored one and the upstream's. A stale document is asked for again; while the upstream fails,
// the last copy is served marked stale, never nothing when something is held. Quote calls are batched and each
// symbol has one call in flight whoever asks; calls that outlive a request's deadline still land in the cache.

import { addDays, yearsBefore } from '../../kernel/dates.js';
import type {
  Bar,
  CorporateAction,
  HeldActions,
  Instrument,
  InstrumentFound,
  InstrumentIdentifiers,
  MarketProvider,
  ProviderQuote,
  Repair,
  ShortInterest,
  StatementFact,
} from '../../kernel/market-provider.js';
import { barRange, closesSince } from '../compute/periods.js';
import { repairPaymentUnits, repairUnitSlips } from '../compute/repair.js';
import { formsOf } from '../symbology/forms.js';
import { nextOpen, sessionOf } from '../symbology/sessions.js';
import { quotedInMinorUnits } from '../symbology/tables.js';
import type { Cached, MarketCache } from './cache.js';
import { SingleFlight } from './guard.js';
import { jobOf, type OpenFigi } from './openfigi.js';
import type { StoredProvider } from './stored.js';
import { shortInterestOf, withFacts } from './stored-quote.js';
import { FOUND_AT_MOST } from './stored-search.js';
import {
  type DailyHistory,
  type Found,
  QUOTES_PER_CALL,
  type StatementsSource,
  type Summary,
  type Upstream,
} from './upstream.js';

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

/** How far back a first fetch of bars goes, and how many days a refresh asks again to see history unchanged. */
const HISTORY_YEARS = 20;
const OVERLAP_DAYS = 10;

/**
 * The upstream bars held for a symbol from the date they were asked from (absent on copies made before it was
 * kept: those were asked for the whole history), unit slips repaired, the repairs made, and the corporate
 * actions among them, each known from the fetch that first brought it (absent on copies made before actions
 * were kept).
 */
type HeldBars = { bars: Bar[]; repairs: Repair[]; from?: string; actions?: CorporateAction[] };

type Waiter = {
  instrument: Instrument;
  resolve(quote: ProviderQuote | null): void;
  reject(error: unknown): void;
};

export class LiveProvider implements MarketProvider {
  private readonly quoteFlights = new SingleFlight<ProviderQuote | null>();
  private readonly barFlights = new SingleFlight<HeldBars>();
  private readonly summaryFlights = new SingleFlight<Summary | null>();
  private readonly queued = new Map<string, Waiter>();
  private flushScheduled = false;
  private readonly staleSeries = new Set<string>();
  private readonly keptStatements = new Set<string>();
  private readonly statementFlights = new SingleFlight<Map<string, StatementFact[]>>();
  private readonly parsedBars = new Map<string, Cached<HeldBars>>();
  private readonly readQuotes = new Map<string, Cached<ProviderQuote | null>>();

  constructor(
    private readonly stored: StoredProvider,
    private readonly upstream: Upstream,
    private readonly cache: MarketCache,
    private readonly options: LiveOptions,
    /** Where US listings' statements are read first (SEC EDGAR, when a contact is configured). */
    private readonly filings: StatementsSource | null = null,
    /** Where listings' FIGIs are found (OpenFIGI). */
    private readonly figi: OpenFigi | null = null,
  ) {}

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
        if (copy && isFresh(copy)) live = copy.value;
        else {
          try {
            live = await this.fetchQuote(instrument);
          } catch (error) {
            this.options.onError(`quote ${symbol}`, error);
            live = copy?.value ? { ...copy.value, stale: true } : null;
          }
        }
        if (live && wantsSummary) {
          const summary = await this.summary(symbol);
          if (summary) live = { ...live, fields: withFacts(live.fields, live.asOf, summary) };
        }
        const stored = own.get(symbol);
        const best = stored && (!live || stored.asOf >= live.asOf) ? stored : live;
        if (best) out.set(symbol, best);
      }),
    );
    return out;
  }

  /** The upstream's quote of an instrument (null: it knows none), batched with the others asked this turn. */
  private fetchQuote(instrument: Instrument): Promise<ProviderQuote | null> {
    return this.quoteFlights.run(
      instrument.symbol,
      () =>
        new Promise((resolve, reject) => {
          this.queued.set(instrument.symbol, { instrument, resolve, reject });
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
      this.upstream.quotes(batch.map(([symbol]) => symbol)).then(
        async (found) => {
          for (const [symbol, waiter] of batch) {
            const quote = found.get(symbol) ?? null;
            await this.keep(quoteKey(symbol), quote, this.quoteFreshFor(waiter.instrument, quote));
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
        await this.keep(key, found, this.options.summaryFreshMs);
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
    const own = await this.stored.series(instrument);
    if (own.length > 0) return own;
    return (await this.upstreamSeries(instrument.symbol, since ?? this.deepest())).bars;
  }

  private deepest(): string {
    return yearsBefore(this.options.now().toISOString(), HISTORY_YEARS);
  }

  async repairs(instrument: Instrument): Promise<readonly Repair[]> {
    const own = await this.stored.series(instrument);
    if (own.length > 0) return this.stored.repairs(instrument);
    return (await this.upstreamSeries(instrument.symbol, this.deepest())).repairs;
  }

  private async upstreamSeries(symbol: string, since: string): Promise<HeldBars> {
    const covers = (held: HeldBars) => (held.from ?? '') <= since;
    // A fresh copy this process already parsed is used as it is: a series is thousands of bars, read by every
    // computed field of every request.
    const parsed = this.parsedBars.get(symbol);
    if (parsed && parsed.freshUntil > this.options.now().toISOString() && covers(parsed.value))
      return parsed.value;
    const key = `bars:${symbol}`;
    const copy = await this.cache.get<HeldBars>(key);
    if (copy?.fresh && covers(copy.value)) {
      this.staleSeries.delete(symbol);
      this.parsedBars.set(symbol, copy);
      return copy.value;
    }
    const held = copy && covers(copy.value) ? copy.value : null;
    try {
      const fetch = () =>
        this.barFlights.run(symbol, async () => {
          const fetched = held?.actions
            ? await this.fetchBars(symbol, held, since)
            : await this.whole(symbol, since);
          const repaired = quotedInMinorUnits(symbol)
            ? repairUnitSlips(fetched.bars)
            : { bars: fetched.bars, repairs: [] };
          const doc: HeldBars = {
            bars: [...repaired.bars],
            repairs: repaired.repairs,
            from: held?.from ?? since,
            actions: knownFrom(fetched.actions, held?.actions ?? [], this.options.now().toISOString()),
          };
          await this.keep(key, doc, this.options.barsFreshMs);
          return doc;
        });
      // A fetch already in flight for a shorter history does not serve a caller that needs more.
      let answer = await fetch();
      if (!covers(answer)) answer = await fetch();
      this.staleSeries.delete(symbol);
      return answer;
    } catch (error) {
      this.options.onError(`bars ${symbol}`, error);
      if (!copy) return { bars: [], repairs: [] };
      this.staleSeries.add(symbol);
      return copy.value;
    }
  }

  /**
   * Bars extended from the held copy: the last days are asked again, and when any of them differs from what is
   * held (a split or dividend changed history), the whole history is fetched anew.
   */
  private async fetchBars(symbol: string, held: HeldBars, since: string): Promise<DailyHistory> {
    const last = held.bars.at(-1);
    if (!last) return this.whole(symbol, since);
    const from = addDays(last.date, -OVERLAP_DAYS);
    const recent = await this.upstream.bars(symbol, from);
    const bars = extended(held.bars, recent.bars);
    if (!bars) return this.whole(symbol, since);
    const before = (held.actions ?? []).filter((a) => a.date < from);
    return { bars, actions: [...before, ...recent.actions] };
  }

  /** The bars from `since` (at most twenty years back) to today. */
  private whole(symbol: string, since: string): Promise<DailyHistory> {
    const deepest = this.deepest();
    return this.upstream.bars(symbol, since < deepest ? deepest : since);
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
        await this.keep(key, upstream, this.options.summaryFreshMs);
      } catch (error) {
        this.options.onError(`search ${text}`, error);
      }
    }
    const held = new Set(stored.map((f) => f.symbol));
    const more = upstream
      .filter((f) => !held.has(f.symbol))
      .map((f) => ({ ...f, source: this.upstream.name }));
    return [...stored, ...more].slice(0, FOUND_AT_MOST);
  }

  /** Actions an operator loaded for a listing whose bars it loaded, else the upstream's, fetched with its bars. */
  async actions(instrument: Instrument, since?: string, knownBy?: string): Promise<HeldActions> {
    const own = await this.stored.series(instrument);
    if (own.length > 0) return this.stored.actions(instrument, since, knownBy);
    const held = keptActions(
      instrument.symbol,
      await this.upstreamSeries(instrument.symbol, since ?? this.deepest()),
    );
    if (knownBy === undefined) return held;
    // Fetched actions are known from the fetch that first brought them; the days fetched, from the last fetch.
    return { ...held, actions: held.actions.filter((a) => (a.knownAt ?? '') <= knownBy) };
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
    return this.staleSeries.has(instrument.symbol);
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

  /**
   * Statements an operator loaded for the ticker; else the upstream's, kept a day: a US listing's from its
   * filings first, then the upstream's fundamentals. While the upstream fails the last copy is served.
   */
  async statements(instrument: Instrument): Promise<Map<string, StatementFact[]>> {
    const own = await this.stored.statements(instrument);
    if (own.size > 0) return own;
    const { symbol, mic, assetType } = instrument;
    if (assetType !== 'equity' && assetType !== 'fund') return own;
    const key = `statements:${symbol}`;
    const copy = await this.cache.get<Record<string, StatementFact[]>>(key);
    if (copy?.fresh) return new Map(Object.entries(copy.value));
    try {
      const found = await this.statementFlights.run(symbol, async () => {
        const filed = mic === null && this.filings ? await this.filings.statements(symbol) : null;
        const facts = filed ?? (await this.upstream.statements(symbol));
        await this.keep(key, Object.fromEntries(facts), this.options.summaryFreshMs);
        return facts;
      });
      this.keptStatements.delete(symbol);
      return found;
    } catch (error) {
      this.options.onError(`statements ${symbol}`, error);
      if (!copy) return own;
      this.keptStatements.add(symbol);
      return new Map(Object.entries(copy.value));
    }
  }

  factsOf(instrument: Instrument, knownOn?: string): Promise<ProviderQuote['fields'] | null> {
    return this.stored.factsOf(instrument, knownOn);
  }

  hasFacts(instrument: Instrument): Promise<boolean> {
    return this.stored.hasFacts(instrument);
  }

  /** Whether the statements last served for an instrument were a kept copy, the upstream failing. */
  staleStatements(instrument: Instrument): boolean {
    return this.keptStatements.has(instrument.symbol);
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

  /** Keeps an answer in the cache; a cache that cannot be written only costs the next caller a fetch. */
  private async keep(key: string, value: unknown, freshForMs: number): Promise<void> {
    try {
      await this.cache.put(key, value, freshForMs);
    } catch (error) {
      this.options.onError(`cache ${key}`, error);
    }
  }
}

const quoteKey = (symbol: string) => `quote:${symbol}`;

/** `held` continued by `recent`, or null when they disagree on a day both hold (history was adjusted). */
const heldActions = new WeakMap<HeldBars, HeldActions>();

/**
 * The actions of upstream bars, known for dividends and splits over the days the bars span (the chart is
 * asked for both): one answer per copy of the bars.
 */
function keptActions(symbol: string, held: HeldBars): HeldActions {
  let answer = heldActions.get(held);
  if (answer) return answer;
  const first = held.bars[0];
  const last = held.bars.at(-1);
  const known =
    first && last && held.actions
      ? (['dividend', 'split'] as const).map((type) => ({ type, start: first.date, end: last.date }))
      : [];
  const actions = held.actions ?? [];
  answer = { actions: quotedInMinorUnits(symbol) ? repairPaymentUnits(held.bars, actions) : actions, known };
  heldActions.set(held, answer);
  return answer;
}

/** Actions fetched, each known from when it was first held (the same action held before keeps its time). */
function knownFrom(
  fetched: CorporateAction[],
  held: readonly CorporateAction[],
  now: string,
): CorporateAction[] {
  const key = (a: CorporateAction) => `${a.date}|${a.type}|${a.amount}|${a.numerator}|${a.denominator}`;
  const times = new Map(held.map((a) => [key(a), a.knownAt]));
  return fetched.map((a) => ({ ...a, knownAt: a.knownAt ?? times.get(key(a)) ?? now }));
}

export function extended(held: Bar[], recent: Bar[]): Bar[] | null {
  const first = recent[0];
  if (!first) return held;
  const byDate = new Map(held.map((b) => [b.date, b]));
  for (const bar of recent) {
    const old = byDate.get(bar.date);
    if (old && Math.abs(old.close - bar.close) > 1e-6 * Math.max(1, Math.abs(old.close))) return null;
  }
  return [...held.filter((b) => b.date < first.date), ...recent];
}
