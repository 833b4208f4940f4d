// Quotes chosen per field. A quote comes from the first upstream, in the operator's order, that knows the listing
// and quotes a price; then each field asked comes from the first upstream whose quote carries it: FMP's quote
// with Polygon's bid and ask before it in the order, or Yahoo's after it (FMP's has none). A field taken from
// another upstream names it in `fieldSources`, with its own time where it differs. A quote says which fields
// were sought, so a kept copy lacking one is fetched again only for a field not sought before.
import type { ProviderQuote } from '../../kernel/market-provider.js';
import type { Vendor } from './port.js';

type Quoting = Vendor & Required<Pick<Vendor, 'quotes'>>;

const carries = (v: Vendor, id: string) => v.quoteFields?.has(id) === true;

type Fields = ProviderQuote['fields'];

/** A quote or summary with some fields of another upstream's, each naming that upstream. */
export function withFieldsOf<T extends { fields: Fields; fieldSources?: Record<string, string> }>(
  target: T,
  fields: Fields,
  ids: readonly string[],
  source: string,
): T {
  const merged = { ...target.fields };
  const fieldSources = { ...target.fieldSources };
  for (const id of ids) {
    merged[id] = fields[id] ?? null;
    fieldSources[id] = source;
  }
  return { ...target, fields: merged, fieldSources };
}

/** Whether an upstream's quote is a quote (it has a price), not some of a quote's fields (Polygon's bid and ask). */
export const quotesPrices = (v: Vendor) => carries(v, 'price');

/** Each quote's wanted fields from the first upstream in order whose quote carries them; `quotes` is updated. */
export async function completeQuotes(
  vendors: readonly Quoting[],
  quotes: Map<string, ProviderQuote>,
  wanted: readonly string[],
  onError: (what: string, error: unknown) => void,
): Promise<void> {
  // The fields of each quote another upstream comes before its own for (or its own lacks), by symbol.
  const pending = new Map<string, Set<string>>();
  for (const [symbol, quote] of quotes) {
    const ids = wanted.filter((id) => {
      const first = vendors.find((v) => v.covers(symbol) && carries(v, id));
      return first !== undefined && first.name !== quote.source;
    });
    if (ids.length) pending.set(symbol, new Set(ids));
  }
  for (const vendor of vendors) {
    const asked: [string, string[]][] = [];
    for (const [symbol, ids] of pending) {
      const quote = quotes.get(symbol) as ProviderQuote;
      const mine = [...ids].filter((id) => carries(vendor, id));
      if (mine.length === 0 || !vendor.covers(symbol)) continue;
      // The quote's own upstream in its place in the order: what it answered stands.
      if (vendor.name === quote.source) for (const id of mine) if (quote.fields[id] != null) ids.delete(id);
      if (vendor.name !== quote.source) asked.push([symbol, mine]);
    }
    if (asked.length) await takeFields(vendor, asked, quotes, pending, onError);
  }
  // Every quote says the fields were sought, found or not.
  for (const [symbol, quote] of quotes)
    quotes.set(symbol, { ...quote, sought: [...new Set([...(quote.sought ?? []), ...wanted])] });
}

/** The fields asked of one upstream, set on each quote where it answered them. */
async function takeFields(
  vendor: Quoting,
  asked: [symbol: string, ids: string[]][],
  quotes: Map<string, ProviderQuote>,
  pending: Map<string, Set<string>>,
  onError: (what: string, error: unknown) => void,
): Promise<void> {
  let found: Map<string, ProviderQuote>;
  try {
    found = await vendor.quotes(asked.map(([symbol]) => symbol));
  } catch (error) {
    onError(`${vendor.name} quotes`, error);
    return;
  }
  for (const [symbol, ids] of asked) {
    const theirs = found.get(symbol);
    const got = ids.filter((id) => theirs?.fields[id] != null);
    if (!theirs || got.length === 0) continue;
    const quote = quotes.get(symbol) as ProviderQuote;
    const fieldsAsOf = { ...quote.fieldsAsOf };
    for (const id of got) {
      if (theirs.asOf !== quote.asOf) fieldsAsOf[id] = theirs.asOf;
      pending.get(symbol)?.delete(id);
    }
    const timed = Object.keys(fieldsAsOf).length ? { fieldsAsOf } : {};
    quotes.set(symbol, { ...withFieldsOf(quote, theirs.fields, got, vendor.name), ...timed });
  }
}
