// One ticker as sent, resolved (instrument.ts) and found: its resolution and quote (trying the resolution's
// fallbacks in order), or an error of its own — the first step of every per-ticker market verb.
import type { MarketProvider, ProviderQuote } from '../../kernel/market-provider.js';
import type { Resolved } from '../symbology/resolve.js';
import { type Resolving, resolveInput } from './instrument.js';

export interface Found {
  resolved: Resolved;
  quote: ProviderQuote;
  /** False where no quote was found and an empty one stands in (lookupOne without requireQuote). */
  quoted: boolean;
}

/** What one input found: its resolution and quote, or an error of its own (its lookup's, or its resolution's). */
export type Looked =
  | { input: string; status: 'ok'; found: Found }
  | { input: string; status: 'error'; error: { code: 'not_found' | 'timeout'; message: string } };

/** What one resolved input found among the quotes read for its request. */
function found(c: Resolving, quotes: ReadonlyMap<string, ProviderQuote>, requireQuote: boolean): Looked {
  if (c.status === 'error') return c;
  const { input, chain } = c;
  const hit = chain.find((h) => quotes.has(h.symbol));
  if (!hit && !requireQuote) {
    const empty: ProviderQuote = {
      symbol: c.resolved.symbol,
      name: '',
      currency: c.resolved.currency,
      exchange: '',
      assetType: c.resolved.assetType,
      asOf: '',
      fields: {},
    };
    return { input, status: 'ok', found: { resolved: c.resolved, quote: empty, quoted: false } };
  }
  if (!hit) return { input, status: 'error', error: notHeld(input, c.resolved, chain) };
  const quote = quotes.get(hit.symbol) as ProviderQuote;
  const resolved: Resolved = {
    ...hit,
    name: quote.name && quote.name !== quote.symbol ? quote.name : hit.name,
    exchange: hit.exchange || quote.exchange,
  };
  return { input, status: 'ok', found: { resolved, quote, quoted: true } };
}

/**
 * Resolves each input and finds its quote, trying CN/TT fallbacks in order, with one read of the provider for
 * them all (a live provider asks its upstream once for the request). Without `requireQuote`, an input with no
 * quote is answered with an empty one (statement and computed fields need none). `fields` are the field ids the
 * caller reads, for a provider that fetches more than a plain quote when asked.
 */
export async function lookupMany(
  provider: MarketProvider,
  inputs: readonly (string | Resolving)[],
  requireQuote = true,
  fields: readonly string[] = [],
): Promise<Looked[]> {
  const all = inputs.map((i) => (typeof i === 'string' ? resolveInput(i) : i));
  const listings = uniqueListings(all.flatMap((c) => (c.status === 'ok' ? c.chain : [])));
  const quotes = listings.length ? await provider.quotes(listings, fields) : new Map<string, ProviderQuote>();
  return all.map((c) => found(c, quotes, requireQuote));
}

/** One input looked up on its own (lookupMany of one). */
export async function lookupOne(
  provider: MarketProvider,
  input: string | Resolving,
  requireQuote = true,
  fields: readonly string[] = [],
): Promise<Looked> {
  return (await lookupMany(provider, [input], requireQuote, fields))[0]!;
}

/** Listings once each, by provider symbol (the first of each kept): what a request asks its provider for. */
export function uniqueListings(listings: readonly Resolved[]): Resolved[] {
  const bySymbol = new Map<string, Resolved>();
  for (const l of listings) if (!bySymbol.has(l.symbol)) bySymbol.set(l.symbol, l);
  return [...bySymbol.values()];
}

/** The listings the inputs found, once each. */
export function foundListings(looked: readonly Looked[]): Resolved[] {
  return uniqueListings(looked.flatMap((r) => (r.status === 'ok' ? [r.found.resolved] : [])));
}

/** The not_found error of an input nothing is held for, saying where it was looked for and how to load it. */
export function notHeld(
  input: string,
  resolved: Resolved,
  chain: readonly Resolved[] = [resolved],
): { code: 'not_found'; message: string } {
  const tried = chain.map((c) => c.symbol).join(', ');
  return {
    code: 'not_found',
    message: `No quote for ${input} (looked for ${tried} in the stored data and the upstream). An operator loads one with "quarry ingest prices FILE --ticker ${resolved.symbol}" or "quarry ingest yahoo FILE".`,
  };
}
