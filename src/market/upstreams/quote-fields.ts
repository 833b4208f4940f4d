// Quotes chosen per field: a quote comes from the first upstream that knows the listing, and each field asked
// that its quote does not answer (FMP's has no bid, ask or P/E) from the next upstream, in the operator's order,
// whose quote does. The field then names its upstream in `fieldSources`; a quote says which fields were sought,
// so a kept copy lacking one is fetched again only for a field not sought before.
import type { ProviderQuote } from '../../kernel/market-provider.js';
import type { Vendor } from './port.js';

type Quoting = Vendor & Required<Pick<Vendor, 'quotes'>>;

/** The wanted fields each quote lacks, asked of the other quoting upstreams in order; `quotes` is updated. */
export async function completeQuotes(
  vendors: readonly Quoting[],
  quotes: Map<string, ProviderQuote>,
  wanted: readonly string[],
  onError: (what: string, error: unknown) => void,
): Promise<void> {
  const answers = (v: Vendor, id: string) => v.quoteFields?.has(id) === true;
  const lacking = new Map<string, string[]>();
  for (const [symbol, quote] of quotes) {
    const from = vendors.find((v) => v.name === quote.source);
    const missing = wanted.filter((id) => !(from && answers(from, id)) && !(id in quote.fields));
    if (missing.some((id) => vendors.some((v) => answers(v, id)))) lacking.set(symbol, missing);
  }
  for (const vendor of vendors) {
    const asked = [...lacking].filter(
      ([symbol, ids]) =>
        quotes.get(symbol)?.source !== vendor.name &&
        vendor.covers(symbol) &&
        ids.some((id) => answers(vendor, id)),
    );
    if (asked.length === 0) continue;
    let found: Map<string, ProviderQuote>;
    try {
      found = await vendor.quotes(asked.map(([symbol]) => symbol));
    } catch (error) {
      onError(`${vendor.name} quotes`, error);
      continue;
    }
    for (const [symbol, ids] of asked) {
      const theirs = found.get(symbol);
      const got = ids.filter((id) => theirs?.fields[id] !== undefined && theirs.fields[id] !== null);
      if (!theirs || got.length === 0) continue;
      const quote = quotes.get(symbol) as ProviderQuote;
      const fields = { ...quote.fields };
      const fieldSources = { ...quote.fieldSources };
      for (const id of got) {
        fields[id] = theirs.fields[id] as string | number;
        fieldSources[id] = vendor.name;
      }
      quotes.set(symbol, { ...quote, fields, fieldSources });
      lacking.set(
        symbol,
        ids.filter((id) => !got.includes(id)),
      );
    }
  }
  // Every quote says the fields were sought, found or not: a kept copy is not fetched again for them.
  for (const [symbol, quote] of quotes)
    quotes.set(symbol, { ...quote, sought: [...new Set([...(quote.sought ?? []), ...wanted])] });
}
