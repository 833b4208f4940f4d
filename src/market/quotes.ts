// Quote items: each input resolved, looked up, and answered on its own — one bad ticker never fails the request.
import type { Deps } from '../kernel/deps.js';
import { AppError } from '../kernel/errors.js';
import type { MarketProvider, ProviderQuote } from '../kernel/market-provider.js';
import { ANSWER_WITHIN_MS, Deadline } from './deadline.js';
import { type Resolved, resolveTicker, shown } from './symbology/resolve.js';

/** Inputs answered once each, in the order first given. */
export function uniqueInputs(inputs: string[]): string[] {
  const seen = new Set<string>();
  return inputs.map((i) => i.trim()).filter((i) => i !== '' && !seen.has(i) && seen.add(i));
}

/** A price in the resolution's currency: minor units for terminal-form London, Johannesburg and Tel Aviv. */
export function inPriceCurrency(
  value: number | string | null | undefined,
  resolved: Resolved,
): number | null {
  return typeof value === 'number' ? scalePrice(value, resolved.priceFactor ?? 1) : null;
}

/** A main-unit price times a listing's factor (100 for pence), to six decimals as prices are published. */
export function scalePrice(value: number, factor: number): number {
  return factor === 1 ? value : Math.round(value * factor * 1e6) / 1e6;
}

export interface Found {
  resolved: Resolved;
  quote: ProviderQuote;
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
    return { input: r.input, status: 'ok', found: { resolved: r.resolved, quote: empty } };
  }
  if (!hit) {
    const tried = chain.map((c) => c.symbol).join(', ');
    return {
      input: r.input,
      status: 'error',
      error: {
        code: 'not_found',
        message: `No quote for ${r.input} (looked for ${tried} in the stored data and the upstream). An operator loads one with "quarry ingest prices FILE --ticker ${r.resolved.symbol}" or "quarry ingest yahoo FILE".`,
      },
    };
  }
  const quote = quotes.get(hit.symbol) as ProviderQuote;
  const resolved: Resolved = {
    ...hit,
    name: quote.name && quote.name !== quote.symbol ? quote.name : hit.name,
    exchange: hit.exchange || quote.exchange,
  };
  return { input: r.input, status: 'ok', found: { resolved, quote } };
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

function quoteItem(r: Looked) {
  if (r.status === 'error') return { input: r.input, status: 'error' as const, error: r.error };
  const { resolved, quote } = r.found;
  const f = quote.fields;
  const minor = (resolved.priceFactor ?? 1) !== 1;
  return {
    input: r.input,
    status: 'ok' as const,
    resolved: shown(resolved),
    quote: {
      symbol: resolved.ticker,
      name: resolved.name,
      price: inPriceCurrency(f.price, resolved),
      currency: resolved.currency,
      changePercent: typeof f.changePercent === 'number' ? f.changePercent : null,
      previousClose: inPriceCurrency(f.previousClose, resolved),
      volume: typeof f.volume === 'number' ? f.volume : null,
      marketCap: typeof f.marketCap === 'number' ? f.marketCap : null,
      marketState: typeof f.marketState === 'string' ? f.marketState : 'UNKNOWN',
      asOf: quote.asOf,
      ...(quote.stale ? { stale: true } : {}),
      ...(minor && typeof f.marketCap === 'number' ? { currencies: { marketCap: quote.currency } } : {}),
    },
  };
}

export const MAX_QUOTE_TICKERS = 100;

export interface QuotesRequest {
  tickers: string[];
}

/** The request's tickers, each once, within the quote limit. */
export function checkedTickers(request: QuotesRequest): string[] {
  const unique = uniqueInputs(request.tickers);
  if (unique.length === 0) throw new AppError('invalid_params', 'give at least one ticker');
  if (unique.length > MAX_QUOTE_TICKERS) {
    throw new AppError(
      'invalid_params',
      `up to ${MAX_QUOTE_TICKERS} tickers a request; ${unique.length} given`,
    );
  }
  return unique;
}

/** One unit per 20 tickers. */
export function quotesUnits(request: QuotesRequest): number {
  return Math.max(1, Math.ceil(checkedTickers(request).length / 20));
}

/**
 * /v1/quotes and market.quotes: a full quote per ticker, any form, each answered on its own; a quote not ready
 * within the deadline is a `timeout` item, and its fetch goes on into the cache for the retry.
 */
export async function quotes(
  deps: Pick<Deps, 'market'>,
  request: QuotesRequest,
  answerWithinMs = ANSWER_WITHIN_MS,
) {
  const deadline = new Deadline(answerWithinMs);
  try {
    const items = await Promise.all(
      checkedTickers(request).map((input) =>
        deadline.race(lookupOne(deps.market, input).then(quoteItem), () => ({
          input,
          status: 'error' as const,
          error: deadline.error,
        })),
      ),
    );
    return { access: 'market-data', items };
  } finally {
    deadline.clear();
  }
}
