// Where an answer's values came from: the upstream that answered each (a vendor, Yahoo), or `stored` for what
// was loaded into the store.
import type { ProviderQuote } from '../../kernel/market-provider.js';

/** Values loaded with `quarry ingest`. */
export const STORED = 'stored';

/** A quote field's source: the field's own where it came from elsewhere, else the quote's. */
export function fieldSource(quote: ProviderQuote, id: string): string {
  return quote.fieldSources?.[id] ?? quote.source ?? STORED;
}

/** The sources of the fields a quote holds a value of, by field id. */
export function quoteSources(quote: ProviderQuote, ids: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const id of ids) {
    const value = quote.fields[id];
    if (value !== null && value !== undefined) out[id] = fieldSource(quote, id);
  }
  return out;
}
