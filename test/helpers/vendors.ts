// A local stand-in for the licensed vendors (Polygon, Tiingo, FMP), replaying their recorded answers
// (test/fixtures/market/vendors) as the vendors would: each answer narrowed by the request's dates and symbol,
// a request without its key refused with 401, an unknown symbol answered as the vendor does (empty, or 404).
// It counts every call per vendor, and answers 429 past an allowance of calls a minute when one is set.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const DIR = path.resolve('test/fixtures/market/vendors');

type Recorded = { uri: string; status: number; body: unknown };

/** A vendor's recorded answer body, as its file holds it. */
export function recorded(name: string): unknown {
  return (JSON.parse(readFileSync(path.join(DIR, `${name}.json`), 'utf8')) as Recorded[])[0]?.body;
}

type Row = Record<string, unknown>;
type Reply = [status: number, body: unknown, headers?: Record<string, string>];

const inWindow = (date: string, from: string | null, to: string | null) =>
  (!from || date >= from) && (!to || date <= to);

export class VendorStandIn {
  private server: Server | null = null;
  url = '';
  /** Calls per vendor, and the calls answered 429. */
  readonly calls: Record<string, number> = { polygon: 0, tiingo: 0, fmp: 0 };
  readonly refused: Record<string, number> = { polygon: 0, tiingo: 0, fmp: 0 };
  /**
   * Calls a minute each vendor answers before 429 (absent: no limit), counted in fixed minutes of the clock as
   * the vendors' plans count them; `retryAfter` is the seconds its 429 asks.
   */
  readonly allowance: Record<string, number> = {};
  retryAfter = '30';
  /** Closes to answer instead of the recorded ones, by vendor and date (a disagreement made for a test). */
  readonly closes: Record<string, Record<string, number>> = {};
  private readonly minute: Record<string, { at: number; calls: number }> = {};

  /** The environment that points Quarry's upstreams here, in the order given, Yahoo off. */
  env(order: readonly string[]): Record<string, string> {
    return {
      QUARRY_MARKET_UPSTREAM: 'yahoo',
      QUARRY_MARKET_UPSTREAMS: order.join(','),
      POLYGON_API_KEY: 'polygon-key',
      TIINGO_API_KEY: 'tiingo-key',
      FMP_API_KEY: 'fmp-key',
      QUARRY_POLYGON_URL: `${this.url}/polygon`,
      QUARRY_TIINGO_URL: `${this.url}/tiingo`,
      QUARRY_FMP_URL: `${this.url}/fmp`,
    };
  }

  async start(): Promise<this> {
    const server = createServer((req, res) => this.answer(req, res));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private answer(req: IncomingMessage, res: ServerResponse): void {
    const [status, body, headers = {}] = this.reply(new URL(req.url ?? '/', 'http://x'));
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  }

  /** The status, body and headers the vendor would answer. */
  private reply(url: URL): Reply {
    const [, vendor = '', ...rest] = url.pathname.split('/');
    const send = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => [
      status,
      body,
      headers,
    ];
    if (!(vendor in this.calls)) return send(404, { error: 'no such vendor' });
    this.calls[vendor] = (this.calls[vendor] ?? 0) + 1;
    const limit = this.allowance[vendor];
    if (limit !== undefined) {
      const at = Math.floor(Date.now() / 60_000);
      const held = this.minute[vendor];
      const counted = held?.at === at ? held : { at, calls: 0 };
      counted.calls += 1;
      this.minute[vendor] = counted;
      if (counted.calls > limit) {
        this.refused[vendor] = (this.refused[vendor] ?? 0) + 1;
        return send(429, { error: 'Too Many Requests' }, { 'retry-after': this.retryAfter });
      }
    }
    const q = (name: string) => url.searchParams.get(name);
    const route = `/${rest.join('/')}`;
    if (vendor === 'polygon') {
      if (q('apiKey') !== 'polygon-key') return send(401, { status: 'ERROR', error: 'Unknown API Key' });
      const quoted = /^\/v3\/quotes\/([^/]+)$/.exec(route);
      if (quoted) {
        // Newest first (order=desc, as recorded), narrowed to the limit asked.
        const body = recorded('polygon-spy-quotes') as { results: Row[] };
        const sorted = [...body.results].sort(
          (a, b) => (b.sip_timestamp as number) - (a.sip_timestamp as number),
        );
        if (q('order') === 'asc') sorted.reverse();
        const results = quoted[1] === 'SPY' ? sorted.slice(0, Number(q('limit') ?? 10)) : [];
        return send(200, { ...body, results });
      }
      const match = /^\/v2\/aggs\/ticker\/([^/]+)\/range\/1\/day\/([\d-]+)\/([\d-]+)$/.exec(route);
      if (!match) return send(404, { status: 'NOT_FOUND' });
      const [, ticker, from, to] = match;
      const body = recorded('polygon-aapl-daily') as { results: Row[] };
      const day = (t: number) => new Date(t + 12 * 3_600_000).toISOString().slice(0, 10);
      const results =
        ticker === 'AAPL'
          ? body.results.filter((r) => inWindow(day(r.t as number), from ?? null, to ?? null))
          : [];
      return send(200, {
        ...body,
        ticker,
        results,
        resultsCount: results.length,
        queryCount: results.length,
      });
    }
    if (vendor === 'tiingo') {
      if (q('token') !== 'tiingo-key') return send(401, { detail: 'Invalid token.' });
      const match = /^\/tiingo\/daily\/([^/]+)\/prices$/.exec(route);
      if (match?.[1] !== 'aapl') return send(404, { detail: `Error: Ticker '${match?.[1]}' not found` });
      const rows = (recorded('tiingo-aapl-daily') as Row[]).filter((r) =>
        inWindow(String(r.date).slice(0, 10), q('startDate'), q('endDate')),
      );
      return send(200, rows);
    }
    if (q('apikey') !== 'fmp-key') return send(401, { 'Error Message': 'Invalid API KEY.' });
    const symbol = q('symbol');
    const of = (name: string) => (symbol === 'AAPL' ? (recorded(name) as Row[]) : []);
    if (route === '/stable/quote') return send(200, of('fmp-aapl-quote'));
    if (route === '/stable/profile') return send(200, of('fmp-aapl-profile'));
    if (route === '/stable/dividends') return send(200, of('fmp-aapl-dividends'));
    if (route === '/stable/historical-price-eod/full')
      return send(
        200,
        of('fmp-aapl-daily')
          .filter((r) => inWindow(String(r.date), q('from'), q('to')))
          .map((r) => ({ ...r, close: this.closes.fmp?.[String(r.date)] ?? r.close })),
      );
    return send(404, { 'Error Message': 'not found' });
  }
}
