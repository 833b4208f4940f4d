// Where market data comes from, behind one interface: the stored provider reads what `quarry ingest` loaded;
// live upstream adapters implement the same interface.

export interface ProviderQuote {
  symbol: string;
  name: string;
  /** Main units (GBP, not GBp). */
  currency: string;
  exchange: string;
  assetType: string;
  asOf: string;
  /** Field id -> value, prices in main units. */
  fields: Record<string, number | string | null>;
  /** Served from the last stored answer because the upstream could not be reached for a fresh one. */
  stale?: boolean;
  /** When a field's value was true, where it differs from asOf (a field of an older recording kept beside newer prices). */
  fieldsAsOf?: Record<string, string>;
  /** Where the quote came from: the upstream that answered it (absent: loaded into the store). */
  source?: string;
  /** A stored quote: the file its price was loaded from. */
  file?: string;
  /** Fields from another source than the quote's (a profile beside a vendor's quote), by field id. */
  fieldSources?: Record<string, string>;
  /** Field ids asked of every upstream whose quote answers them: one absent from `fields` none had. */
  sought?: readonly string[];
}

export interface Bar {
  date: string;
  open: number | null;
  high: number | null;
  low: number | null;
  close: number;
  volume: number | null;
}

/**
 * A corporate action on its ex-date: a cash dividend or capital gain distribution (per share, in the listing's
 * main units and in today's shares, as the bars are), or a split (`numerator` shares for `denominator`).
 */
export interface CorporateAction {
  date: string;
  type: 'dividend' | 'split' | 'capitalGain';
  amount?: number;
  numerator?: number;
  denominator?: number;
  /** When it became known: the load that brought it (or the time an operator gave), or the fetch. */
  knownAt?: string;
  /** The file that loaded it (stored actions). */
  file?: string;
  /** Where the amount served is not the one the source sent: what it sent, and why it was changed. */
  repaired?: ValueRepair;
  /**
   * A capital gain paid inside the same day's dividend (Yahoo's dividends of funds include their capital gains
   * distributions): served as sent, and not counted a second time by the total return.
   */
  inDividend?: true;
}

/** A value served otherwise than the source sent it: the value sent, and why it was changed. */
export interface ValueRepair {
  from: number;
  reason: string;
}

/** Days over which a listing's actions of one type are known (a source answered them for that window). */
export interface ActionSpan {
  type: CorporateAction['type'];
  start: string;
  end: string;
}

/** A listing's corporate actions held, and the spans over which each type is known. */
export interface HeldActions {
  /** Oldest first; the same array while the data is unchanged. */
  actions: readonly CorporateAction[];
  known: readonly ActionSpan[];
}

/**
 * What is held of one listing, read together: its daily bars (repaired), its corporate actions (repaired) and
 * where they are known, and what the repairs changed. The same object while the data is unchanged.
 */
export interface HeldListing {
  /** Every daily bar, oldest first; not to be modified. */
  bars: readonly Bar[];
  actions: HeldActions;
  /** Bar values served otherwise than sent (a unit slip, a split not applied), oldest first. */
  repairs: readonly Repair[];
  /** The upstream the bars came from (absent: loaded into the store). */
  source?: string;
  /** Bars loaded into the store: the files they came from, oldest first. */
  files?: readonly LoadedFile[];
  /** Closes a second upstream answered otherwise (the second opinion), oldest first. */
  disputes?: readonly Dispute[];
}

/** A file loaded into the store and the days of bars it brought (a year's bars name the file last loaded into it). */
export interface LoadedFile {
  file: string;
  start: string;
  end: string;
}

/** A daily close another upstream answered otherwise than the one served. */
export interface Dispute {
  date: string;
  /** The other upstream, and its close (in the same shares as the bars). */
  source: string;
  close: number;
}

/** A listing's open identifiers (FIGIs): its own, its composite (all venues of a country) and its share class. */
export interface InstrumentIdentifiers {
  figi: string;
  compositeFigi: string | null;
  shareClassFigi: string | null;
}

/** A bar's value served otherwise than the source sent it (a price in the other unit, a split not applied). */
export interface Repair {
  date: string;
  field: 'open' | 'high' | 'low' | 'close' | 'volume';
  from: number;
  to: number;
  reason: string;
}

/** A value a statement period was reported at, and the first filing that reported it (YYYY-MM-DD). */
export interface StatementReport {
  value: number;
  filed: string;
}

export interface StatementFact {
  kind: 'duration' | 'instant';
  start: string;
  end: string;
  value: number;
  fp: string;
  currency: string;
  /** When the filing that reported it was made (YYYY-MM-DD), where known. */
  filed?: string;
  /** The XBRL concept it was read from, where the source names one. */
  concept?: string;
  /**
   * Where a later filing restated the period: each value it was reported at, oldest first, with the first
   * filing that reported it (the last is the current value).
   */
  reports?: StatementReport[];
  /** Where it came from, when it was fetched rather than loaded: edgar (SEC's filings) or the upstream's name. */
  source?: string;
}

/** A symbol's short interest as of a settlement date; percents as 1.5 = 1.5 %. */
export interface ShortInterest {
  sharesShort: number;
  sharesShortPriorMonth: number | null;
  priorSettlementDate: string | null;
  /** Days to cover: shares short over average daily volume. */
  shortRatio: number | null;
  percentOfFloat: number | null;
  percentOfSharesOutstanding: number | null;
  /** The settlement date the position was reported for (YYYY-MM-DD). */
  settlementDate: string;
  /** When the figures were read from the source. */
  asOf: string;
  source: string;
}

/** An instrument found by name or symbol. */
export interface InstrumentFound {
  /** The provider symbol (exchange-suffixed form). */
  symbol: string;
  name: string;
  exchange: string;
  /** As the source calls it (EQUITY, ETF, INDEX, FUTURE, CURRENCY, CRYPTOCURRENCY…). */
  type: string;
  /** Where it was found: `stored` (data is held) or the upstream's name. */
  source: string;
}

/**
 * An instrument as a request resolved it, once: what a provider needs to read it without resolving its ticker
 * again (the market's `Resolved` is one).
 */
export interface Instrument {
  /** The provider's symbol (exchange-suffixed form): BARC.L. */
  symbol: string;
  /** The service's own form, which statements are kept under: AAPL, BARC:XLON. */
  ticker: string;
  /** The listing's market (null: a US listing, or none). */
  mic: string | null;
  assetType: 'equity' | 'fund' | 'index' | 'future' | 'currency' | 'crypto';
  currency: string;
}

export interface MarketProvider {
  /** Latest short interest of the instruments it knows, by provider symbol; unknown ones are absent. */
  shortInterest(instruments: readonly Instrument[]): Promise<Map<string, ShortInterest>>;
  /** Reported statement facts of a company, by field id. */
  statements(instrument: Instrument): Promise<Map<string, StatementFact[]>>;
  /**
   * Latest quotes of the instruments it knows, by provider symbol; unknown ones are absent from the map.
   * `fields` names the field ids the caller will read, so a provider can fetch what its plain quote lacks
   * (profile, estimates).
   */
  quotes(instruments: readonly Instrument[], fields?: readonly string[]): Promise<Map<string, ProviderQuote>>;
  /** The newest `count` daily closes of an instrument, oldest first. */
  lastCloses(instrument: Instrument, count: number): Promise<number[]>;
  /** Daily bars of an instrument between two dates (inclusive), oldest first. */
  bars(instrument: Instrument, from?: string, to?: string): Promise<Bar[]>;
  /**
   * Every daily bar of an instrument, oldest first, not to be modified. A provider that keeps a series in memory
   * answers with the same array until its data changes, so callers may keep what they derive from it.
   * `since`, the earliest date the caller needs, lets a provider that fetches bars read fewer of them.
   */
  series(instrument: Instrument, since?: string): Promise<readonly Bar[]>;
  /**
   * The listing's bars, actions and repairs in one read (`since` and `knownBy` as for series and actions): what
   * the history and actions verbs read, so that a request reads each listing once.
   */
  listing(instrument: Instrument, since?: string, knownBy?: string): Promise<HeldListing>;
  /** Whether the instrument's bars were last served from an old copy because the upstream failed. */
  staleBars?(instrument: Instrument): boolean;
  /** Whether fields are held for the instrument without a quote (recorded facts, a partial quote kept). */
  hasFacts?(instrument: Instrument): Promise<boolean>;
  /**
   * The fields recorded for the instrument without a quote (SEC's exchange and CIK…); null when none are. With
   * `knownOn` (YYYY-MM-DD), SEC's exchange and CIK as its exchange files had them at the end of that day.
   */
  factsOf?(instrument: Instrument, knownOn?: string): Promise<ProviderQuote['fields'] | null>;
  /** Whether the statements last served for an instrument were a kept copy, the upstream failing. */
  staleStatements?(instrument: Instrument): boolean;
  /** Instruments whose symbol or name contains the text, the stored ones first. */
  find(text: string): Promise<InstrumentFound[]>;
  /**
   * The instrument's corporate actions held and where they are known; `since` as for series; `knownBy` (an ISO
   * instant) reads them as they were known then: the versions current at that time, the spans known by then.
   */
  actions(instrument: Instrument, since?: string, knownBy?: string): Promise<HeldActions>;
  /**
   * The listings' FIGIs by provider symbol, asked together: null when no source knows them (none is
   * configured, or it finds no such listing), `unreachable` when the source could not be reached.
   */
  identifiers(
    instruments: readonly Instrument[],
  ): Promise<Map<string, InstrumentIdentifiers | null | 'unreachable'>>;
}
