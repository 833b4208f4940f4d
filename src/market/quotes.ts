// Quote items: each input resolved, looked up, and answered on its own — one bad ticker never fails the request.
import type { Deps } from '../kernel/deps.js';
import { AppError } from '../kernel/errors.js';
import { ANSWER_WITHIN_MS, Deadline } from './deadline.js';
import { type Found, type Looked, lookupOne } from './lookup.js';
import { inPriceCurrency } from './price-units.js';
import { uniqueInputs } from './request.js';
import { shown } from './symbology/resolve.js';
import { staleReason } from './symbology/sessions.js';

/** Why a found quote is old at `now`: a session since its time, or an upstream that could not be reached. */
export function quoteStaleness(found: Found, now: Date): string | null {
  const { resolved, quote } = found;
  const reason = staleReason(resolved, quote.asOf, now);
  if (reason) return reason;
  return quote.stale ? 'the upstream could not be reached: the last quote held is served' : null;
}

function quoteItem(r: Looked, now: Date) {
  if (r.status === 'error') return { input: r.input, status: 'error' as const, error: r.error };
  const { resolved, quote } = r.found;
  const f = quote.fields;
  const minor = (resolved.priceFactor ?? 1) !== 1;
  const staleReason = quoteStaleness(r.found, now);
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
      ...(staleReason ? { stale: true, staleReason } : {}),
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
  deps: Pick<Deps, 'market' | 'clock'>,
  request: QuotesRequest,
  answerWithinMs = ANSWER_WITHIN_MS,
) {
  const deadline = new Deadline(answerWithinMs);
  try {
    const items = await Promise.all(
      checkedTickers(request).map((input) =>
        deadline.race(
          lookupOne(deps.market, input).then((found) => quoteItem(found, deps.clock())),
          () => ({
            input,
            status: 'error' as const,
            error: deadline.error,
          }),
        ),
      ),
    );
    return { access: 'market-data', items };
  } finally {
    deadline.clear();
  }
}
