// market.short_interest (terminal field SHORT_INT): shares short per ticker as of the latest settlement date,
// with the prior settlement's position, days to cover and the shares of float and of shares outstanding.
import { daysBetween } from '../../kernel/dates.js';
import type { Deps } from '../../kernel/deps.js';
import type { ShortInterest } from '../../kernel/market-provider.js';
import { foundListings, lookupMany } from '../instrument/lookup.js';
import { type Resolved, shown } from '../symbology/resolve.js';
import { isoDate } from '../verb/request.js';

/** A settlement older than this many days is stale: FINRA publishes twice a month. */
export const STALE_AFTER_DAYS = 35;

interface ShortInterestItem {
  input: string;
  status: 'ok' | 'error';
  resolved?: Resolved;
  shortInterest?: ShortInterest & { change: number | null; stale: boolean };
  error?: { code: string; message: string };
}

export async function shortInterest(deps: Pick<Deps, 'market' | 'clock'>, tickers: readonly string[]) {
  const looked = await lookupMany(deps.market, tickers, false);
  const held = await deps.market.shortInterest(foundListings(looked));
  const today = isoDate(deps.clock());
  const items = looked.map((r): ShortInterestItem => {
    if (r.status === 'error') return { input: r.input, status: 'error', error: r.error };
    const { resolved } = r.found;
    const found = held.get(resolved.symbol);
    if (!found) {
      return {
        input: r.input,
        status: 'error',
        resolved: shown(resolved),
        error: { code: 'not_found', message: `No short interest is held for ${r.input}.` },
      };
    }
    const prior = found.sharesShortPriorMonth;
    return {
      input: r.input,
      status: 'ok',
      resolved: shown(resolved),
      shortInterest: {
        ...found,
        change: prior === null ? null : found.sharesShort - prior,
        stale: daysBetween(found.settlementDate, today) > STALE_AFTER_DAYS,
      },
    };
  });
  return { access: 'market-data', items };
}
