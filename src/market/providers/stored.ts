// The stored provider: quotes and bars as loaded by `quarry ingest prices|yahoo|sec-facts`. A symbol's quote is
// the newest known: its recorded quote, or one built from its last two bars when they are newer. A listing's
// bars and actions are read together once per load of market data and then served from memory.
import type { Kysely } from 'kysely';
import { cachedRead } from '../../ingest/read-cache.js';
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
  StatementReport,
} from '../../kernel/market-provider.js';
import type { Database } from '../../store/schema.js';
import { unpackBars } from '../bars/blocks.js';
import { barRange } from '../compute/periods.js';
import { quotedInMinorUnits } from '../symbology/tables.js';
import { listingReader } from './stored-listing.js';
import { barQuote, listingKey, newerPrices, newest, shortInterestOf, withFacts } from './stored-quote.js';
import { findStored } from './stored-search.js';

type Fields = ProviderQuote['fields'];

export class StoredProvider implements MarketProvider {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * A listing's bars, actions and repairs, read together once per load of market data (the read cache drops
   * them when a load changes the data); with `knownBy`, its actions as known then, read each time.
   */
  listing(instrument: Instrument, _since?: string, knownBy?: string): Promise<HeldListing> {
    const read = listingReader(this.db, instrument.symbol, knownBy);
    return knownBy === undefined
      ? cachedRead(this.db, 'market', `listing:${instrument.symbol}`, read)
      : read();
  }

  /** Every stored daily bar of a symbol, oldest first, repaired (the stored rows stay as loaded). */
  async series(instrument: Instrument): Promise<readonly Bar[]> {
    return (await this.listing(instrument)).bars;
  }

  /**
   * The bars a quote is made of: the last two years held (the last close, the one before it and the 52 weeks
   * before it), without reading the whole series. A listing quoted in minor units is read whole: its unit slips
   * are judged against the series around them.
   */
  private async recentBars(instrument: Instrument): Promise<{ bars: readonly Bar[]; file?: string }> {
    if (quotedInMinorUnits(instrument.symbol)) {
      const { bars, files = [] } = await this.listing(instrument);
      return { bars, file: files[files.length - 1]?.file };
    }
    const blocks = await this.db
      .selectFrom('market_bar_blocks')
      .select(['year', 'bars', 'source'])
      .where('symbol', '=', instrument.symbol)
      .where('superseded_at', 'is', null)
      .orderBy('year', 'desc')
      .limit(2)
      .execute();
    const bars: Bar[] = [];
    for (const block of blocks.reverse()) unpackBars(block.year, block.bars, bars);
    return { bars, file: blocks[blocks.length - 1]?.source };
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
    const [row, facts, names, recent] = await Promise.all([
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
          file: row.source,
        }
      : null;
    const made = barQuote(instrument, recent.bars, names.get(symbol));
    const fromBars = made && recent.file ? { ...made, file: recent.file } : made;
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

  async factsOf(instrument: Instrument, knownOn?: string): Promise<Fields | null> {
    const fields = (await this.facts([instrument.symbol])).get(instrument.symbol)?.fields ?? null;
    if (knownOn === undefined) return fields;
    const { cik: _cik, exchangeCode: _code, exchangeSnapshotAt: _at, ...others } = fields ?? {};
    const then = await this.db
      .selectFrom('market_exchange_snapshots')
      .select(['snapshot_at', 'cik', 'exchange_code'])
      .where('symbol', '=', instrument.symbol)
      .where('snapshot_at', '<=', `${knownOn}T23:59:59.999Z`)
      .orderBy('snapshot_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!then) return others;
    return {
      ...others,
      cik: then.cik,
      exchangeCode: then.exchange_code,
      exchangeSnapshotAt: then.snapshot_at,
    };
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

  /** The listing's actions, current or as known at `knownBy`, and the spans known. */
  async actions(instrument: Instrument, _since?: string, knownBy?: string): Promise<HeldActions> {
    return (await this.listing(instrument, undefined, knownBy)).actions;
  }

  /** No identifiers are stored: they come from OpenFIGI, through the live provider. */
  async identifiers(): Promise<Map<string, InstrumentIdentifiers | null>> {
    return new Map();
  }

  async lastCloses(instrument: Instrument, count: number): Promise<number[]> {
    return (await this.series(instrument)).slice(-count).map((b) => b.close);
  }

  find(text: string): Promise<InstrumentFound[]> {
    return findStored(this.db, text);
  }

  async bars(instrument: Instrument, from?: string, to?: string): Promise<Bar[]> {
    const all = await this.series(instrument);
    const [first, end] = barRange(all, from, to);
    return all.slice(first, end);
  }
}
