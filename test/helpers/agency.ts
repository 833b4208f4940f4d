// A local stand-in for an agency's web host: serves real files at the paths the agency uses, with an ETag
// and Last-Modified, answers If-None-Match with 304, and can be told to fail a path (an error status, or no
// answer at all). It records every request so tests can see what was asked and how.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AgencyRequest {
  path: string;
  headers: IncomingHttpHeaders;
  /** The request's body, as text (empty for a GET). */
  body: string;
  status: number;
  /** When it arrived: milliseconds on the monotonic clock (performance.now()), to compare with each other. */
  at: number;
}

export class MockAgency {
  /** Path → the bytes served there (read when set), the first whose test passes the request's body. */
  private readonly files = new Map<string, { bytes: Buffer; etag: string; when?: RegExp }[]>();
  /** Path → a status to answer instead, or 'hang' to never answer. */
  private readonly faults = new Map<string, number | 'hang'>();
  readonly requests: AgencyRequest[] = [];
  private server: Server | null = null;
  url = '';

  /** Serves `file` at `path`; with `when`, only to requests whose body matches it (tried first). */
  serve(path: string, file: string | Buffer, when?: RegExp): void {
    const bytes = typeof file === 'string' ? readFileSync(file) : file;
    const entry = {
      bytes,
      etag: `"${createHash('sha1').update(bytes).digest('hex')}"`,
      ...(when ? { when } : {}),
    };
    // The entry replaces the one served under the same condition; conditional entries are tried first.
    const others = (this.files.get(path) ?? []).filter((f) => f.when?.source !== when?.source);
    this.files.set(path, when ? [entry, ...others] : [...others, entry]);
  }

  fail(path: string, how: number | 'hang' | null): void {
    if (how === null) this.faults.delete(path);
    else this.faults.set(path, how);
  }

  /** The settings that send every agency request to this stand-in, with a contact for the User-Agent. */
  env(): Record<string, string> {
    return {
      QUARRY_CONTACT: 'ops@quarry.example',
      QUARRY_CFTC_URL: this.url,
      QUARRY_EIA_URL: this.url,
      QUARRY_BLS_URL: this.url,
      QUARRY_SEC_URL: this.url,
      QUARRY_USASPENDING_URL: this.url,
      QUARRY_TREASURY_URL: this.url,
    };
  }

  async start(): Promise<this> {
    this.server = createServer(async (req, res) => {
      const asked = new URL(req.url ?? '/', 'http://x');
      // A file served with its query (an agency that picks a file by one) matches it whole.
      const path = this.files.has(asked.pathname + asked.search)
        ? asked.pathname + asked.search
        : asked.pathname;
      const at = performance.now();
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks).toString('utf8');
      const record = (status: number) => this.requests.push({ path, headers: req.headers, body, status, at });
      const fault = this.faults.get(path);
      if (fault === 'hang') return record(0);
      if (fault !== undefined) {
        record(fault);
        return res.writeHead(fault).end('failure');
      }
      const file = this.files.get(path)?.find((f) => !f.when || f.when.test(body));
      if (!file) {
        record(404);
        return res.writeHead(404).end('not found');
      }
      if (req.headers['if-none-match'] === file.etag) {
        record(304);
        return res.writeHead(304, { etag: file.etag }).end();
      }
      record(200);
      res.writeHead(200, {
        etag: file.etag,
        'last-modified': 'Fri, 11 Jun 2021 19:30:00 GMT',
        'content-length': file.bytes.length,
      });
      res.end(file.bytes);
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

/**
 * Upstream hosts for tests that do not mean to fetch: a closed local port. A test that collects (or calls
 * Stripe) by mistake fails at once instead of reaching a real host.
 */
export const NO_AGENCIES: Record<string, string> = {
  QUARRY_CFTC_URL: 'http://127.0.0.1:9',
  QUARRY_EIA_URL: 'http://127.0.0.1:9',
  QUARRY_BLS_URL: 'http://127.0.0.1:9',
  QUARRY_SEC_URL: 'http://127.0.0.1:9',
  QUARRY_USASPENDING_URL: 'http://127.0.0.1:9',
  QUARRY_TREASURY_URL: 'http://127.0.0.1:9',
  QUARRY_STRIPE_URL: 'http://127.0.0.1:9',
  QUARRY_MARKET_UPSTREAM: 'none',
  QUARRY_YAHOO_URL: 'http://127.0.0.1:9',
  QUARRY_POLYGON_URL: 'http://127.0.0.1:9',
  QUARRY_TIINGO_URL: 'http://127.0.0.1:9',
  QUARRY_FMP_URL: 'http://127.0.0.1:9',
  QUARRY_OPENFIGI_URL: 'http://127.0.0.1:9',
};
