// Input the service refuses before it reads or charges anything, the same on both engines: control characters
// in any text, a body on a GET, a path parameter past the router's length, what Node's parser refuses, and
// POST /mcp without the Accept its transport needs.
import { request as httpRequest } from 'node:http';
import { connect as netConnect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  type Customer,
  customer,
  ENGINES,
  marketKey,
  type TestEnv,
  testEnv,
} from '../helpers/env.js';
import { callTool, connect } from '../mcp/client.js';

/** What a raw socket hears back for `text` (a request Node's parser may refuse). */
function rawExchange(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = netConnect(Number(port), hostname, () => socket.write(text));
    let heard = '';
    socket.on('data', (chunk) => {
      heard += chunk;
    });
    socket.on('end', () => resolve(heard));
    socket.on('error', reject);
  });
}

/** A GET with a chunked body, which light-my-request cannot send. */
function chunkedGet(
  url: string,
  path: string,
  key: string,
): Promise<{ status: number; headers: object; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, {
      method: 'GET',
      headers: { authorization: `Bearer ${key}`, 'transfer-encoding': 'chunked' },
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.write('tickers=AAPL');
    req.end();
  });
}

for (const { engine, skip } of ENGINES) {
  describe.skipIf(skip)(`refusals on ${engine}`, () => {
    let env: TestEnv;
    let url: string;
    let user: Customer;
    let market: string;
    beforeAll(async () => {
      env = await testEnv({ engine });
      url = await env.app.listen({ port: 0, host: '127.0.0.1' });
      user = await customer(env.deps);
      market = await marketKey(env.deps);
    });
    afterAll(() => env.close());

    const charged = async () =>
      (await env.app.inject({ url: '/v1/datasets/account', headers: bearer(user.key) })).json().credits
        .charged;

    // [method, path, body, the key's API, what the message names]
    const CONTROL: [string, string, object | undefined, 'datasets' | 'market' | 'public', string][] = [
      ['GET', '/v1/search?q=a%00b', undefined, 'market', 'parameter "q" holds a control character (U+0000)'],
      ['POST', '/v1/search', { q: 'a\u0000b' }, 'market', 'body "q" holds a control character (U+0000)'],
      [
        'GET',
        '/v1/quotes?tickers=AAPL%1F',
        undefined,
        'market',
        'parameter "tickers" holds a control character (U+001F)',
      ],
      [
        'POST',
        '/v1/data',
        { tickers: ['AAPL', 'MS\u007fFT'], fields: ['PX_LAST'] },
        'market',
        'body "tickers" holds a control character (U+007F)',
      ],
      [
        'GET',
        '/v1/history?tickers=AAPL&fields=PX_LAST%0A',
        undefined,
        'market',
        'parameter "fields" holds a control character (U+000A)',
      ],
      [
        'GET',
        '/v1/kpis/AA%01PL',
        undefined,
        'datasets',
        'path parameter "symbol" holds a control character (U+0001)',
      ],
      [
        'GET',
        '/v1/awards?query=road%00s',
        undefined,
        'datasets',
        'parameter "query" holds a control character (U+0000)',
      ],
      [
        'GET',
        '/v1/cftc/cot?report=legacy%0D',
        undefined,
        'datasets',
        'parameter "report" holds a control character (U+000D)',
      ],
      [
        'GET',
        '/v1/fields?query=pri%C2%85ce',
        undefined,
        'public',
        'parameter "query" holds a control character (U+0085)',
      ],
      [
        'GET',
        '/v1/datasets/cost?endpoint=kpis.company&symbol=A%00',
        undefined,
        'public',
        'parameter "symbol" holds a control character (U+0000)',
      ],
    ];
    for (const [method, path, body, api, named] of CONTROL) {
      it(`${method} ${path}: 400 invalid_params, ${named}, nothing charged`, async () => {
        const key = api === 'datasets' ? user.key : api === 'market' ? market : null;
        const before = await charged();
        const res = await env.app.inject({
          method: method as 'GET',
          url: path,
          headers: key ? bearer(key) : {},
          ...(body ? { payload: body } : {}),
        });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({
          error: 'invalid_params',
          message: `${named}; send plain text`,
          requestId: res.headers['x-request-id'],
        });
        if (api === 'market') expect(res.headers['x-service-units']).toBe('0');
        if (api === 'datasets') expect(res.headers['x-credits-cost']).toBe('0');
        expect(await charged()).toBe(before);
      });
    }

    // A body nested 10,000 deep, in a list or in an object: a 400 naming the limit, never a 500.
    const deepList = (depth: number) => `${'['.repeat(depth)}"AAPL"${']'.repeat(depth)}`;
    const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const DEEP: [string, string][] = [
      ['/v1/quotes', `{"tickers":${deepList(10_000)}}`],
      ['/v1/search', `{"q":${deepList(10_000)}}`],
      ['/v1/history', `{"tickers":${deepList(10_000)},"fields":["PX_LAST"]}`],
      ['/v1/data', deepObject(10_000)],
    ];
    for (const [path, payload] of DEEP) {
      it(`POST ${path} with a body nested 10,000 deep: 400 invalid_params naming the limit, no unit taken`, async () => {
        const res = await env.app.inject({
          method: 'POST',
          url: path,
          headers: { ...bearer(market), 'content-type': 'application/json' },
          payload,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({
          error: 'invalid_params',
          message: 'body is nested deeper than 32 levels',
          requestId: res.headers['x-request-id'],
        });
        expect(res.headers['x-service-units']).toBe('0');
      });
    }

    it('a body nested 32 deep is read as any other (the schema decides it)', async () => {
      const res = await env.app.inject({
        method: 'POST',
        url: '/v1/quotes',
        headers: { ...bearer(market), 'content-type': 'application/json' },
        payload: `{"tickers":${deepList(31)}}`,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).not.toMatch(/nested/);
    });

    it('tool arguments nested 10,000 deep are a tool error naming the limit, and take no unit', async () => {
      // Sent as a raw JSON-RPC call: the SDK's own client cannot serialise so deep a value.
      const key = await marketKey(env.deps);
      const res = await fetch(`${url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"market.quotes","arguments":{"tickers":${deepList(10_000)}}}}`,
      });
      expect(res.status).toBe(200);
      const text = await res.text();
      const message = JSON.parse(text.startsWith('{') ? text : (/^data: (.+)$/m.exec(text)?.[1] as string));
      expect(message.result).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: 'invalid_params: argument is nested deeper than 32 levels' }],
      });
      // All 120 units of the minute are still there: three calls of 40 units each are answered.
      const history = `/v1/history?tickers=${Array.from({ length: 10 }, (_, i) => `Z${i}`).join(',')}&fields=PX_LAST&start=2000-01-01&end=2025-01-01`;
      for (let i = 0; i < 3; i += 1) {
        const answer = await env.app.inject({ url: history, headers: bearer(key) });
        expect([answer.statusCode, answer.headers['x-service-units']]).toEqual([200, '40']);
      }
    });

    it('a tool argument with a control character is a tool error naming it, and takes no unit', async () => {
      const key = await marketKey(env.deps);
      const client = await connect(url, key);
      try {
        const result = await callTool(client, 'market.search', { q: 'a\u0000b' });
        expect(result.isError).toBe(true);
        expect(result.content[0]).toMatchObject({
          text: 'invalid_params: argument "q" holds a control character (U+0000); send plain text',
        });
      } finally {
        await client.close();
      }
      // All 120 units of the minute are still there: one call of 120 tickers' worth would be refused otherwise.
      const history = `/v1/history?tickers=${Array.from({ length: 10 }, (_, i) => `Z${i}`).join(',')}&fields=PX_LAST&start=2000-01-01&end=2025-01-01`;
      for (let i = 0; i < 3; i += 1) {
        const res = await env.app.inject({ url: history, headers: bearer(key) });
        expect([res.statusCode, res.headers['x-service-units']]).toEqual([200, '40']);
      }
    });

    // A cursor is read only once the call runs, after its charge: a forged one is given back, as every refusal.
    for (const path of [
      '/v1/awards?cursor=AAAA',
      '/v1/awards?cursor=eyJsIjoieCIsInAiOnt9fQ.AAAAAAAAAAAAAAAAAAAAAA',
      '/v1/datasets/cot/changes?since=AAAA',
    ]) {
      it(`GET ${path}: 400 invalid_params, and the call costs nothing`, async () => {
        const account = async () =>
          (await env.app.inject({ url: '/v1/datasets/account', headers: bearer(user.key) })).json().credits;
        const before = await account();
        const res = await env.app.inject({ url: path, headers: bearer(user.key) });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({
          error: 'invalid_params',
          message: expect.stringMatching(/cursor/),
        });
        expect(res.headers['x-credits-cost']).toBe('0');
        const after = await account();
        // Taken and given back in the ledger: the balance is where it was.
        expect(after.balance).toBe(before.balance);
        expect(after.charged - before.charged).toBe(after.refunded - before.refunded);
      });
    }

    it('a GET with a body, by Content-Length or chunked, is refused before it is charged', async () => {
      const before = await charged();
      const sized = await env.app.inject({
        method: 'GET',
        url: '/v1/macro/cpi',
        headers: { ...bearer(user.key), 'content-type': 'text/plain' },
        payload: 'period=2025-08',
      });
      expect(sized.statusCode).toBe(400);
      expect(sized.json()).toMatchObject({
        error: 'invalid_params',
        message: 'A GET takes no body: send its parameters in the query.',
      });
      expect(sized.headers).toMatchObject({ 'x-credits-cost': '0', 'x-plan': 'desk' });
      const chunked = await chunkedGet(url, '/v1/macro/cpi', user.key);
      expect(chunked.status).toBe(400);
      expect(JSON.parse(chunked.body)).toMatchObject({ error: 'invalid_params' });
      expect(await charged()).toBe(before);
      const quotes = await chunkedGet(url, '/v1/quotes?tickers=AAPL', market);
      expect([quotes.status, (quotes.headers as Record<string, string>)['x-service-units']]).toEqual([
        400,
        '0',
      ]);
    });

    it('a path parameter past 1,100 characters: the house error, short, with the door’s headers', async () => {
      const long = 'a'.repeat(1101);
      const datasets = await env.app.inject({ url: `/v1/kpis/${long}`, headers: bearer(user.key) });
      expect(datasets.statusCode).toBe(400);
      expect(datasets.json()).toEqual({
        error: 'invalid_params',
        message: 'A path parameter is longer than 1,100 characters.',
        requestId: datasets.headers['x-request-id'],
      });
      expect(datasets.headers).toMatchObject({
        'x-credits-cost': '0',
        'x-credits-remaining': '1000000',
        'x-plan': 'desk',
        'cache-control': 'private',
      });
      const unknown = await env.app.inject({ url: `/v1/kpis/${long}`, headers: bearer('gds_nosuchkey') });
      expect([unknown.statusCode, unknown.json().error, unknown.headers['x-credits-cost']]).toEqual([
        401,
        'invalid_key',
        '0',
      ]);
      const nowhere = await env.app.inject({ url: `/v1/nowhere/${long}`, headers: bearer(user.key) });
      expect(nowhere.statusCode).toBe(404);
      expect(nowhere.json().message.length).toBeLessThan(160);
    });

    it('what Node’s parser refuses carries the metering headers that say nothing was taken', async () => {
      const malformed = await rawExchange(
        url,
        'GET /v1/macro/cpi HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
      );
      expect(malformed).toMatch(/^HTTP\/1\.1 400 /);
      expect(malformed).toMatch(/\r\nX-Credits-Cost: 0\r\n/);
      expect(malformed).toMatch(/\r\nX-Service-Units: 0\r\n/);
      expect(malformed).toMatch(/"error":"malformed_request"/);
      const large = await rawExchange(
        url,
        `GET /v1/macro/cpi HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      );
      expect(large).toMatch(/^HTTP\/1\.1 431 /);
      expect(large).toMatch(/\r\nX-Credits-Cost: 0\r\n/);
      expect(large).toMatch(/"error":"headers_too_large"/);
    });

    it('POST /mcp without Accept naming JSON and event streams: 406 with the transport’s JSON-RPC error', async () => {
      const res = await fetch(`${url}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${market}`, 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(res.status).toBe(406);
      expect(await res.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
    });
  });
}
