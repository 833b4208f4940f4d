// SEC EDGAR as the statements upstream of US listings ("US companies read filings first"): the ticker's CIK
// from company_tickers.json, then its XBRL company facts, read by the same code as `quarry ingest sec-facts`.
// Every request is paced with the SEC client's shared pace (at most ten a second across instances) and names
// the operator's contact; an answer is retried on 5xx and timeouts like every upstream call, and a 429 pauses
// EDGAR for every instance (the upstreams' shared allowance).

import type { ConceptFacts } from '../../ingest/xbrl/concepts.js';
import type { StatementFact } from '../../kernel/market-provider.js';
import { statementRecords } from '../load/sec-facts.js';
import { type AllowanceContext, SharedAllowance } from './allowance.js';
import type { MarketCache } from './cache.js';
import { UpstreamError, withRetries } from './guard.js';
import { factsOf } from './upstream.js';

/** What the SEC client gives: its hosts, its pace and the User-Agent that names the operator. */
export interface SecAccess {
  url(host: 'www' | 'data', path: string): string;
  pace(): Promise<void>;
  userAgent: string;
}

/** What a value from the filings says it came from. */
export const EDGAR = 'edgar';
const TICKERS_KEY = 'sec:tickers';
const DAY_MS = 86_400_000;

export class SecStatements {
  private tickers: { at: number; ciks: Record<string, string> } | null = null;
  private loading: Promise<Record<string, string>> | null = null;

  /** EDGAR's 429 pause, shared by every instance, and its calls' counts (its pace is the SEC client's). */
  private readonly allowance: SharedAllowance;

  constructor(
    private readonly sec: SecAccess,
    private readonly cache: MarketCache,
    private readonly timeoutMs: number,
    context: Omit<AllowanceContext, 'cache'>,
  ) {
    this.now = () => context.clock().getTime();
    this.allowance = new SharedAllowance(
      { name: EDGAR, url: sec.url('data', ''), key: null, perMinute: 600, perDay: Number.MAX_SAFE_INTEGER },
      { ...context, cache },
    );
  }

  private readonly now: () => number;

  /** The statements of a US listing from its company facts; null when EDGAR holds none for it. */
  async statements(symbol: string): Promise<Map<string, StatementFact[]> | null> {
    const cik = (await this.ciks())[symbol.toUpperCase()];
    if (!cik) return null;
    const body = (await this.get(this.sec.url('data', `/api/xbrl/companyfacts/CIK${cik}.json`))) as {
      facts?: Record<string, Record<string, ConceptFacts>>;
    } | null;
    const gaap = body?.facts?.['us-gaap'];
    if (!gaap) return null;
    const found = factsOf(statementRecords(gaap, symbol), EDGAR);
    return found.size > 0 ? found : null;
  }

  /** Ticker -> ten-digit CIK, from company_tickers.json: kept a day in the shared cache and in memory. */
  private ciks(): Promise<Record<string, string>> {
    if (this.tickers && this.now() - this.tickers.at < DAY_MS) return Promise.resolve(this.tickers.ciks);
    this.loading ??= this.loadCiks().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  private async loadCiks(): Promise<Record<string, string>> {
    const copy = await this.cache.get<Record<string, string>>(TICKERS_KEY);
    if (copy?.fresh) {
      this.tickers = { at: this.now(), ciks: copy.value };
      return copy.value;
    }
    let listed: Record<string, { cik_str?: number; ticker?: string }> | null;
    try {
      listed = (await this.get(this.sec.url('www', '/files/company_tickers.json'))) as typeof listed;
    } catch (error) {
      if (copy) return copy.value;
      throw error;
    }
    const ciks: Record<string, string> = {};
    for (const entry of Object.values(listed ?? {})) {
      if (typeof entry?.ticker === 'string' && typeof entry.cik_str === 'number')
        ciks[entry.ticker.toUpperCase()] ??= String(entry.cik_str).padStart(10, '0');
    }
    await this.cache.put(TICKERS_KEY, ciks, DAY_MS);
    this.tickers = { at: this.now(), ciks };
    return ciks;
  }

  /**
   * One paced GET of a JSON document; null for a 404 (EDGAR has no such document). Not sent while EDGAR has asked
   * any instance for a pause; counted for /metrics.
   */
  private async get(url: string): Promise<unknown> {
    const { allowance } = this;
    await allowance.checkPause();
    return withRetries(async () => {
      await this.sec.pace();
      const started = performance.now();
      allowance.counts.calls += 1;
      try {
        return await this.fetched(url);
      } catch (error) {
        allowance.counts.errors += 1;
        throw error;
      } finally {
        allowance.counts.totalMs += performance.now() - started;
      }
    });
  }

  private async fetched(url: string): Promise<unknown> {
    const response = await fetch(url, {
      headers: { 'user-agent': this.sec.userAgent, accept: 'application/json' },
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) {
      await response.body?.cancel();
      if (response.status === 429) await this.allowance.pause(response.headers.get('retry-after'));
      throw new UpstreamError(
        `SEC EDGAR answered ${response.status}`,
        response.status,
        response.status >= 500,
      );
    }
    return response.json();
  }
}
