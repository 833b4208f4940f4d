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
}

export interface Bar {
  date: string;
  open: number | null;
  high: number | null;
  low: number | null;
  close: number;
  volume: number | null;
}

/** A price the provider scaled back because it arrived in the wrong unit (pence among pounds). */
export interface Repair {
  date: string;
  field: 'open' | 'high' | 'low' | 'close';
  from: number;
  to: number;
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

export interface MarketProvider {
  /** Latest short interest of the provider symbols it knows; unknown symbols are absent from the map. */
  shortInterest(symbols: string[]): Promise<Map<string, ShortInterest>>;
  /** Reported statement facts of a company (service ticker), by field id. */
  statements(ticker: string): Promise<Map<string, StatementFact[]>>;
  /**
   * Latest quotes of the provider symbols it knows; unknown symbols are absent from the map. `fields` names the
   * field ids the caller will read, so a provider can fetch what its plain quote lacks (profile, estimates).
   */
  quotes(symbols: string[], fields?: readonly string[]): Promise<Map<string, ProviderQuote>>;
  /** The newest `count` daily closes of a symbol, oldest first. */
  lastCloses(symbol: string, count: number): Promise<number[]>;
  /** Daily bars of a symbol between two dates (inclusive), oldest first. */
  bars(symbol: string, from?: string, to?: string): Promise<Bar[]>;
  /**
   * Every daily bar of a symbol, oldest first, not to be modified. A provider that keeps a series in memory
   * answers with the same array until its data changes, so callers may keep what they derive from it.
   * `since`, the earliest date the caller needs, lets a provider that fetches bars read fewer of them.
   */
  series(symbol: string, since?: string): Promise<readonly Bar[]>;
  /** Whether the symbol's bars were last served from an old copy because the upstream failed. */
  staleBars?(symbol: string): boolean;
  /** Whether fields are held for the symbol without a quote (recorded facts, a partial quote kept). */
  hasFacts?(symbol: string): Promise<boolean>;
  /** Whether the statements last served for a ticker were a kept copy, the upstream failing. */
  staleStatements?(ticker: string): boolean;
  /** Instruments whose symbol or name contains the text, the stored ones first. */
  find(text: string): Promise<InstrumentFound[]>;
  /** Prices of the symbol's bars that were repaired (100× unit slips), oldest first. */
  repairs?(symbol: string): Promise<readonly Repair[]>;
}
