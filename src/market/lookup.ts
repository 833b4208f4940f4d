// One ticker as sent, resolved and found: its resolution and quote (trying the resolution's fallbacks in
// order), or an error of its own — the first step of every per-ticker market verb.
import type { MarketProvider, ProviderQuote } from '../kernel/market-provider.js';
import { type Resolved, resolveTicker } from './symbology/resolve.js';

export interface Found {
  resolved: Resolved;
  quote: ProviderQuote;
  /** False where no quote was found and an empty one stands in (lookupOne without requireQuote). */
  quoted: boolean;
}

/** What one input found: its resolution and quote, or an error of its own. */
export type Looked =
  | { input: string; status: 'ok'; found: Found }
  | { input: string; status: 'error'; error: { code: 'not_found' | 'timeout'; message: string } };

/**
 * Resolves one input and finds its quote, trying CN/TT fallbacks in order. Without `requireQuote`, an input
 * with no quote is answered with an empty one (statement and computed fields need none). `fields` are the
 * field ids the caller reads, for a provider that fetches more than a plain quote when asked.
 */
export async function lookupOne(
  provider: MarketProvider,
  input: string,
  requireQuote = true,
  fields: readonly string[] = [],
): Promise<Looked> {
  const r = resolveTicker(input);
  if (r.status !== 'ok') return { input: r.input, status: 'error', error: r.error };
  const chain = [r.resolved];
  for (const fallback of r.resolved.fallbacks ?? []) {
    const alt = resolveTicker(fallback);
    if (alt.status === 'ok') chain.push({ ...alt.resolved, dialect: r.resolved.dialect });
  }
  const quotes = await provider.quotes(
    chain.map((c) => c.symbol),
    fields,
  );
  const hit = chain.find((c) => quotes.has(c.symbol));
  if (!hit && !requireQuote) {
    const empty: ProviderQuote = {
      symbol: r.resolved.symbol,
      name: '',
      currency: r.resolved.currency,
      exchange: '',
      assetType: r.resolved.assetType,
      asOf: '',
      fields: {},
    };
    return { input: r.input, status: 'ok', found: { resolved: r.resolved, quote: empty, quoted: false } };
  }
  if (!hit) return { input: r.input, status: 'error', error: notHeld(r.input, r.resolved, chain) };
  const quote = quotes.get(hit.symbol) as ProviderQuote;
  const resolved: Resolved = {
    ...hit,
    name: quote.name && quote.name !== quote.symbol ? quote.name : hit.name,
    exchange: hit.exchange || quote.exchange,
  };
  return { input: r.input, status: 'ok', found: { resolved, quote, quoted: true } };
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

/** Each input looked up on its own. */
export function lookup(
  provider: MarketProvider,
  inputs: string[],
  requireQuote = true,
  fields: readonly string[] = [],
): Promise<Looked[]> {
  return Promise.all(inputs.map((input) => lookupOne(provider, input, requireQuote, fields)));
}
