// Quote items: each input resolved, looked up, and answered on its own — one bad ticker never fails the request.
import type { Deps } from '../../kernel/deps.js';
import { AppError } from '../../kernel/errors.js';
import { type Found, type Looked, lookupMany } from '../instrument/lookup.js';
import { inPriceCurrency } from '../instrument/price-units.js';
import { shown } from '../symbology/resolve.js';
import { staleReason } from '../symbology/sessions.js';
import { ANSWER_WITHIN_MS, Deadline } from '../verb/deadline.js';
import { uniqueInputs } from '../verb/request.js';
import { quoteSources } from '../verb/sources.js';

/** Why a found quote is old at `now`: a session since its time, or an upstream that could not be reached. */
export function quoteStaleness(found: Found, now: Date): string | null {
  const { resolved, quote } = found;
  const reason = staleReason(resolved, quote.asOf, now);
  if (reason) return reason;
  return quote.stale ? 'the upstream could not be reached: the last quote held is served' : null;
}

/** The quote's members that a provider may hold from another time than the quote's price. */
const TIMED_MEMBERS = ['changePercent', 'previousClose', 'volume', 'marketCap'] as const;

/** The members of a quote true at another time than its asOf, with their time. */
function otherTimes(quote: Found['quote']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const member of TIMED_MEMBERS) {
    const at = quote.fieldsAsOf?.[member];
    if (at && at !== quote.asOf && typeof quote.fields[member] === 'number') out[member] = at;
  }
  return out;
}

/** The quote's members that carry a value of a field, by the field's id. */
const QUOTE_MEMBERS = ['price', 'changePercent', 'previousClose', 'volume', 'marketCap'];

function quoteItem(r: Looked, now: Date) {
  if (r.status === 'error') return { input: r.input, status: 'error' as const, error: r.error };
  const { resolved, quote } = r.found;
  const f = quote.fields;
  const minor = (resolved.priceFactor ?? 1) !== 1;
  const fieldsAsOf = otherTimes(quote);
  const priceStale = quoteStaleness(r.found, now);
  // A member older than the price says the quote is old by its own time, as the oldest value does in /v1/data.
  const oldest = Object.values(fieldsAsOf).sort()[0];
  const reason = (oldest ? staleReason(resolved, oldest, now, 'oldest value') : null) ?? priceStale;
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
      // A stale quote's session has ended since (a session has opened after it): a state recorded while it
      // traded (REGULAR) no longer holds, and its price is that session's last known.
      marketState: priceStale ? 'CLOSED' : typeof f.marketState === 'string' ? f.marketState : 'UNKNOWN',
      asOf: quote.asOf,
      ...(Object.keys(fieldsAsOf).length ? { fieldsAsOf } : {}),
      ...(reason ? { stale: true, staleReason: reason } : {}),
      ...quoteSources(quote, QUOTE_MEMBERS),
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
export function quotesUnits(tickers: readonly string[]): number {
  return Math.max(1, Math.ceil(tickers.length / 20));
}

/**
 * /v1/quotes and market.quotes: a full quote per ticker, any form, each answered on its own; a quote not ready
 * within the deadline is a `timeout` item, and its fetch goes on into the cache for the retry.
 */
export async function quotes(
  deps: Pick<Deps, 'market' | 'clock'>,
  tickers: readonly string[],
  answerWithinMs = ANSWER_WITHIN_MS,
) {
  const deadline = new Deadline(answerWithinMs);
  try {
    // The request's quotes are read at once: a live upstream is asked once for them all, and the members its
    // quote lacks of the next upstream that has them.
    const looked = lookupMany(deps.market, tickers, true, QUOTE_MEMBERS);
    looked.catch(() => {});
    const items = await Promise.all(
      tickers.map((input, i) =>
        deadline.race(
          looked.then((all) => quoteItem(all[i] as Looked, deps.clock())),
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
