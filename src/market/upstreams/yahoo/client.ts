// Yahoo Finance's client, through yahoo-finance2. Every request the library makes (query hosts,
// the crumb, the cookie and consent pages) goes through our fetch: it is sent to QUARRY_YAHOO_URL when one is
// set, abandoned after the upstream timeout, and a 429 pauses Yahoo for every instance for its Retry-After. Answers become
// the same records the `quarry ingest yahoo` loader makes from recorded responses.
import YahooFinance from 'yahoo-finance2';
import { ExtendedCookieJar } from 'yahoo-finance2/lib/cookieJar';
import type { ProviderQuote, StatementFact } from '../../../kernel/market-provider.js';
import type { MarketRecordValue } from '../../load/record.js';
import { QUOTE_RESPONSE_FIELDS, quoteResultRecord, summaryRecord } from '../../load/yahoo.js';
import { type Chart, chartActions, chartBars, notDaily } from '../../load/yahoo-chart.js';
import { TIMESERIES_TYPES, type TimeSeries, timeSeriesRecords } from '../../load/yahoo-timeseries.js';
import type { SharedAllowance } from '../../providers/allowance.js';
import { Breaker, Limiter, UpstreamError, upstreamError, withRetries } from '../../providers/guard.js';
import {
  type DailyHistory,
  type Found,
  factsOf,
  type Summary,
  type Upstream,
} from '../../providers/upstream.js';

const SUMMARY_MODULES = [
  'price',
  'summaryDetail',
  'defaultKeyStatistics',
  'financialData',
  'assetProfile',
  'earningsTrend',
] as const;

/** The instrument types the market API serves (options and the like are left out of searches). */
const SERVED_TYPES = new Set([
  'EQUITY',
  'ETF',
  'MUTUALFUND',
  'INDEX',
  'FUTURE',
  'CURRENCY',
  'CRYPTOCURRENCY',
]);

/** Seconds the breaker stays open after a call failed all its retries. */
const DOWN_PAUSE_S = 30;

const QUIET = { info() {}, warn() {}, error() {}, debug() {}, dir() {} };

export interface YahooOptions {
  /** Stands in for every Yahoo host; null: the real hosts. */
  baseUrl: string | null;
  timeoutMs: number;
  concurrency: number;
  /** The cookie jar as last saved (JSON), and where to save it when it changes. */
  cookies: string | null;
  saveCookies(json: string): Promise<void>;
  /** The clock, in milliseconds since the epoch. */
  now: () => number;
  /** Its calls counted, and its 429s' pauses kept, across every instance (absent: this process alone). */
  allowance?: SharedAllowance;
}

/**
 * A fetch that sends Yahoo's hosts to `baseUrl`, gives up after `timeoutMs`, and on a 429 pauses (`tooMany`:
 * the shared allowance's pause, or the breaker's) for its Retry-After.
 */
export function yahooFetch(
  baseUrl: string | null,
  timeoutMs: number,
  breaker: Breaker,
  tooMany: (retryAfter: string | null) => Promise<void> | void = (retryAfter) => breaker.trip(retryAfter),
): typeof fetch {
  return async (input, init) => {
    breaker.check();
    const asked = new URL(input instanceof Request ? input.url : String(input));
    const target =
      baseUrl && /(^|\.)yahoo\.com$/.test(asked.hostname)
        ? `${baseUrl}${asked.pathname}${asked.search}`
        : asked;
    const response = await fetch(target, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    if (response.status === 429) {
      await tooMany(response.headers.get('retry-after'));
      throw new UpstreamError('upstream answered 429 (too many requests)', 429, false);
    }
    if (response.status >= 500)
      throw new UpstreamError(`upstream answered ${response.status}`, response.status, true);
    return response;
  };
}

export class YahooUpstream implements Upstream {
  readonly name = 'yahoo';

  /** Every market Quarry reads a ticker of. */
  covers(): boolean {
    return true;
  }

  readonly quoteFields = QUOTE_RESPONSE_FIELDS;
  readonly breaker: Breaker;
  private readonly yf: InstanceType<typeof YahooFinance>;
  private readonly jar: ExtendedCookieJar;
  private readonly limiter: Limiter;
  private savedCookies: string | null;
  private readonly http: typeof fetch;

  constructor(private readonly options: YahooOptions) {
    // With an allowance shared across instances, its breaker is the one a pause any instance learned of opens.
    this.breaker = options.allowance?.breaker ?? new Breaker(options.now);
    this.limiter = new Limiter(options.concurrency);
    this.jar = restoreJar(options.cookies);
    this.savedCookies = options.cookies;
    const { allowance } = options;
    this.http = yahooFetch(
      options.baseUrl,
      options.timeoutMs,
      this.breaker,
      allowance ? (retryAfter) => allowance.pause(retryAfter) : undefined,
    );
    this.yf = new YahooFinance({
      fetch: this.http,
      cookieJar: this.jar,
      logger: QUIET,
      versionCheck: false,
      suppressNotices: ['yahooSurvey', 'ripHistorical'],
      queue: { concurrency: options.concurrency },
      validation: { logErrors: false, logOptionsErrors: false },
    });
  }

  /**
   * One call, paced and retried; the cookie jar saved when the call changed it. A call that still fails after
   * its retries (the upstream down, or unreachable) opens the breaker for a while, so that requests meanwhile
   * answer from what is held at once instead of each waiting out the retries.
   */
  private async call<T>(work: () => Promise<T>, urgent = false): Promise<T> {
    let result: T;
    const { allowance } = this.options;
    await allowance?.admit();
    const started = performance.now();
    if (allowance) allowance.counts.calls += 1;
    try {
      result = await this.limiter.run(() => withRetries(work), urgent);
    } catch (error) {
      const failure = upstreamError(error);
      if (allowance) allowance.counts.errors += 1;
      if (failure.retryable) this.breaker.trip(String(DOWN_PAUSE_S));
      throw failure;
    } finally {
      if (allowance) allowance.counts.totalMs += performance.now() - started;
    }
    const cookies = JSON.stringify(this.jar.serializeSync());
    if (cookies !== this.savedCookies) {
      this.savedCookies = cookies;
      await this.options.saveCookies(cookies);
    }
    return result;
  }

  async quotes(symbols: string[]): Promise<Map<string, ProviderQuote>> {
    const out = new Map<string, ProviderQuote>();
    if (symbols.length === 0) return out;
    // A quote call answers up to a hundred symbols, so it goes ahead of the charts waiting their turn.
    const results = (await this.call(
      () => this.yf.quote(symbols, { return: 'array' }, { validateResult: false }),
      true,
    )) as unknown as Record<string, unknown>[];
    for (const result of results) {
      const record = quoteResultRecord(result);
      if (record.type === 'quote') out.set(record.symbol, providerQuote(record));
    }
    return out;
  }

  async bars(symbol: string, from: string): Promise<DailyHistory> {
    const chart = (await this.call(() =>
      this.yf.chart(
        symbol,
        { period1: from, interval: '1d', return: 'object', events: 'div|split' },
        { validateResult: false },
      ),
    )) as unknown as Chart;
    const interval = notDaily(chart);
    if (interval) throw new Error(`Yahoo's chart of ${symbol}: ${interval}`);
    return { bars: chartBars(chart).bars, actions: chartActions(chart) };
  }

  async summary(symbol: string): Promise<Summary | null> {
    const result = (await this.call(() =>
      this.yf.quoteSummary(symbol, { modules: [...SUMMARY_MODULES] }, { validateResult: false }),
    )) as unknown as Record<string, Record<string, unknown> | undefined>;
    const notes: string[] = [];
    const record = summaryRecord(result, { symbol, at: new Date(this.options.now()) }, notes);
    if (!record || (record.type !== 'quote' && record.type !== 'facts')) return null;
    return { asOf: record.asOf, fields: record.fields };
  }

  /**
   * Statements from Yahoo's fundamentals time series (annual and quarterly, as far back as it keeps them),
   * read by the same code as a recorded response given to `quarry ingest yahoo`. It needs no crumb.
   */
  async statements(symbol: string): Promise<Map<string, StatementFact[]>> {
    const now = Math.floor(this.options.now() / 1000);
    const query = new URLSearchParams({
      merge: 'false',
      padTimeSeries: 'true',
      period1: String(now - 20 * 365 * 86_400),
      period2: String(now),
      type: TIMESERIES_TYPES.join(','),
    });
    const url = `https://query1.finance.yahoo.com/ws/fundamentals-timeseries/v1/finance/timeseries/${encodeURIComponent(symbol)}?${query}`;
    const body = (await this.call(async () => {
      const response = await this.http(url);
      if (response.status === 404) return { timeseries: { result: [] } };
      if (!response.ok)
        throw new UpstreamError(`upstream answered ${response.status}`, response.status, false);
      return response.json();
    })) as { timeseries?: { result?: TimeSeries[] | null } };
    return factsOf(timeSeriesRecords(body.timeseries?.result ?? []), 'yahoo');
  }

  async search(query: string): Promise<Found[]> {
    const result = (await this.call(() =>
      this.yf.search(query, { quotesCount: 10, newsCount: 0 }, { validateResult: false }),
    )) as unknown as { quotes?: Record<string, unknown>[] };
    return (result.quotes ?? [])
      .filter((q) => typeof q.symbol === 'string' && SERVED_TYPES.has(String(q.quoteType)))
      .map((q) => ({
        symbol: String(q.symbol),
        name: String(q.longname ?? q.shortname ?? q.symbol),
        exchange: String(q.exchDisp ?? q.exchange ?? ''),
        type: String(q.quoteType ?? q.typeDisp ?? ''),
      }));
  }
}

function providerQuote(record: Extract<MarketRecordValue, { type: 'quote' }>): ProviderQuote {
  const { type: _type, ...quote } = record;
  return quote;
}

function restoreJar(saved: string | null): ExtendedCookieJar {
  if (!saved) return new ExtendedCookieJar();
  try {
    return new ExtendedCookieJar(ExtendedCookieJar.deserializeSync(saved).store);
  } catch {
    return new ExtendedCookieJar();
  }
}
