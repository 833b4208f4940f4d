// A local stand-in for Yahoo Finance that replays the recorded real responses in test/fixtures/real/market/yahoo:
// the cookie page (307 to consent, a GUCS cookie), the crumb, quotes (a batch is answered from the per-symbol
// recordings), charts (the recording of the symbol, cut to the asked period), quoteSummary (the recorded
// modules of the symbol), fundamentals time series (every recorded series of the symbol) and search. It
// counts what it is asked, can answer slowly, and can be told to fail.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { real } from './real-data.js';

export const YAHOO_DIR = real('market/yahoo');
const CRUMB = 'REDACTEDCRUMB';

interface Recording {
  request: { url: string };
  response: {
    status: number;
    headers: Record<string, string | string[]>;
    bodyJson?: unknown;
    bodyText?: string;
  };
}

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Recording;
const files = (folder: string) =>
  readdirSync(path.join(YAHOO_DIR, folder)).map((f) => path.join(YAHOO_DIR, folder, f));

export interface YahooCall {
  path: string;
  query: URLSearchParams;
  status: number;
  at: number;
}

type Chart = {
  timestamp?: number[];
  indicators: { quote: Record<string, unknown[]>[]; adjclose?: { adjclose: unknown[] }[] };
  /** Dividends, splits and capital gains keyed by their ex-date's epoch seconds. */
  events?: Record<string, Record<string, { date: number }>>;
};

export class MockYahoo {
  readonly calls: YahooCall[] = [];
  /** Milliseconds to wait before answering a data request (not the cookie and crumb pages). */
  delayMs = 0;
  /** While set, data answers wait for it: a test decides when the upstream answers, not a timer. */
  private gate: Promise<void> | null = null;
  /** Data answers sent since the stand-in started, and those waiting on them. */
  private sent = 0;
  private waiting: { count: number; resolve: () => void }[] = [];
  private readonly faults: {
    prefix: string;
    status: number;
    headers: Record<string, string>;
    left: number;
  }[] = [];
  private readonly quotes = new Map<string, unknown>();
  private readonly charts = new Map<string, Recording>();
  private readonly summaries = new Map<string, Record<string, unknown>>();
  private readonly timeseries = new Map<string, Map<string, { meta: { type: string[] } }>>();
  private server: Server | null = null;
  url = '';

  constructor() {
    // Single-symbol recordings first, so they win over the same symbol in a combined one.
    for (const file of files('quote').sort((a, b) => a.length - b.length)) {
      const body = read(file).response.bodyJson as { quoteResponse?: { result?: { symbol: string }[] } };
      for (const r of body.quoteResponse?.result ?? [])
        if (!this.quotes.has(r.symbol)) this.quotes.set(r.symbol, r);
    }
    for (const file of files('chart')) {
      const recording = read(file);
      const symbol = decodeURIComponent(/\/chart\/([^?]+)/.exec(recording.request.url)?.[1] ?? '');
      const bars = (recording.response.bodyJson as { chart: { result: Chart[] } }).chart.result[0]?.timestamp;
      const held = this.charts.get(symbol);
      const heldBars = held
        ? (held.response.bodyJson as { chart: { result: Chart[] } }).chart.result[0]?.timestamp
        : [];
      if (!held || (bars?.length ?? 0) > (heldBars?.length ?? 0)) this.charts.set(symbol, recording);
    }
    for (const file of files('quoteSummary')) {
      const match = /quoteSummary-([A-Za-z]+)-(.+)\.json$/.exec(path.basename(file));
      if (!match || match[1] === 'all') continue;
      const result = (
        read(file).response.bodyJson as { quoteSummary?: { result?: Record<string, unknown>[] } }
      ).quoteSummary?.result?.[0];
      if (!result) continue;
      const symbol = match[2] as string;
      this.summaries.set(symbol, { ...this.summaries.get(symbol), ...result });
    }
    this.loadTimeSeries();
  }

  /** Every recorded fundamentals series of a symbol by type, one with data winning over an empty one. */
  private loadTimeSeries(): void {
    for (const file of files('fundamentalsTimeSeries')) {
      const recording = read(file);
      const symbol = decodeURIComponent(/\/timeseries\/([^?]+)/.exec(recording.request.url)?.[1] ?? '');
      const body = recording.response.bodyJson as {
        timeseries?: { result?: { meta: { type: string[] } }[] };
      };
      const held = this.timeseries.get(symbol) ?? new Map<string, { meta: { type: string[] } }>();
      this.timeseries.set(symbol, held);
      for (const series of body.timeseries?.result ?? []) {
        const type = series.meta.type[0] as string;
        const hasData = Array.isArray((series as Record<string, unknown>)[type]);
        if (!held.has(type) || hasData) held.set(type, series);
      }
    }
  }

  /** The next `times` requests whose path starts with `prefix` answer `status` (with `headers`). */
  fail(prefix: string, status: number, times = 1, headers: Record<string, string> = {}): void {
    this.faults.push({ prefix, status, headers, left: times });
  }

  reset(): void {
    this.calls.length = 0;
    this.faults.length = 0;
    this.delayMs = 0;
    this.gate = null;
  }

  /** Holds every data answer until the returned function is called. */
  hold(): () => void {
    let release = () => {};
    this.gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    return () => {
      this.gate = null;
      release();
    };
  }

  /** Resolves once `count` more data answers than now have been sent. */
  answers(count: number): Promise<void> {
    return new Promise((resolve) => this.waiting.push({ count: this.sent + count, resolve }));
  }

  /** Calls to a data path (quote, chart, quoteSummary, search), not the cookie and crumb pages. */
  dataCalls(prefix: string): YahooCall[] {
    return this.calls.filter((c) => c.path.startsWith(prefix));
  }

  env(): Record<string, string> {
    return { QUARRY_MARKET_UPSTREAM: 'yahoo', QUARRY_YAHOO_URL: this.url };
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const call: YahooCall = {
        path: url.pathname,
        query: url.searchParams,
        status: 0,
        at: performance.now(),
      };
      this.calls.push(call);
      const send = (status: number, body: unknown, headers: Record<string, string | string[]> = {}) => {
        call.status = status;
        const text = typeof body === 'string' ? body : JSON.stringify(body);
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(text);
      };
      const fault = this.faults.find((f) => f.left > 0 && url.pathname.startsWith(f.prefix));
      if (fault) {
        fault.left -= 1;
        return send(
          fault.status,
          { finance: { result: null, error: { code: 'Failure', description: 'failure' } } },
          fault.headers,
        );
      }
      if (url.pathname.startsWith('/quote/')) {
        const recorded = read(real('market/yahoo/crumb/getCrumb-quote-AAPL.json')).response;
        const { 'content-length': _length, ...headers } = recorded.headers;
        return send(recorded.status, '', headers);
      }
      if (url.pathname === '/consent') return send(200, '', { 'content-type': 'text/html' });
      if (url.pathname === '/v1/test/getcrumb') {
        if (!String(req.headers.cookie ?? '').includes('GUCS=')) return send(403, 'no cookie');
        return send(200, CRUMB, { 'content-type': 'text/plain' });
      }
      const answer = () => {
        this.answer(url, send);
        this.sent += 1;
        for (const w of this.waiting.filter((x) => x.count <= this.sent)) w.resolve();
        this.waiting = this.waiting.filter((x) => x.count > this.sent);
      };
      const gate = this.gate;
      if (gate) void gate.then(answer);
      else setTimeout(answer, this.delayMs);
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  private answer(url: URL, send: (status: number, body: unknown) => void) {
    const crumbed = url.searchParams.get('crumb') === CRUMB;
    if (url.pathname === '/v7/finance/quote') {
      if (!crumbed)
        return send(401, {
          finance: { result: null, error: { code: 'Unauthorized', description: 'Invalid Crumb' } },
        });
      const symbols = (url.searchParams.get('symbols') ?? '').split(',');
      const result = symbols.flatMap((s) => (this.quotes.has(s) ? [this.quotes.get(s)] : []));
      return send(200, { quoteResponse: { result, error: null } });
    }
    const chart = /^\/v8\/finance\/chart\/(.+)$/.exec(url.pathname);
    if (chart) {
      const recording = this.charts.get(decodeURIComponent(chart[1] as string));
      if (!recording)
        return send(404, {
          chart: {
            result: null,
            error: { code: 'Not Found', description: 'No data found, symbol may be delisted' },
          },
        });
      return send(200, cut(recording.response.bodyJson, url.searchParams));
    }
    const summary = /^\/v10\/finance\/quoteSummary\/(.+)$/.exec(url.pathname);
    if (summary) {
      const symbol = decodeURIComponent(summary[1] as string);
      const held = this.summaries.get(symbol);
      if (!crumbed)
        return send(401, {
          finance: { result: null, error: { code: 'Unauthorized', description: 'Invalid Crumb' } },
        });
      if (!held)
        return send(404, {
          quoteSummary: {
            result: null,
            error: { code: 'Not Found', description: `Quote not found for symbol: ${symbol}` },
          },
        });
      const modules = (url.searchParams.get('modules') ?? '').split(',');
      const result = Object.fromEntries(Object.entries(held).filter(([m]) => modules.includes(m)));
      return send(200, { quoteSummary: { result: [result], error: null } });
    }
    const timeseries = /^\/ws\/fundamentals-timeseries\/v1\/finance\/timeseries\/(.+)$/.exec(url.pathname);
    if (timeseries) {
      const held = this.timeseries.get(decodeURIComponent(timeseries[1] as string));
      const types = (url.searchParams.get('type') ?? '').split(',');
      const result = types.flatMap((t) => (held?.has(t) ? [held.get(t)] : []));
      return send(200, { timeseries: { result, error: null } });
    }
    if (url.pathname === '/v1/finance/search') {
      const q = url.searchParams.get('q') ?? '';
      try {
        return send(200, read(path.join(YAHOO_DIR, `search/search-${q}.json`)).response.bodyJson);
      } catch {
        return send(200, { quotes: [], news: [], count: 0 });
      }
    }
    send(404, { finance: { result: null, error: { code: 'Not Found', description: 'no such path' } } });
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

/**
 * A recorded chart answer cut to the bars from period1 (and to period2 when given), and to the events of those
 * days, as Yahoo answers a range.
 */
function cut(body: unknown, query: URLSearchParams): unknown {
  const copy = structuredClone(body) as { chart: { result: Chart[] } };
  const chart = copy.chart.result[0] as Chart;
  const from = Number(query.get('period1') ?? 0);
  const to = Number(query.get('period2') ?? Number.POSITIVE_INFINITY);
  const keep = (chart.timestamp ?? []).map((t) => t >= from && t <= to);
  const pick = <T>(list: T[]) => list.filter((_, i) => keep[i]);
  chart.timestamp = pick(chart.timestamp ?? []);
  for (const quote of chart.indicators.quote)
    for (const key of Object.keys(quote)) quote[key] = pick(quote[key] ?? []);
  for (const adj of chart.indicators.adjclose ?? []) adj.adjclose = pick(adj.adjclose);
  for (const [kind, events] of Object.entries(chart.events ?? {}))
    (chart.events as NonNullable<Chart['events']>)[kind] = Object.fromEntries(
      Object.entries(events).filter(([, event]) => event.date >= from && event.date <= to),
    );
  return copy;
}
