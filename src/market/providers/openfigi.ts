// OpenFIGI's mapping API: a listing's FIGI, its composite and share-class FIGIs, from its terminal ticker and
// exchange code. The jobs of one call go out together, up to ten a request (a hundred with a key), paced to the
// API's allowance (25 requests a minute, or 25 every six seconds with a key) across every instance, and a 429
// pauses it for all of them (the upstreams' shared allowance); each answer is kept in the market cache for a
// month, since identifiers rarely change.
import type { InstrumentIdentifiers } from '../../kernel/market-provider.js';
import { type AllowanceContext, SharedAllowance } from './allowance.js';
import type { MarketCache } from './cache.js';
import { UpstreamError } from './guard.js';

/** One job of a mapping request: a ticker on an exchange (terminal codes: US, LN, GY…). */
export interface FigiJob {
  idType: 'TICKER';
  idValue: string;
  exchCode: string;
}

interface FigiRow {
  figi?: string;
  compositeFIGI?: string | null;
  shareClassFIGI?: string | null;
  exchCode?: string;
  marketSector?: string;
  name?: string;
}

/** What a job answered: the listing's identifiers, or null when OpenFIGI finds no such listing. */
export type FigiAnswer = InstrumentIdentifiers | null;

export interface OpenFigiOptions {
  baseUrl: string;
  apiKey: string | null;
  timeoutMs: number;
  /** Waits before a request the allowance does not yet admit (tests move a clock instead). */
  sleep?(ms: number): Promise<void>;
}

/** OpenFIGI's published allowance: 25 requests a minute, or 25 every six seconds with a key. */
const REQUESTS = 25;

const MONTH_MS = 30 * 86_400_000;
/** A listing OpenFIGI does not know is asked again after a day. */
const DAY_MS = 86_400_000;

export class OpenFigi {
  private readonly cache: MarketCache;
  private readonly allowance: SharedAllowance;

  constructor(
    private readonly options: OpenFigiOptions,
    context: AllowanceContext,
  ) {
    this.cache = context.cache;
    const { baseUrl: url, apiKey: key } = options;
    this.allowance = new SharedAllowance(
      { name: 'openfigi', url, key, perMinute: REQUESTS, perDay: Number.MAX_SAFE_INTEGER },
      context,
      { requests: REQUESTS, ms: key ? 6_000 : 60_000 },
    );
  }

  private get jobsPerRequest() {
    return this.options.apiKey ? 100 : 10;
  }

  /**
   * The identifiers of listings, answer for answer: from the cache while fresh, the rest asked together, a
   * request per ten jobs (a hundred with a key). A request that fails answers `unreachable` for its jobs, or
   * the old copy where one is held.
   */
  async identifyMany(jobs: readonly FigiJob[]): Promise<(FigiAnswer | 'unreachable')[]> {
    const keyOf = (job: FigiJob) => `figi:${job.exchCode}:${job.idValue}`;
    const copies = await this.cache.many<FigiAnswer>([...new Set(jobs.map(keyOf))]);
    const asked = new Map<string, FigiJob>();
    for (const job of jobs) if (!copies.get(keyOf(job))?.fresh) asked.set(keyOf(job), job);
    const fetched = new Map<string, FigiAnswer | 'unreachable'>();
    const missing = [...asked.values()];
    for (let i = 0; i < missing.length; i += this.jobsPerRequest) {
      const batch = missing.slice(i, i + this.jobsPerRequest);
      try {
        const answers = await this.request(batch);
        for (const [k, job] of batch.entries()) {
          const answer = answers[k] ?? null;
          fetched.set(keyOf(job), answer);
          await this.cache.put(keyOf(job), answer, answer ? MONTH_MS : DAY_MS);
        }
      } catch {
        for (const job of batch) fetched.set(keyOf(job), copies.get(keyOf(job))?.value ?? 'unreachable');
      }
    }
    return jobs.map((job) => fetched.get(keyOf(job)) ?? (copies.get(keyOf(job))?.value as FigiAnswer));
  }

  /** One listing's identifiers (identifyMany of one). */
  async identify(job: FigiJob): Promise<FigiAnswer | 'unreachable'> {
    return (await this.identifyMany([job]))[0] ?? 'unreachable';
  }

  /** One mapping request, once the allowance admits it: an answer per job, in order. */
  private async request(jobs: FigiJob[]): Promise<FigiAnswer[]> {
    const { allowance } = this;
    await allowance.turn(this.options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))));
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.options.apiKey) headers['x-openfigi-apikey'] = this.options.apiKey;
    const started = performance.now();
    allowance.counts.calls += 1;
    try {
      const res = await fetch(`${this.options.baseUrl}/v3/mapping`, {
        method: 'POST',
        headers,
        body: JSON.stringify(jobs),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      if (res.status === 429) await allowance.pause(res.headers.get('retry-after'));
      if (!res.ok) throw new UpstreamError(`OpenFIGI answered ${res.status}`, res.status, false);
      const body = (await res.json()) as { data?: FigiRow[]; warning?: string; error?: string }[];
      if (!Array.isArray(body) || body.length !== jobs.length)
        throw new Error('OpenFIGI answered a list of another length than the jobs sent');
      return body.map((entry, i) => (entry.error ? null : listingOf(entry.data ?? [], jobs[i] as FigiJob)));
    } catch (error) {
      allowance.counts.errors += 1;
      throw error;
    } finally {
      allowance.counts.totalMs += performance.now() - started;
    }
  }
}

/** The equity row of the job's exchange (an exchange can also list a bond or a money-market line). */
function listingOf(rows: FigiRow[], job: FigiJob): FigiAnswer {
  const row =
    rows.find((r) => r.exchCode === job.exchCode && r.marketSector === 'Equity') ??
    rows.find((r) => r.exchCode === job.exchCode);
  if (!row?.figi) return null;
  return {
    figi: row.figi,
    compositeFigi: row.compositeFIGI ?? null,
    shareClassFigi: row.shareClassFIGI ?? null,
  };
}

/** The mapping job of a listing in its terminal form ("BARC LN Equity"); null for what is not an equity line. */
export function jobOf(terminal: string | null): FigiJob | null {
  const match = terminal ? /^(\S+) ([A-Z]{2}) Equity$/.exec(terminal) : null;
  if (!match) return null;
  const [, root, code] = match as unknown as [string, string, string];
  // Share classes are written with a slash there: BRK/B.
  return { idType: 'TICKER', idValue: code === 'US' ? root.replace('-', '/') : root, exchCode: code };
}
