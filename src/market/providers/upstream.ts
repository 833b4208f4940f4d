// What the live market sources answer together. The live provider asks it for what the store does not hold,
// and keeps the answers in the market cache; the upstreams (src/market/upstreams/) answer it in the order the
// operator configures (upstreams/chain.ts).
import type {
  Bar,
  CorporateAction,
  Dispute,
  ProviderQuote,
  StatementFact,
} from '../../kernel/market-provider.js';
import type { MarketRecordValue } from '../load/record.js';

/** Quote symbols one upstream call carries at most. */
export const QUOTES_PER_CALL = 100;

/** Fields of a symbol beyond its quote (profile, estimates, key statistics), prices in main units. */
export interface Summary {
  asOf: string;
  fields: Record<string, number | string | null>;
  /** The upstream that answered. */
  source?: string;
  /** Fields another upstream gave, where the first one's summary had none of them, by field id. */
  fieldSources?: Record<string, string>;
}

/** Daily bars, oldest first, and the corporate actions of the same days (dividends in the bars' shares). */
export interface DailyHistory {
  bars: Bar[];
  actions: CorporateAction[];
  /** The action types the answer states all of over its days (absent: dividends and splits, as a chart does). */
  known?: readonly CorporateAction['type'][];
  /** The upstream that answered. */
  source?: string;
  /** Closes a second upstream answered otherwise (only where the second opinion is turned on). */
  disputes?: Dispute[];
}

/** An instrument the upstream's search found. */
export interface Found {
  symbol: string;
  name: string;
  exchange: string;
  type: string;
  /** The upstream that found it. */
  source?: string;
}

export interface Upstream {
  readonly name: string;
  /** The field ids its plain quote answers; others need the summary. */
  readonly quoteFields: ReadonlySet<string>;
  /**
   * Quotes of up to 100 symbols in one call; unknown symbols are absent from the map. `wanted` field ids its
   * own quote lacks may be sought elsewhere.
   */
  quotes(symbols: string[], wanted?: readonly string[]): Promise<Map<string, ProviderQuote>>;
  /** Daily bars from a date (YYYY-MM-DD) to today, split-adjusted, and the corporate actions among them. */
  bars(symbol: string, from: string): Promise<DailyHistory>;
  /** Profile, estimates and key statistics (short interest among them); null when the symbol is unknown. */
  summary(symbol: string): Promise<Summary | null>;
  search(query: string): Promise<Found[]>;
  /** Statement facts by field (fundamentals for listings SEC EDGAR does not cover); empty when it has none. */
  statements(symbol: string): Promise<Map<string, StatementFact[]>>;
}

/** A source of statements tried before the upstream's own (SEC EDGAR for US listings); null: it has none. */
export interface StatementsSource {
  statements(symbol: string): Promise<Map<string, StatementFact[]> | null>;
}

/** Statement records (as the loaders make them) as the facts of each field, each naming its source when given. */
export function factsOf(
  records: Iterable<{ value: MarketRecordValue }>,
  source?: string,
): Map<string, StatementFact[]> {
  const out = new Map<string, StatementFact[]>();
  for (const { value } of records) {
    if (value.type !== 'statement') continue;
    const { field, kind, start, end, value: amount, fp, currency, filed, concept, reports } = value;
    const list = out.get(field) ?? [];
    list.push({
      kind,
      start,
      end,
      value: amount,
      fp,
      currency,
      ...(filed ? { filed } : {}),
      ...(concept ? { concept } : {}),
      ...(reports ? { reports } : {}),
      ...(source ? { source } : {}),
    });
    out.set(field, list);
  }
  return out;
}
