// Quarry's TypeScript client: every call of both APIs typed from their OpenAPI documents (datasets-api.ts and
// market-api.ts, generated), on openapi-fetch, with the conveniences of the Python client — keys from the
// options or the environment, a 429 waited out as its Retry-After says, the awards' pages followed, and every
// refusal thrown as a QuarryError carrying the API's code, message and request id.
import createClient, { type Client } from 'openapi-fetch';
import type { components as DatasetComponents, paths as DatasetPaths } from './datasets-api.js';
import type { components as MarketComponents, paths as MarketPaths } from './market-api.js';

export type { DatasetPaths, MarketPaths };

/** Every error code the two APIs declare, and `unavailable` when no answer came. */
export type ErrorCode =
  | DatasetComponents['schemas']['Error']['error']
  | MarketComponents['schemas']['Error']['error']
  | 'unavailable';

export interface QuarryOptions {
  /** The service's address; default QUARRY_BASE_URL, else http://localhost:8080. */
  baseUrl?: string;
  /** One key for the API it belongs to (gds_ datasets, svc_mcp_ market data); default QUARRY_API_KEY. */
  key?: string;
  /** Keys for each API, when both are used; default QUARRY_DATASETS_KEY and QUARRY_MARKET_KEY. */
  datasetsKey?: string;
  marketKey?: string;
  /** Retries of a call answered 429 or 503 (or not answered at all); default 3. */
  retries?: number;
  /** The longest wait the client takes before a retry, in seconds; a longer Retry-After is thrown. Default 60. */
  maxWaitSeconds?: number;
  /** How the client waits, in seconds (tests pass one that records the wait). */
  sleep?: (seconds: number) => Promise<void>;
  /** The fetch used; default the global one. */
  fetch?: typeof globalThis.fetch;
}

/** An error answer of the API, or no answer at all (`unavailable`). */
export class QuarryError extends Error {
  override readonly name = 'QuarryError';
  constructor(
    /** The API's error code: invalid_params, missing_key, invalid_key, wrong_key, plan_required, … */
    readonly code: ErrorCode,
    message: string,
    /** The HTTP status; 0 when no answer came. */
    readonly status: number,
    readonly requestId: string | null,
  ) {
    super(`${code}: ${message}`);
  }
}

/** What the last answer said of its cost and of what is left. */
export interface LastResponse {
  status: number;
  requestId: string | null;
  creditsCharged: number | null;
  creditsRemaining: number | null;
  /** Market-data units charged. */
  units: number | null;
}

type Get<P, K extends keyof P> = P[K] extends { get: infer O } ? O : never;
type Post<P, K extends keyof P> = P[K] extends { post: infer O } ? O : never;
type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
type PathOf<O> = O extends { parameters: { path: infer A } } ? A : never;
type BodyOf<O> = O extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
type Answer<O> = O extends { responses: { 200: { content: { 'application/json': infer A } } } } ? A : never;
type DatasetQuery<K extends keyof DatasetPaths> = QueryOf<Get<DatasetPaths, K>>;
/** The options of a market POST: its body but the tickers and fields. */
type MarketOptions<K extends keyof MarketPaths> = Omit<BodyOf<Post<MarketPaths, K>>, 'tickers' | 'fields'>;

/** The datasets with a change feed: each one's /v1/datasets/{dataset}/changes. */
export type FeedDataset = {
  [P in keyof DatasetPaths]: P extends `/v1/datasets/${infer D}/changes` ? D : never;
}[keyof DatasetPaths];

/** The awards listing's filters (all but the cursor, which the client follows). */
export type AwardFilters = Omit<DatasetQuery<'/v1/awards'>, 'cursor'>;
/** A Treasury tenor: 1M … 30Y (par yields), 4W … 52W (bills). */
export type Tenor = PathOf<Get<DatasetPaths, '/v1/rates/treasury/tenors/{tenor}'>>['tenor'];
/** One award of the listing. */
export type Award = Answer<Get<DatasetPaths, '/v1/awards'>>['data']['rows'][number];

const number = (headers: Headers, name: string) => {
  const text = headers.get(name);
  return text === null || text === '' || Number.isNaN(Number(text)) ? null : Number(text);
};

export class Quarry {
  /** The stored-datasets API, every route typed (gds_ key). */
  readonly datasets: Client<DatasetPaths>;
  /** The market-data API, every route typed (svc_mcp_ key). */
  readonly market: Client<MarketPaths>;
  /** The last answer's status, request id, credits and units. */
  last: LastResponse | null = null;

  constructor(options: QuarryOptions = {}) {
    const env = typeof process === 'undefined' ? {} : process.env;
    const baseUrl = (options.baseUrl ?? env.QUARRY_BASE_URL ?? 'http://localhost:8080').replace(/\/+$/, '');
    const key = options.key ?? env.QUARRY_API_KEY;
    const datasetsKey =
      options.datasetsKey ?? env.QUARRY_DATASETS_KEY ?? (key?.startsWith('gds_') ? key : undefined);
    const marketKey =
      options.marketKey ?? env.QUARRY_MARKET_KEY ?? (key?.startsWith('svc_mcp_') ? key : undefined);
    const fetch = this.waiting(options);
    const client = <P extends {}>(given: string | undefined) =>
      createClient<P>({
        baseUrl,
        fetch,
        headers: given ? { authorization: `Bearer ${given}` } : {},
      });
    this.datasets = client<DatasetPaths>(datasetsKey);
    this.market = client<MarketPaths>(marketKey);
  }

  // Market data -------------------------------------------------------------------------------------

  /** Full quotes, an item per ticker as sent; an item that failed carries its error. */
  async quotes(tickers: string[]) {
    return (await this.result(this.market.POST('/v1/quotes', { body: { tickers } }))).items;
  }

  /** Current values of tickers x fields (BDP), keyed as sent; per-item and per-field errors kept on the item. */
  async data(tickers: string[], fields: string[], options: MarketOptions<'/v1/data'> = {}) {
    return (await this.result(this.market.POST('/v1/data', { body: { tickers, fields, ...options } }))).items;
  }

  /** Rows between dates (BDH), an item per ticker as sent. */
  async history(tickers: string[], fields: string[], options: MarketOptions<'/v1/history'> = {}) {
    return (await this.result(this.market.POST('/v1/history', { body: { tickers, fields, ...options } })))
      .items;
  }

  /**
   * Dividends, capital gains and splits by ticker (BDS DVD_HIST_ALL, EQY_SPLIT_HIST), oldest first; amounts in
   * today's shares or, with adjust 'none', as paid. An item per ticker as sent.
   */
  async actions(tickers: string[], options: Omit<BodyOf<Post<MarketPaths, '/v1/actions'>>, 'tickers'> = {}) {
    return (await this.result(this.market.POST('/v1/actions', { body: { tickers, ...options } }))).items;
  }

  /** The field dictionary (no key needed). */
  async fields() {
    return (await this.result(this.market.GET('/v1/fields'))).fields;
  }

  /** Instruments whose symbol or name holds `q`. */
  async search(q: string) {
    return (await this.result(this.market.GET('/v1/search', { params: { query: { q } } }))).items;
  }

  // Stored datasets ---------------------------------------------------------------------------------

  /** The COT board: every contract of the latest report (or of the report known at asOf). */
  async cot(query: DatasetQuery<'/v1/cftc/cot'> = {}) {
    return this.result(this.datasets.GET('/v1/cftc/cot', { params: { query } }));
  }

  /** One COT contract's history. */
  async cotContract(contractCode: string, query: DatasetQuery<'/v1/cftc/cot/contracts/{contractCode}'> = {}) {
    const params = { path: { contractCode }, query };
    return this.result(this.datasets.GET('/v1/cftc/cot/contracts/{contractCode}', { params }));
  }

  /** The CPI board. */
  async cpi(query: DatasetQuery<'/v1/macro/cpi'> = {}) {
    return this.result(this.datasets.GET('/v1/macro/cpi', { params: { query } }));
  }

  /** The energy inventories board. */
  async energy(query: DatasetQuery<'/v1/energy/inventories'> = {}) {
    return this.result(this.datasets.GET('/v1/energy/inventories', { params: { query } }));
  }

  /** Treasury's par yield curve of a day (default the newest), with its changes and the 2s10s and 3m10y spreads. */
  async ratesCurve(query: DatasetQuery<'/v1/rates/treasury/curve'> = {}) {
    return this.result(this.datasets.GET('/v1/rates/treasury/curve', { params: { query } }));
  }

  /** One Treasury rate (a par yield by default, or a bill's) between two days. */
  async rates(tenor: Tenor, query: DatasetQuery<'/v1/rates/treasury/tenors/{tenor}'> = {}) {
    const params = { path: { tenor }, query };
    return this.result(this.datasets.GET('/v1/rates/treasury/tenors/{tenor}', { params }));
  }

  /** Every award matching the filters, page after page (each page one charged call), up to `maxRows`. */
  async *awards(filters: AwardFilters = {}, maxRows = Number.POSITIVE_INFINITY): AsyncGenerator<Award> {
    let cursor: string | undefined;
    let given = 0;
    do {
      const query = { ...filters, ...(cursor ? { cursor } : {}) };
      const page = await this.result(this.datasets.GET('/v1/awards', { params: { query } }));
      for (const award of page.data.rows) {
        if (given >= maxRows) return;
        given += 1;
        yield award;
      }
      cursor = page.data.nextCursor ?? undefined;
    } while (cursor && given < maxRows);
  }

  /**
   * One page of awards as the API answers it, with the listing's summaries and its `meta` (when it was read
   * as of, when its newest award became known); pass `nextCursor` as `cursor` for the next.
   */
  async awardsPage(query: DatasetQuery<'/v1/awards'> = {}) {
    return this.result(this.datasets.GET('/v1/awards', { params: { query } }));
  }

  /** One award with its details and revisions. */
  async award(id: string, query: DatasetQuery<'/v1/awards/{id}'> = {}) {
    return this.result(this.datasets.GET('/v1/awards/{id}', { params: { path: { id }, query } }));
  }

  /** A company's 8-K events, newest first. */
  async events(symbol: string, query: DatasetQuery<'/v1/events/{symbol}'> = {}) {
    return this.result(this.datasets.GET('/v1/events/{symbol}', { params: { path: { symbol }, query } }));
  }

  /** A company's reported KPIs with evidence. */
  async kpis(symbol: string, query: DatasetQuery<'/v1/kpis/{symbol}'> = {}) {
    return this.result(this.datasets.GET('/v1/kpis/{symbol}', { params: { path: { symbol }, query } }));
  }

  /** A company's guidance with evidence. */
  async guidance(symbol: string, query: DatasetQuery<'/v1/guidance/{symbol}'> = {}) {
    return this.result(this.datasets.GET('/v1/guidance/{symbol}', { params: { path: { symbol }, query } }));
  }

  /** A company's executive pay from its proxies. */
  async execPay(symbol: string, query: DatasetQuery<'/v1/exec-pay/{symbol}'> = {}) {
    return this.result(this.datasets.GET('/v1/exec-pay/{symbol}', { params: { path: { symbol }, query } }));
  }

  /** The proxies of a company that cover one fiscal year, with the CEO's pay change. */
  async execPayYear(symbol: string, year: number, query: DatasetQuery<'/v1/exec-pay/{symbol}/{year}'> = {}) {
    const params = { path: { symbol, year }, query };
    return this.result(this.datasets.GET('/v1/exec-pay/{symbol}/{year}', { params }));
  }

  /**
   * One page of a dataset's change feed: the revisions written after `since` (a nextCursor of the same feed;
   * from the first revision without it), oldest first, and the cursor to pass next — also on an empty page,
   * to poll with later.
   */
  async changes(dataset: FeedDataset, query: DatasetQuery<'/v1/datasets/cot/changes'> = {}) {
    // Every feed answers the same shape; the path differs by dataset only.
    const path = `/v1/datasets/${dataset}/changes` as '/v1/datasets/cot/changes';
    return this.result(this.datasets.GET(path, { params: { query } }));
  }

  /**
   * The whole dataset (as known at `asOf`) in one file: csv, ndjson or parquet, its bytes as a stream to write
   * where it belongs. One charged call (25 credits). A download that broke off is resumed with `resume`: the
   * bytes already held and the ETag the first answer gave; within a day of the charge it costs nothing, and
   * `partial` says whether the rest came (false: the file changed version and came whole).
   */
  async bulk(
    dataset: FeedDataset,
    query: DatasetQuery<'/v1/datasets/cot/bulk'> = {},
    resume?: { from: number; etag: string },
  ) {
    const path = `/v1/datasets/${dataset}/bulk` as '/v1/datasets/cot/bulk';
    // The stored bytes as they are: a Range counts bytes of the file sent, which fetch would unzip unasked.
    const headers = {
      'accept-encoding': 'identity',
      ...(resume ? { range: `bytes=${resume.from}-`, 'if-range': resume.etag } : {}),
    };
    const answer = this.datasets.GET(path, { params: { query }, headers, parseAs: 'stream' });
    const body = (await this.result(answer)) as unknown as ReadableStream<Uint8Array>;
    const { response } = await answer;
    return {
      body,
      etag: response.headers.get('etag') ?? '',
      version: number(response.headers, 'x-bulk-version'),
      rows: number(response.headers, 'x-bulk-rows'),
      partial: response.status === 206,
    };
  }

  /** The account of the datasets key: plan and credits. */
  async account() {
    return this.result(this.datasets.GET('/v1/datasets/account'));
  }

  /** The account's usage by day. */
  async usage() {
    return this.result(this.datasets.GET('/v1/datasets/usage'));
  }

  /** What a call would cost (no key, no credits). */
  async estimate(query: DatasetQuery<'/v1/datasets/cost'>) {
    return this.result(this.datasets.GET('/v1/datasets/cost', { params: { query } }));
  }

  // The transport --------------------------------------------------------------------------------------

  /** The answer's body, or its error thrown; the answer's figures kept as `last`. */
  private async result<A>(call: Promise<{ data?: A; error?: unknown; response: Response }>): Promise<A> {
    let answer: Awaited<typeof call>;
    try {
      answer = await call;
    } catch (error) {
      if (error instanceof QuarryError) throw error;
      throw new QuarryError('unavailable', `no answer: ${(error as Error).message}`, 0, null);
    }
    const { data, error, response } = answer;
    const requestId = response.headers.get('x-request-id');
    this.last = {
      status: response.status,
      requestId,
      creditsCharged: number(response.headers, 'x-credits-cost'),
      creditsRemaining: number(response.headers, 'x-credits-remaining'),
      units: number(response.headers, 'x-service-units'),
    };
    if (response.ok && data !== undefined) return data;
    const body = (error ?? {}) as { error?: unknown; message?: unknown; requestId?: unknown };
    throw new QuarryError(
      typeof body.error === 'string'
        ? (body.error as ErrorCode)
        : response.status >= 500
          ? 'unavailable'
          : 'invalid_params',
      typeof body.message === 'string' ? body.message : response.statusText,
      response.status,
      typeof body.requestId === 'string' ? body.requestId : requestId,
    );
  }

  /**
   * A fetch that waits out a 429 (and a 503 other than the datasets API switched off) as Retry-After says, and
   * retries a call that got no answer; every call of these APIs reads and is safe to repeat.
   */
  private waiting(options: QuarryOptions): (request: Request) => Promise<Response> {
    const inner = options.fetch ?? globalThis.fetch;
    const retries = options.retries ?? 3;
    const maxWait = options.maxWaitSeconds ?? 60;
    const sleep =
      options.sleep ?? ((seconds: number) => new Promise<void>((done) => setTimeout(done, seconds * 1000)));
    return async (request) => {
      for (let attempt = 1; ; attempt += 1) {
        let response: Response;
        try {
          response = await inner(request.clone());
        } catch (error) {
          if (attempt > retries) throw error;
          await sleep(2 ** (attempt - 1));
          continue;
        }
        const busy = response.status === 429 || response.status === 503;
        if (!busy || attempt > retries) return response;
        if (response.status === 503) {
          const body = (await response
            .clone()
            .json()
            .catch(() => ({}))) as { error?: string };
          if (body.error === 'data_api_disabled') return response;
        }
        const wait = number(response.headers, 'retry-after') ?? 2 ** (attempt - 1);
        if (wait > maxWait) return response;
        await response.body?.cancel();
        await sleep(wait);
      }
    };
  }
}
