// Where an answer's values came from: the upstream that answered each (a vendor, Yahoo), or `stored` for what
// was loaded into the store. An item says its `source`, and in `sources` only the values that came from
// elsewhere (docs/adr/039): most items have one source, and a map of every field would grow each answer by a
// quarter for nothing.
import type { ProviderQuote } from '../../kernel/market-provider.js';

/** Values loaded with `quarry ingest`. */
export const STORED = 'stored';

/** A quote field's source: the field's own where it came from elsewhere, else the quote's. */
export function fieldSource(quote: ProviderQuote, id: string): string {
  return quote.fieldSources?.[id] ?? quote.source ?? STORED;
}

/**
 * A quote's `source` and, where some of the members it answers came from elsewhere, `sources` naming them: a
 * member not named there came from `source`.
 */
export function quoteSources(
  quote: ProviderQuote,
  ids: readonly string[],
): { source: string; file?: string; sources?: Record<string, string> } {
  const source = quote.source ?? STORED;
  if (!quote.fieldSources) return quote.file && !quote.source ? { source, file: quote.file } : { source };
  const sources: Record<string, string> = {};
  for (const id of ids) {
    const value = quote.fields[id];
    const from = quote.fieldSources[id];
    if (value !== null && value !== undefined && from && from !== source) sources[id] = from;
  }
  return Object.keys(sources).length ? { source, sources } : { source };
}
