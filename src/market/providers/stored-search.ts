// Search of what the store holds: listings by symbol and name (recorded quotes, named listings, bars alone,
// EDGAR's registrant list), or a registrant's listings by its CIK.
import { type Kysely, sql } from 'kysely';
import type { InstrumentFound, ProviderQuote } from '../../kernel/market-provider.js';
import type { Database } from '../../store/schema.js';

/** Instruments a search answers at most. */
export const FOUND_AT_MOST = 20;

type Fields = ProviderQuote['fields'];

export async function findStored(db: Kysely<Database>, text: string): Promise<InstrumentFound[]> {
  if (/^\d{1,10}$/.test(text.trim())) return findByCik(db, text.trim());
  const escaped = text.toLowerCase().replace(/[\\%_]/g, '\\$&');
  const like = (column: string, pattern: string) =>
    sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
  // A symbol matches anywhere in it; a name by the start of any of its words ("apple" is not "Pineapple").
  const matches = (column: string) => like(column, `%${escaped}%`);
  const named = (column: string) =>
    sql<boolean>`(${like(column, `${escaped}%`)} or ${like(column, `% ${escaped}%`)})`;
  const [quoted, listed, barred, registered] = await Promise.all([
    db
      .selectFrom('market_quotes')
      .select(['symbol', 'name', 'exchange', 'asset_type'])
      .where((eb) => eb.or([matches('symbol'), named('name')]))
      .orderBy('symbol')
      .limit(FOUND_AT_MOST)
      .execute(),
    // A listing held only as bars, by the name its operator gave it.
    db
      .selectFrom('market_listings')
      .select(['symbol', 'name'])
      .where((eb) => eb.or([matches('symbol'), named('name')]))
      .orderBy('symbol')
      .limit(FOUND_AT_MOST)
      .execute(),
    db
      .selectFrom('market_bar_blocks')
      .select('symbol')
      .distinct()
      .where('superseded_at', 'is', null)
      .where(matches('symbol'))
      .orderBy('symbol')
      .limit(FOUND_AT_MOST)
      .execute(),
    // EDGAR's registrant list names US listings (ADRs of foreign companies among them), largest first.
    db
      .selectFrom('registrants')
      .select(['ticker', 'name'])
      .where('is_current', '=', 1)
      .where('listed', '=', 1)
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
async function findByCik(db: Kysely<Database>, text: string): Promise<InstrumentFound[]> {
  const cik = text.padStart(10, '0');
  const [registered, facts] = await Promise.all([
    db
      .selectFrom('registrants')
      .select(['ticker', 'name'])
      .where('is_current', '=', 1)
      .where('listed', '=', 1)
      .where('cik', '=', cik)
      .orderBy('rank')
      .execute(),
    db
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
