// quarry sync usaspending: the prime contract awards that match a set of filters, from USAspending's API. The
// search is paged by its keyset (last_record_unique_id and last_record_sort_value); each page is loaded as a
// file, and for each award new or changed since the last sync (its Last Modified Date) its detail and
// transactions are fetched and loaded, then the subawards of the page's changed awards (a subaward search by
// their award ids). A 503 or 429 is waited out with a doubling backoff before it counts
// as unreachable. The host is configuration (QUARRY_USASPENDING_URL).
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type FileReport, type SyncReport, userAgent } from '../../../ingest/collect.js';
import { type Download, download } from '../../../ingest/fetch.js';
import { loadFile, type SourceLoaders } from '../../../ingest/run.js';
import { type AgencyHost, agencyUrl } from '../../../kernel/config.js';
import type { Deps } from '../../../kernel/deps.js';

export const USASPENDING: AgencyHost = {
  id: 'usaspending',
  variable: 'QUARRY_USASPENDING_URL',
  url: 'https://api.usaspending.gov',
};

export interface AwardFilters {
  agencies?: string[];
  recipients?: string[];
  from?: string;
  to?: string;
}

/** Search pages read per run at most, and the page size. */
const MAX_PAGES = 50;
const PAGE = 100;
const FIELDS = [
  'Award ID',
  'Recipient Name',
  'Award Amount',
  'Description',
  'Start Date',
  'Awarding Agency',
  'Awarding Sub Agency',
  'Contract Award Type',
  'Last Modified Date',
  'NAICS',
  'generated_internal_id',
];

/** What a subaward search asks for: the fields the awards loader reads of a subaward. */
const SUBAWARD_FIELDS = [
  'Sub-Award ID',
  'Sub-Awardee Name',
  'Sub-Award Date',
  'Sub-Award Amount',
  'Sub-Award Description',
  'Awarding Agency',
  'Awarding Sub Agency',
  'Prime Award ID',
  'Prime Recipient Name',
  'prime_award_generated_internal_id',
  'NAICS',
  'PSC',
];

/** One page of the subawards under the prime awards named by their award ids (PIIDs). */
export function subawardBody(awardIds: string[], page: number) {
  return {
    filters: { award_type_codes: ['A', 'B', 'C', 'D'], award_ids: awardIds },
    fields: SUBAWARD_FIELDS,
    limit: PAGE,
    page,
    sort: 'Sub-Award Amount',
    order: 'desc',
    spending_level: 'subawards',
  };
}

/** The search request of one page; a range open at its end stops at `today` (the sync's own clock). */
export function searchBody(
  filters: AwardFilters,
  after: { id: unknown; sort: unknown } | null,
  today: string,
) {
  return {
    filters: {
      award_type_codes: ['A', 'B', 'C', 'D'],
      ...(filters.agencies?.length
        ? { agencies: filters.agencies.map((name) => ({ type: 'awarding', tier: 'toptier', name })) }
        : {}),
      ...(filters.recipients?.length ? { recipient_search_text: filters.recipients } : {}),
      ...(filters.from || filters.to
        ? {
            time_period: [
              {
                start_date: filters.from ?? '2007-10-01',
                end_date: filters.to ?? today,
              },
            ],
          }
        : {}),
    },
    fields: FIELDS,
    limit: PAGE,
    sort: 'Award Amount',
    order: 'desc',
    spending_level: 'awards',
    ...(after ? { last_record_unique_id: after.id, last_record_sort_value: after.sort } : {}),
  };
}

export async function syncUsaspending(
  deps: Pick<Deps, 'store' | 'config' | 'clock'>,
  filters: AwardFilters,
  loaders: SourceLoaders,
  options: { backoffMs?: number; tries?: number } = {},
): Promise<SyncReport> {
  const sync = new Sync(deps, loaders, options);
  const url = `${sync.base}/api/v2/search/spending_by_award/`;
  const seen = new Set<string>();
  let after: { id: unknown; sort: unknown } | null = null;
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const dest = path.join(sync.dir, `search-${page}.json`);
    const got = await sync.fetchFile(
      url,
      dest,
      searchBody(filters, after, deps.clock().toISOString().slice(0, 10)),
    );
    const entry = await sync.load(`search page ${page}`, url, got);
    if (entry.outcome !== 'loaded' || got.outcome !== 'fetched') break;
    const body = JSON.parse(readFileSync(got.file, 'utf8')) as {
      results?: Record<string, unknown>[];
      page_metadata?: {
        hasNext?: boolean;
        last_record_unique_id?: unknown;
        last_record_sort_value?: unknown;
      };
    };
    const results = body.results ?? [];
    const fresh = results.filter((r) => !seen.has(String(r.generated_internal_id)));
    for (const r of fresh) seen.add(String(r.generated_internal_id));
    const changed = await sync.awards(fresh);
    await sync.subawards(url, page, changed);
    // A page that brings nothing new ends the run, as does the last page.
    if (fresh.length === 0 || !body.page_metadata?.hasNext) break;
    after = { id: body.page_metadata.last_record_unique_id, sort: body.page_metadata.last_record_sort_value };
  }
  return { source: 'usaspending', files: sync.files };
}

/** One run of the sync: where it writes, what it has loaded, and how it fetches and loads a file. */
class Sync {
  readonly dir: string;
  readonly base: string;
  readonly files: FileReport[] = [];

  constructor(
    private readonly deps: Pick<Deps, 'store' | 'config' | 'clock'>,
    private readonly loaders: SourceLoaders,
    private readonly options: { backoffMs?: number; tries?: number },
  ) {
    this.dir = path.join(deps.config.dataDir, 'downloads', 'usaspending');
    mkdirSync(this.dir, { recursive: true });
    this.base = agencyUrl(deps.config, USASPENDING);
  }

  /** A file fetched (a POST where `post` is given), asked again with a growing wait while the API is busy. */
  async fetchFile(url: string, dest: string, post?: unknown): Promise<Download> {
    const { config } = this.deps;
    let wait = this.options.backoffMs ?? 1000;
    for (let attempt = 1; ; attempt += 1) {
      const got = await download(url, dest, {
        userAgent: userAgent(config.contact ?? 'no contact given'),
        timeoutMs: config.fetchTimeoutMs,
        ...(post !== undefined ? { post } : {}),
      });
      const busy = got.outcome === 'failed' && /HTTP (503|429)/.test(got.reason);
      if (!busy || attempt >= (this.options.tries ?? 4)) return got;
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait *= 2;
    }
  }

  /** A fetched file loaded, and what became of it in the run's report. */
  async load(name: string, url: string, got: Download): Promise<FileReport> {
    let entry: FileReport;
    if (got.outcome === 'fetched') {
      try {
        entry = { name, url, outcome: 'loaded', load: await loadFile(this.deps, this.loaders, got.file) };
      } catch (error) {
        entry = { name, url, outcome: 'failed', reason: (error as Error).message };
      }
    } else if (got.outcome === 'not_published')
      entry = { name, url, outcome: 'not_published', reason: `HTTP ${got.status}` };
    else if (got.outcome === 'failed') entry = { name, url, outcome: 'unreachable', reason: got.reason };
    else entry = { name, url, outcome: 'unchanged' };
    this.files.push(entry);
    return entry;
  }

  /** Each new award's detail and transactions, where the search says it changed; the Award IDs that did. */
  async awards(fresh: Record<string, unknown>[]): Promise<string[]> {
    const changed: string[] = [];
    for (const r of fresh) {
      const id = String(r.generated_internal_id);
      const detailUrl = `${this.base}/api/v2/awards/${encodeURIComponent(id)}/`;
      // An award is fetched again only when the search says it changed: its Last Modified Date is kept
      // with the detail's fetch.
      const modified = String(r['Last Modified Date'] ?? '');
      if (modified && (await fetchedAs(this.deps, detailUrl)) === modified) continue;
      if (typeof r['Award ID'] === 'string') changed.push(r['Award ID']);
      const got = await this.fetchFile(detailUrl, path.join(this.dir, 'awards', `${id}.json`));
      const detail = await this.load(id, detailUrl, got);
      if (detail.outcome !== 'loaded' || got.outcome !== 'fetched') continue;
      await remember(this.deps, detailUrl, modified, got.checksum);
      const txUrl = `${this.base}/api/v2/transactions/`;
      await this.load(
        `${id} transactions`,
        txUrl,
        await this.fetchFile(txUrl, path.join(this.dir, 'transactions', `${id}.json`), {
          award_id: id,
          limit: 100,
          page: 1,
          sort: 'action_date',
          order: 'desc',
        }),
      );
    }
    return changed;
  }

  /** The subawards of the awards that changed, a search for the page's awards at a time. */
  async subawards(url: string, page: number, changed: string[]): Promise<void> {
    const subawards = new Set<string>();
    for (let subPage = 1; changed.length > 0 && subPage <= MAX_PAGES; subPage += 1) {
      const dest = path.join(this.dir, `subawards-${page}-${subPage}.json`);
      const got = await this.fetchFile(url, dest, subawardBody(changed, subPage));
      const entry = await this.load(`subawards of page ${page}, page ${subPage}`, url, got);
      if (entry.outcome !== 'loaded' || got.outcome !== 'fetched') break;
      const found = JSON.parse(readFileSync(got.file, 'utf8')) as {
        results?: Record<string, unknown>[];
        page_metadata?: { hasNext?: boolean };
      };
      const keys = (found.results ?? []).map((r) =>
        [r.prime_award_generated_internal_id, r['Sub-Award ID'], r['Sub-Award Date']].join('/'),
      );
      const news = keys.filter((k) => !subawards.has(k));
      for (const k of news) subawards.add(k);
      if (news.length === 0 || !found.page_metadata?.hasNext) break;
    }
  }
}

/** The Last Modified Date an award's detail was fetched at, if it was. */
async function fetchedAs(deps: Pick<Deps, 'store'>, url: string): Promise<string | null> {
  const row = await deps.store.db
    .selectFrom('fetches')
    .select('etag')
    .where('url', '=', url)
    .executeTakeFirst();
  return row?.etag ?? null;
}

async function remember(
  deps: Pick<Deps, 'store' | 'clock'>,
  url: string,
  modified: string,
  checksum: string,
) {
  const row = {
    url,
    etag: modified || null,
    last_modified: null,
    checksum,
    fetched_at: deps.clock().toISOString(),
  };
  await deps.store.db
    .insertInto('fetches')
    .values(row)
    .onConflict((oc) =>
      oc.column('url').doUpdateSet({ etag: row.etag, checksum, fetched_at: row.fetched_at }),
    )
    .execute();
}
