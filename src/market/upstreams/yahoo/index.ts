// Yahoo Finance: the keyless upstream of a one-machine install, through yahoo-finance2 (client.ts). It serves
// every verb: quotes, daily bars with dividends and splits, the summary modules, search and the fundamentals
// time series. Its cookie jar is kept in the market cache. Yahoo's terms do not allow serving its data to others:
// an operator who sells data configures a licensed vendor before it (docs/operations.md).
import { SharedAllowance } from '../../providers/allowance.js';
import type { UpstreamDeclaration } from '../port.js';

const COOKIES_KEY = 'yahoo:cookies';
const YEAR_MS = 365 * 86_400_000;
/** Every Yahoo host when no stand-in is configured. */
const YAHOO_HOSTS = 'https://finance.yahoo.com';

export const YAHOO: UpstreamDeclaration = {
  settings: {
    name: 'yahoo',
    keyVariable: null,
    urlVariable: 'QUARRY_YAHOO_URL',
    url: YAHOO_HOSTS,
    // Yahoo publishes no allowance: its calls are paced by their concurrency and its 429s, which pause it for
    // every instance; an operator may set one (QUARRY_YAHOO_PER_MINUTE).
    perMinute: 1_000_000,
    perDay: 1_000_000_000,
  },
  serves:
    'quotes, daily bars with dividends and splits, profile and key statistics, search and statements, of every market',
  async make(config, context) {
    const { cache, clock, timeoutMs, concurrency } = context;
    // Its client (and yahoo-finance2) is loaded only by a process that serves live data.
    const [{ YahooUpstream }, cookies] = await Promise.all([
      import('./client.js'),
      cache.get<string>(COOKIES_KEY),
    ]);
    return new YahooUpstream({
      baseUrl: config.url === YAHOO_HOSTS ? null : config.url,
      timeoutMs,
      concurrency,
      cookies: cookies?.value ?? null,
      saveCookies: (json) => cache.put(COOKIES_KEY, json, YEAR_MS),
      now: () => clock().getTime(),
      allowance: new SharedAllowance(config, context),
    });
  },
};
