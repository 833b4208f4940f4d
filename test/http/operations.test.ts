// What an operator runs the service by: liveness and readiness, the caller's request id, access lines that say
// who called, and a SIGTERM that lets the requests in flight finish.

import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/accounts/accounts.js';
import { createKey } from '../../src/accounts/keys.js';
import { loadConfig } from '../../src/runtime/config.js';
import { createDeps } from '../../src/runtime/deps.js';
import { bearer, type Customer, customer, type TestEnv, testEnv } from '../helpers/env.js';
import { startServer } from '../helpers/server.js';

describe('health and request ids', () => {
  let env: TestEnv;
  let user: Customer;
  beforeAll(async () => {
    // A fixed clock: an answer's freshness (and so its ETag) may change when a day turns.
    env = await testEnv({ clock: () => new Date('2026-11-18T10:00:05.000Z') });
    user = await customer(env.deps);
  });
  afterAll(() => env.close());

  it('GET /healthz answers without a key and is not metered', async () => {
    const res = await env.app.inject({ url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['x-credits-cost']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('GET /readyz: store, counters and schema each ok', async () => {
    const res = await env.app.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ready',
      checks: { store: 'ok', counters: 'ok (in process)', migrations: 'ok' },
    });
  });

  it('GET /readyz: 503 naming a migration the store has not applied', async () => {
    const other = await testEnv();
    try {
      await sql`DELETE FROM quarry_migrations WHERE name = '013-market-facts'`.execute(other.deps.store.db);
      const res = await other.app.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        status: 'not_ready',
        checks: { store: 'ok', counters: 'ok (in process)', migrations: 'pending: 013-market-facts' },
      });
    } finally {
      await other.close();
    }
  });

  it('GET /readyz: 503 when Redis does not answer, without its address', async () => {
    const other = await testEnv({ env: { REDIS_URL: 'redis://127.0.0.1:1' } });
    try {
      const res = await other.app.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json().checks).toEqual({ store: 'ok', counters: 'down', migrations: 'ok' });
      expect(res.body).not.toContain('127.0.0.1');
    } finally {
      await other.close();
    }
  });

  it('a path served under other methods answers 405 with Allow; an unknown path 404', async () => {
    for (const [method, url, allow] of [
      ['DELETE', '/v1/macro/cpi', 'GET'],
      ['PUT', '/v1/quotes', 'GET, POST'],
      ['POST', '/v1/cftc/cot/contracts/067651', 'GET'],
      ['PATCH', '/v1/datasets/cot/sample/', 'GET'],
    ] as const) {
      const res = await env.app.inject({ method, url, headers: bearer(user.key) });
      expect([url, res.statusCode, res.headers.allow, res.json().error]).toEqual([
        url,
        405,
        allow,
        'method_not_allowed',
      ]);
    }
    const missing = await env.app.inject({ method: 'DELETE', url: '/v1/nothing/here' });
    expect([missing.statusCode, missing.json().error]).toEqual([404, 'not_found']);
  });

  it('public reads allow any origin; keyed routes send no CORS header', async () => {
    for (const url of ['/v1/datasets', '/v1/datasets/openapi.json', '/v1/fields', '/v1/openapi.json']) {
      const res = await env.app.inject({ url, headers: { origin: 'https://example.org' } });
      expect([url, res.statusCode, res.headers['access-control-allow-origin']]).toEqual([url, 200, '*']);
    }
    for (const url of ['/v1/macro/cpi', '/v1/datasets/account']) {
      const res = await env.app.inject({
        url,
        headers: { ...bearer(user.key), origin: 'https://example.org' },
      });
      expect([url, res.statusCode, res.headers['access-control-allow-origin']]).toEqual([
        url,
        200,
        undefined,
      ]);
    }
    const preflight = await env.app.inject({
      method: 'OPTIONS',
      url: '/v1/macro/cpi',
      headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('dataset answers carry an ETag; If-None-Match with it is 304, metered as the call; keyed answers are private', async () => {
    const first = await env.app.inject({ url: '/v1/macro/cpi', headers: bearer(user.key) });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(first.headers['cache-control']).toBe('private');
    const remaining = Number(first.headers['x-credits-remaining']);
    const again = await env.app.inject({
      url: '/v1/macro/cpi',
      headers: { ...bearer(user.key), 'if-none-match': `"other", ${etag}` },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['x-credits-cost']).toBe('1');
    expect(Number(again.headers['x-credits-remaining'])).toBe(remaining - 1);
    const changed = await env.app.inject({
      url: '/v1/macro/cpi',
      headers: { ...bearer(user.key), 'if-none-match': '"something-else"' },
    });
    expect(changed.statusCode).toBe(200);
    expect(JSON.parse(changed.body)).toEqual(JSON.parse(first.body));
  });

  it("a caller's X-Request-Id that is a short safe token is kept, in the header and in error bodies", async () => {
    const ok = await env.app.inject({
      url: '/v1/macro/cpi',
      headers: { ...bearer(user.key), 'x-request-id': 'trace-42.a:b_c' },
    });
    expect(ok.headers['x-request-id']).toBe('trace-42.a:b_c');
    const refused = await env.app.inject({ url: '/v1/macro/cpi', headers: { 'x-request-id': 'trace-43' } });
    expect(refused.json()).toMatchObject({ error: 'missing_key', requestId: 'trace-43' });
  });

  it('an X-Request-Id that is long or holds other characters is replaced by our own', async () => {
    for (const given of ['x'.repeat(65), 'has space', 'semi;colon', '']) {
      const res = await env.app.inject({ url: '/healthz', headers: { 'x-request-id': given } });
      expect(res.headers['x-request-id']).toMatch(/^req_/);
    }
  });
});

describe('a server process', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quarry-ops-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { QUARRY_DATA_DIR: dataDir, DATA_API_ENABLED: 'true' };

  async function account() {
    const deps = await createDeps(loadConfig({ ...env, LOG_LEVEL: 'silent' }));
    try {
      const created = await createAccount(deps, {
        email: `ops-${randomUUID()}@example.com`,
        plan: 'desk',
        marketPlan: 'paid',
        emailConfirmed: true,
      });
      const key = await createKey(deps, { accountId: created.id, api: 'datasets' });
      const market = await createKey(deps, { accountId: created.id, api: 'market' });
      return { accountId: created.id, keyId: key.id, key: key.key, marketKey: market.key };
    } finally {
      await deps.close();
    }
  }

  it('writes one access line per request with the account and key id, never the key text', async () => {
    const caller = await account();
    const server = await startServer({ ...env, LOG_LEVEL: 'info' });
    const lines: string[] = [];
    createInterface({ input: server.child.stdout as NodeJS.ReadableStream }).on('line', (l) => lines.push(l));
    try {
      const res = await fetch(`${server.url}/v1/macro/cpi`, {
        headers: { ...bearer(caller.key), 'x-request-id': 'trace-access-1' },
      });
      expect(res.status).toBe(200);
      await expect.poll(() => lines.some((l) => l.includes('trace-access-1')), { timeout: 5000 }).toBe(true);
      const line = JSON.parse(lines.find((l) => l.includes('trace-access-1')) as string);
      expect(line).toMatchObject({
        reqId: 'trace-access-1',
        method: 'GET',
        url: '/v1/macro/cpi',
        status: 200,
        account: caller.accountId,
        key: caller.keyId,
      });
      expect(lines.join('\n')).not.toContain(caller.key);
    } finally {
      await server.stop();
    }
  });

  /** Whether a new connection to the port is refused. */
  const refused = (port: number) =>
    new Promise<boolean>((resolve) => {
      const probe = connect(port, '127.0.0.1');
      probe.once('connect', () => {
        probe.destroy();
        resolve(false);
      });
      probe.once('error', () => resolve(true));
    });

  it('SIGTERM: a request in flight is answered, then the process exits 0', async () => {
    const caller = await account();
    const server = await startServer(env);
    const { port } = new URL(server.url);
    const body = JSON.stringify({ tickers: ['AAPL'] });
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    // The request's head and half its body, then the signal, then the rest of the body.
    socket.write(
      `POST /v1/quotes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\nAuthorization: Bearer ${caller.marketKey}\r\nConnection: close\r\n\r\n`,
    );
    socket.write(body.slice(0, 5));
    // A call on another connection answered after that: the server has read what came before it.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const exited = new Promise<number | null>((resolve) =>
      server.child.once('exit', (code) => resolve(code)),
    );
    server.child.kill('SIGTERM');
    // Stopping: the server takes no new connection, and the request in flight is still to be answered.
    await expect.poll(() => refused(Number(port)), { interval: 20 }).toBe(true);
    socket.write(body.slice(5));
    await new Promise((resolve) => socket.once('close', resolve));
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain('"input":"AAPL"');
    expect(await exited).toBe(0);
  });

  describe('slow and malformed clients', () => {
    let server: Awaited<ReturnType<typeof startServer>>;
    beforeAll(async () => {
      server = await startServer({
        ...env,
        QUARRY_HEADERS_TIMEOUT_MS: '1000',
        QUARRY_KEEP_ALIVE_TIMEOUT_MS: '500',
      });
    });
    afterAll(() => server.stop());

    /** Writes `text` on a new connection and resolves with all it got back once the server closed it. */
    async function exchange(text: string, elapsed?: (ms: number) => void): Promise<string> {
      const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      const started = performance.now();
      let answer = '';
      socket.on('data', (chunk) => {
        answer += chunk;
      });
      socket.on('error', () => {});
      socket.write(text);
      await new Promise((resolve) => socket.once('close', resolve));
      elapsed?.(performance.now() - started);
      return answer;
    }

    const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

    it('headers that never finish: 408 request_timeout in the house format, then the connection closes', async () => {
      const answer = await exchange('GET /healthz HTTP/1.1\r\nHost: x\r\n');
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(bodyOf(answer)).toEqual({
        error: 'request_timeout',
        message: expect.any(String),
        requestId: expect.stringMatching(/^req_/),
      });
    });

    it('Transfer-Encoding with Content-Length: 400 malformed_request', async () => {
      const answer = await exchange(
        'POST /v1/quotes HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n',
      );
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(bodyOf(answer)).toMatchObject({ error: 'malformed_request' });
    });

    it('an unknown method, a control character in a header, raw non-ASCII in the URL, a bad length: 400', async () => {
      for (const request of [
        'FOO /healthz HTTP/1.1\r\nHost: x\r\n\r\n',
        'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n',
        'GET /v1/kpis/\u00e9 HTTP/1.1\r\nHost: x\r\n\r\n',
        'POST /v1/quotes HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
      ]) {
        const answer = await exchange(request);
        expect([request, answer.slice(0, 12)]).toEqual([request, 'HTTP/1.1 400']);
        expect(bodyOf(answer)).toEqual({
          error: 'malformed_request',
          message: expect.any(String),
          requestId: expect.stringMatching(/^req_/),
        });
      }
    });

    it('headers over the size Node reads: 431 headers_too_large', async () => {
      const answer = await exchange(
        `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      );
      expect(answer).toMatch(/^HTTP\/1\.1 431 /);
      expect(bodyOf(answer)).toMatchObject({ error: 'headers_too_large' });
    });

    it('an idle kept-alive connection is closed after the keep-alive timeout', async () => {
      let took = 0;
      const answer = await exchange('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n', (ms) => {
        took = ms;
      });
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      // Closed by the server, not by the test's own limit: somewhere after the 500 ms keep-alive timeout.
      expect(took).toBeGreaterThanOrEqual(450);
      expect(took).toBeLessThan(10_000);
    });
  });
});

describe('the API reference', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await testEnv();
  });
  afterAll(() => env.close());

  it('GET /docs is a page of both OpenAPI documents with the viewer served from here', async () => {
    const page = await env.app.inject({ url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const scripts = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts).toEqual([
      '/docs/swagger-ui.css',
      '/docs/swagger-ui-bundle.js',
      '/docs/swagger-ui-standalone-preset.js',
      '/docs/start.js',
    ]);
    for (const url of scripts) {
      const res = await env.app.inject({ url: url as string });
      expect([url, res.statusCode]).toEqual([url, 200]);
      expect(res.body.length).toBeGreaterThan(url === '/docs/start.js' ? 100 : 10_000);
    }
    const start = (await env.app.inject({ url: '/docs/start.js' })).body;
    expect(start).toContain("url: '/v1/datasets/openapi.json'");
    expect(start).toContain("url: '/v1/openapi.json'");
    expect((await env.app.inject({ url: '/docs/../package.json' })).statusCode).toBe(404);
    expect((await env.app.inject({ url: '/docs/index.html' })).statusCode).toBe(404);
    // Names every object inherits are no files either: 404 in the house format, not a 500.
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      const res = await env.app.inject({ url: `/docs/${name}` });
      expect([res.statusCode, res.json().error], name).toEqual([404, 'not_found']);
    }
  });
});
