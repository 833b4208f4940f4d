// The stored provider: quotes and bars as loaded by `quarry ingest prices|yahoo|sec-facts`. A symbol's quote is
// the newest known: its recorded quote, or one built from its last two bars when they are newer. A symbol's daily bars are read once per
// load of market data and then served from memory (the read cache drops them when a load changes the data).
import { type Kysely, sql } from 'kysely';
import { cachedRead } from '../../ingest/read-cache.js';
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
  StatementReport,
} from '../../kernel/market-provider.js';
import type { Database } from '../../store/schema.js';
import { unpackBars } from '../bar-blocks.js';
import { barRange } from '../compute/periods.js';
import { repairPaymentUnits, repairUnitSlips } from '../compute/repair.js';
import { barClose } from '../symbology/sessions.js';
import { quotedInMinorUnits } from '../symbology/tables.js';

/** Instruments a search answers at most. */
export const FOUND_AT_MOST = 20;

export class StoredProvider implements MarketProvider {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Every stored daily bar of a symbol, oldest first: one array per symbol while the market data is unchanged.
   * A listing quoted in minor units has its 100× unit slips repaired (the stored rows stay as loaded).
   */
  async series(instrument: Instrument): Promise<readonly Bar[]> {
    return (await this.repairedSeries(instrument.symbol)).bars;
  }

  /**
   * The bars a quote is made of: the last two years held (the last close, the one before it and the 52 weeks
   * before it), without reading the whole series. A listing quoted in minor units is read whole: its unit slips
   * are judged against the series around them.
   */
  private async recentBars(instrument: Instrument): Promise<readonly Bar[]> {
    if (quotedInMinorUnits(instrument.symbol)) return this.series(instrument);
    const blocks = await this.db
      .selectFrom('market_bar_blocks')
      .select(['year', 'bars'])
      .where('symbol', '=', instrument.symbol)
      .where('superseded_at', 'is', null)
      .orderBy('year', 'desc')
      .limit(2)
      .execute();
    const bars: Bar[] = [];
    for (const block of blocks.reverse()) unpackBars(block.year, block.bars, bars);
    return bars;
  }

  async repairs(instrument: Instrument): Promise<readonly Repair[]> {
    return (await this.repairedSeries(instrument.symbol)).repairs;
  }

  private repairedSeries(symbol: string) {
    return cachedRead(this.db, 'market', `bars:${symbol}`, async () => {
      const blocks = await this.db
        .selectFrom('market_bar_blocks')
        .select(['year', 'bars'])
        .where('symbol', '=', symbol)
        .where('superseded_at', 'is', null)
        .orderBy('year')
        .execute();
      const rows: Bar[] = [];
      for (const block of blocks) unpackBars(block.year, block.bars, rows);
      return quotedInMinorUnits(symbol) ? repairUnitSlips(rows) : { bars: rows, repairs: [] };
    });
  }

  /**
   * The newest known quote of each symbol: the recorded one, or one made of its last daily bars (a close is a
   * quote at its session's close, the market closed) when the last bar is newer — then the recording's other
   * fields are kept beside it with their own, older time. Each is made once per load of market data.
   */
  async quotes(instruments: readonly Instrument[]): Promise<Map<string, ProviderQuote>> {
    const out = new Map<string, ProviderQuote>();
    const quotes = await Promise.all(
      instruments.map((instrument) =>
        cachedRead(this.db, 'market', `quote:${listingKey(instrument)}`, () => this.newestQuote(instrument)),
      ),
    );
    for (const [index, quote] of quotes.entries()) if (quote) out.set(instruments[index]!.symbol, quote);
    return out;
  }

  private async newestQuote(instrument: Instrument): Promise<ProviderQuote | null> {
    const { symbol } = instrument;
    const [row, facts, names, series] = await Promise.all([
      this.db.selectFrom('market_quotes').selectAll().where('symbol', '=', symbol).executeTakeFirst(),
      this.facts([symbol]),
      this.listingNames(),
      this.recentBars(instrument),
    ]);
    const quote: ProviderQuote | null = row
      ? {
          symbol: row.symbol,
          name: row.name,
          currency: row.currency,
          exchange: row.exchange,
          assetType: row.asset_type,
          asOf: row.as_of,
          fields: withFacts(JSON.parse(row.fields) as Fields, row.as_of, facts.get(symbol)),
        }
      : null;
    const fromBars = barQuote(instrument, series, names.get(symbol));
    if (!fromBars) return quote;
    if (!quote) return fromBars;
    return Date.parse(fromBars.asOf) > Date.parse(quote.asOf) ? newerPrices(quote, fromBars) : quote;
  }

  /** The names operators gave listings held only as bars: one read while the market data is unchanged. */
  private listingNames(): Promise<ReadonlyMap<string, string>> {
    return cachedRead(this.db, 'market', 'listings', async () => {
      const rows = await this.db.selectFrom('market_listings').select(['symbol', 'name']).execute();
      return new Map(rows.map((r) => [r.symbol, r.name]));
    });
  }

  async factsOf(instrument: Instrument): Promise<Fields | null> {
    return (await this.facts([instrument.symbol])).get(instrument.symbol)?.fields ?? null;
  }

  async hasFacts(instrument: Instrument): Promise<boolean> {
    return (await this.facts([instrument.symbol])).has(instrument.symbol);
  }

  /** Fields recorded without a quote (market_facts), by symbol. */
  private async facts(symbols: string[]): Promise<Map<string, { asOf: string; fields: Fields }>> {
    if (symbols.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('market_facts')
      .select(['symbol', 'fields', 'as_of'])
      .where('symbol', 'in', symbols)
      .execute();
    return new Map(rows.map((r) => [r.symbol, { asOf: r.as_of, fields: JSON.parse(r.fields) as Fields }]));
  }

  async shortInterest(instruments: readonly Instrument[]): Promise<Map<string, ShortInterest>> {
    const out = new Map<string, ShortInterest>();
    if (instruments.length === 0) return out;
    const symbols = instruments.map((i) => i.symbol);
    const [quotes, facts] = await Promise.all([
      this.db
        .selectFrom('market_quotes')
        .select(['symbol', 'fields', 'as_of'])
        .where('symbol', 'in', symbols)
        .execute(),
      this.facts(symbols),
    ]);
    const quoted = new Map(quotes.map((q) => [q.symbol, q]));
    for (const symbol of symbols) {
      const quote = quoted.get(symbol);
      const fact = facts.get(symbol);
      const fields = withFacts(quote ? (JSON.parse(quote.fields) as Fields) : {}, quote?.as_of ?? '', fact);
      const found = shortInterestOf(fields, newest(quote?.as_of, fact?.asOf));
      if (found) out.set(symbol, found);
    }
    return out;
  }

  /** Statements are kept under the service's ticker (AAPL), the company's. */
  async statements(instrument: Instrument): Promise<Map<string, StatementFact[]>> {
    const rows = await this.db
      .selectFrom('market_statements')
      .select(['field', 'kind', 'start', 'end', 'value', 'fp', 'currency', 'filed', 'concept', 'reports'])
      .where('symbol', '=', instrument.ticker)
      .execute();
    const out = new Map<string, StatementFact[]>();
    for (const r of rows) {
      const list = out.get(r.field) ?? [];
      list.push({
        kind: r.kind as StatementFact['kind'],
        start: r.start,
        end: r.end,
        value: Number(r.value),
        fp: r.fp,
        currency: r.currency,
        filed: r.filed,
        ...(r.concept ? { concept: r.concept } : {}),
        ...(r.reports ? { reports: JSON.parse(r.reports) as StatementReport[] } : {}),
      });
      out.set(r.field, list);
    }
    return out;
  }

  /**
   * The current version of each corporate action held for the listing, and the spans over which each type is
   * known: one answer per load of market data.
   */
  actions(instrument: Instrument, _since?: string, knownBy?: string): Promise<HeldActions> {
    if (knownBy !== undefined) return this.readActions(instrument.symbol, knownBy);
    return cachedRead(this.db, 'market', `actions:${instrument.symbol}`, () =>
      this.readActions(instrument.symbol),
    );
  }

  /** The actions current now, or at `knownBy`, and the spans known by then. */
  private async readActions(symbol: string, knownBy?: string): Promise<HeldActions> {
    let versions = this.db
      .selectFrom('market_actions')
      .select(['date', 'type', 'amount', 'numerator', 'denominator', 'known_at'])
      .where('symbol', '=', symbol);
    let spans = this.db
      .selectFrom('market_action_spans')
      .select(['type', 'start', 'end'])
      .where('symbol', '=', symbol);
    if (knownBy === undefined) versions = versions.where('superseded_at', 'is', null);
    else {
      versions = versions
        .where('known_at', '<=', knownBy)
        .where((eb) => eb.or([eb('superseded_at', 'is', null), eb('superseded_at', '>', knownBy)]));
      spans = spans.where('known_at', '<=', knownBy);
    }
    const [rows, known] = await Promise.all([
      versions.orderBy('date').orderBy('type').execute(),
      spans.execute(),
    ]);
    const actions = rows.map(
      (r): CorporateAction => ({
        date: r.date,
        type: r.type,
        ...(r.amount !== null ? { amount: Number(r.amount) } : {}),
        ...(r.numerator !== null ? { numerator: Number(r.numerator) } : {}),
        ...(r.denominator !== null ? { denominator: Number(r.denominator) } : {}),
        knownAt: r.known_at,
      }),
    );
    // A listing quoted in minor units has its payments sent in the other unit scaled back.
    const repaired = quotedInMinorUnits(symbol)
      ? repairPaymentUnits((await this.repairedSeries(symbol)).bars, actions)
      : actions;
    return { actions: repaired, known };
  }

  /** No identifiers are stored: they come from OpenFIGI, through the live provider. */
  async identifiers(): Promise<Map<string, InstrumentIdentifiers | null>> {
    return new Map();
  }

  async lastCloses(instrument: Instrument, count: number): Promise<number[]> {
    return (await this.series(instrument)).slice(-count).map((b) => b.close);
  }

  async find(text: string): Promise<InstrumentFound[]> {
    if (/^\d{1,10}$/.test(text.trim())) return this.findByCik(text.trim());
    const escaped = text.toLowerCase().replace(/[\\%_]/g, '\\$&');
    const like = (column: string, pattern: string) =>
      sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
    // A symbol matches anywhere in it; a name by the start of any of its words ("apple" is not "Pineapple").
    const matches = (column: string) => like(column, `%${escaped}%`);
    const named = (column: string) =>
      sql<boolean>`(${like(column, `${escaped}%`)} or ${like(column, `% ${escaped}%`)})`;
    const [quoted, listed, barred, registered] = await Promise.all([
      this.db
        .selectFrom('market_quotes')
        .select(['symbol', 'name', 'exchange', 'asset_type'])
        .where((eb) => eb.or([matches('symbol'), named('name')]))
        .orderBy('symbol')
        .limit(FOUND_AT_MOST)
        .execute(),
      // A listing held only as bars, by the name its operator gave it.
      this.db
        .selectFrom('market_listings')
        .select(['symbol', 'name'])
        .where((eb) => eb.or([matches('symbol'), named('name')]))
        .orderBy('symbol')
        .limit(FOUND_AT_MOST)
        .execute(),
      this.db
        .selectFrom('market_bar_blocks')
        .select('symbol')
        .distinct()
        .where('superseded_at', 'is', null)
        .where(matches('symbol'))
        .orderBy('symbol')
        .limit(FOUND_AT_MOST)
        .execute(),
      // EDGAR's registrant list names US listings (ADRs of foreign companies among them), largest first.
      this.db
        .selectFrom('registrants')
        .select(['ticker', 'name'])
        .where('is_current', '=', 1)
        .where((eb) => eb.or([matches('ticker'), named('name')]))
        .orderBy('rank')
        .limit(FOUND_AT_MOST)
        .execute(),
    ]);
    const found = new Map<string, InstrumentFound>();
    for (const q of quoted)
      found.set(q.symbol, {
        symbol: q.symbol,
        name: q.name,
        exchange: q.exchange,
        type: q.asset_type,
        source: 'stored',
      });
    for (const { symbol, name } of listed)
      if (!found.has(symbol)) found.set(symbol, { symbol, name, exchange: '', type: '', source: 'stored' });
    for (const { symbol } of barred)
      if (!found.has(symbol))
        found.set(symbol, { symbol, name: symbol, exchange: '', type: '', source: 'stored' });
    for (const { ticker, name } of registered)
      if (!found.has(ticker))
        found.set(ticker, { symbol: ticker, name, exchange: '', type: 'EQUITY', source: 'edgar' });
    return [...found.values()].slice(0, FOUND_AT_MOST);
  }

  /**
   * The US listings of a registrant by its CIK (any number of leading zeros): its tickers in EDGAR's
   * registrant list, main one first, and the listings SEC's exchange file gave that CIK.
   */
  private async findByCik(text: string): Promise<InstrumentFound[]> {
    const cik = text.padStart(10, '0');
    const [registered, facts] = await Promise.all([
      this.db
        .selectFrom('registrants')
        .select(['ticker', 'name'])
        .where('is_current', '=', 1)
        .where('cik', '=', cik)
        .orderBy('rank')
        .execute(),
      this.db
        .selectFrom('market_facts')
        .select(['symbol', 'fields'])
        .where('fields', 'like', `%"cik":"${cik}"%`)
        .orderBy('symbol')
        .limit(FOUND_AT_MOST)
        .execute(),
    ]);
    const found = new Map<string, InstrumentFound>();
    for (const { ticker, name } of registered)
      found.set(ticker, { symbol: ticker, name, exchange: '', type: 'EQUITY', source: 'edgar' });
    for (const { symbol, fields } of facts) {
      const exchange = (JSON.parse(fields) as Fields).exchangeCode;
      const held = found.get(symbol);
      if (held) held.exchange = typeof exchange === 'string' ? exchange : held.exchange;
      else
        found.set(symbol, {
          symbol,
          name: symbol,
          exchange: typeof exchange === 'string' ? exchange : '',
          type: 'EQUITY',
          source: 'edgar',
        });
    }
    return [...found.values()].slice(0, FOUND_AT_MOST);
  }

  async bars(instrument: Instrument, from?: string, to?: string): Promise<Bar[]> {
    const all = await this.series(instrument);
    const [first, end] = barRange(all, from, to);
    return all.slice(first, end);
  }
}

function round(value: number): number {
  return Math.round(value * 1e8) / 1e8;
}

type Fields = ProviderQuote['fields'];

/** A quote's fields with the symbol's facts added: the newer recording wins where both have a value. */
export function withFacts(
  fields: Fields,
  asOf: string,
  facts: { asOf: string; fields: Fields } | undefined,
): Fields {
  if (!facts) return fields;
  return facts.asOf > asOf ? { ...fields, ...facts.fields } : { ...facts.fields, ...fields };
}

function newest(a: string | undefined, b: string | undefined): string {
  return [a ?? '', b ?? ''].sort().at(-1) as string;
}

const num = (value: unknown) => (typeof value === 'number' ? value : null);

/** The short-interest members of a symbol's fields, when it has a settlement date and a short position. */
export function shortInterestOf(fields: Fields, asOf: string): ShortInterest | null {
  const sharesShort = num(fields.sharesShort);
  const settlementDate = typeof fields.shortInterestDate === 'string' ? fields.shortInterestDate : null;
  if (sharesShort === null || settlementDate === null) return null;
  return {
    sharesShort,
    sharesShortPriorMonth: num(fields.sharesShortPriorMonth),
    priorSettlementDate:
      typeof fields.shortInterestPriorDate === 'string' ? fields.shortInterestPriorDate : null,
    shortRatio: num(fields.shortRatio),
    percentOfFloat: num(fields.shortPercentOfFloat),
    percentOfSharesOutstanding: num(fields.shortPercentOfSharesOutstanding),
    settlementDate,
    asOf,
    source: 'yahoo',
  };
}

/** The price fields a quote made of bars gives. */
const BAR_FIELDS = [
  'price',
  'open',
  'high',
  'low',
  'volume',
  'previousClose',
  'change',
  'changePercent',
  'high52w',
  'low52w',
  'marketState',
] as const;

/** What a stored quote depends on beside the data: the listing's symbol and the market its close is timed by. */
const listingKey = (i: Instrument) =>
  `${i.symbol}\u0000${i.mic ?? ''}\u0000${i.assetType}\u0000${i.currency}`;

/** A quote made of a symbol's last two daily bars, at the last one's session close; null without bars. */
function barQuote(
  instrument: Instrument,
  bars: readonly Bar[],
  name = instrument.symbol,
): ProviderQuote | null {
  const { symbol } = instrument;
  const today = bars.at(-1);
  if (!today) return null;
  const before = bars.at(-2);
  const yearAgo = new Date(Date.parse(`${today.date}T00:00:00Z`) - 365 * 86_400_000)
    .toISOString()
    .slice(0, 10);
  let high52w = Number.NEGATIVE_INFINITY;
  let low52w = Number.POSITIVE_INFINITY;
  for (let i = bars.length - 1; i >= 0 && bars[i]!.date > yearAgo; i -= 1) {
    const b = bars[i]!;
    high52w = Math.max(high52w, b.high ?? b.close);
    low52w = Math.min(low52w, b.low ?? b.close);
  }
  const previous = before?.close ?? null;
  return {
    symbol,
    name,
    currency: '',
    exchange: '',
    assetType: '',
    // A close is true at its session's close where the listing's market is known, else at midnight UTC.
    asOf: barClose(instrument, today.date),
    fields: {
      price: today.close,
      open: today.open,
      high: today.high,
      low: today.low,
      volume: today.volume,
      previousClose: previous,
      change: previous === null ? null : round(today.close - previous),
      changePercent: previous ? round(((today.close - previous) / previous) * 100) : null,
      high52w,
      low52w,
      marketState: 'CLOSED',
    },
  };
}

/** The recording with the bars' newer prices: its other fields keep their own (older) time. */
function newerPrices(quote: ProviderQuote, fromBars: ProviderQuote): ProviderQuote {
  const fields: Fields = { ...quote.fields };
  const fieldsAsOf: Record<string, string> = {};
  for (const id of Object.keys(quote.fields)) fieldsAsOf[id] = quote.asOf;
  for (const id of BAR_FIELDS) {
    fields[id] = fromBars.fields[id] ?? null;
    delete fieldsAsOf[id];
  }
  return { ...quote, asOf: fromBars.asOf, fields, fieldsAsOf };
}
