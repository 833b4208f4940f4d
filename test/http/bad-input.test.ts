// Bad input gets a clear error with a code: never a 500, a stack trace or a hang.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, type Customer, customer, marketKey, type TestEnv, testEnv } from '../helpers/env.js';

describe('bad input', () => {
  let env: TestEnv;
  let user: Customer;
  beforeAll(async () => {
    env = await testEnv();
    user = await customer(env.deps);
  });
  afterAll(() => env.close());

  const cases: [string, string, number, string][] = [
    ['GET', '/v1/kpis/%E0%A4%A', 400, 'invalid_params'],
    ['GET', `/v1/awards?cursor=${'x'.repeat(1025)}`, 400, 'invalid_params'],
    ['GET', `/v1/awards?query=${'q'.repeat(201)}`, 400, 'invalid_params'],
    ['GET', '/v1/awards?query=%20%20%20', 400, 'invalid_params'],
    ['GET', '/v1/awards?minAmount=1e10', 400, 'invalid_params'],
    ['GET', '/v1/awards?fiscalYear=2024.5', 400, 'invalid_params'],
    ['GET', '/v1/awards?from=2024-02-30', 400, 'invalid_params'],
    ['GET', '/v1/awards?limit=ten', 400, 'invalid_params'],
    ['GET', '/v1/awards?limit[]=1', 400, 'invalid_params'],
    ['GET', `/v1/kpis/${'A'.repeat(33)}`, 400, 'invalid_params'],
    ['GET', '/v1/kpis/AA$PL', 400, 'invalid_params'],
    ['GET', '/v1/exec-pay/AAPL/19999', 400, 'invalid_params'],
    ['GET', '/v1/cftc/cot/contracts/06765', 400, 'invalid_params'],
    // Whole numbers in plain decimal digits only: coercion would read each of these as a number.
    ['GET', '/v1/awards?limit=0x10', 400, 'invalid_params'],
    ['GET', '/v1/awards?limit=1e1', 400, 'invalid_params'],
    ['GET', '/v1/awards?limit=%205', 400, 'invalid_params'],
    ['GET', '/v1/awards?limit=5.', 400, 'invalid_params'],
    ['GET', '/v1/awards?limit=05', 400, 'invalid_params'],
    ['GET', '/v1/awards?fiscalYear=2.024e3', 400, 'invalid_params'],
    ['GET', '/v1/exec-pay/AAPL/2023.0', 400, 'invalid_params'],
    ['GET', '/v1/datasets/cost?endpoint=awards.list&limit=0x10', 400, 'invalid_params'],
    ['GET', `/v1/awards/${'A'.repeat(40)}`, 400, 'invalid_params'],
    // A path served under another method: 405 with Allow; a path nobody serves: 404.
    ['POST', '/v1/awards', 405, 'method_not_allowed'],
    ['DELETE', '/v1/datasets/account', 405, 'method_not_allowed'],
    ['HEAD', '/v1/awards', 405, 'method_not_allowed'],
    ['DELETE', '/v1/no-such-route', 404, 'not_found'],
  ];
  for (const [method, url, status, code] of cases) {
    it(`${method} ${url.slice(0, 60)} → ${status} ${code}`, async () => {
      const res = await env.app.inject({ method: method as 'GET', url, headers: bearer(user.key) });
      expect(res.statusCode).toBe(status);
      if (status === 405) expect(res.headers.allow).toBe('GET');
      if (method !== 'HEAD') {
        expect(res.json()).toMatchObject({ error: code, requestId: res.headers['x-request-id'] });
        expect(res.json().message.length).toBeGreaterThan(5);
        expect(res.body).not.toMatch(/\n\s+at /);
      }
    });
  }

  it('a JSON body is read as sent: numbers and booleans where strings belong are refused', async () => {
    const market = await env.app.inject({
      method: 'POST',
      url: '/v1/quotes',
      headers: bearer(user.key),
      payload: { tickers: [1, true] },
    });
    // A gds_ key is refused before the body is read; the body check itself is in the next request.
    expect(market.json().error).toBe('wrong_key');
    const key = await marketKey(env.deps);
    const res = await env.app.inject({
      method: 'POST',
      url: '/v1/quotes',
      headers: bearer(key),
      payload: { tickers: [1, true] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_params' });
    expect(res.json().message).toMatch(/tickers/);
    // Plain digits pass (another account: the test after this one checks that nothing here was charged).
    const other = await customer(env.deps);
    const fine = await env.app.inject({ url: '/v1/awards?limit=25', headers: bearer(other.key) });
    expect(fine.statusCode).toBe(200);
  });

  it('none of them cost anything', async () => {
    const res = await env.app.inject({
      method: 'GET',
      url: '/v1/datasets/account',
      headers: bearer(user.key),
    });
    expect(res.json().credits.charged).toBe(0);
  });

  it('the message names the offending parameter', async () => {
    const res = await env.app.inject({
      method: 'GET',
      url: '/v1/awards?limit=500',
      headers: bearer(user.key),
    });
    expect(res.json().message).toMatch(/"limit"/);
    const unknown = await env.app.inject({
      method: 'GET',
      url: '/v1/macro/cpi?x=1',
      headers: bearer(user.key),
    });
    expect(unknown.json().message).toBe('unknown parameter "x"');
  });
});

describe('a path the router cannot read is judged after the key', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await testEnv();
  });
  afterAll(() => env.close());

  it('a bad key learns of its key first; a good key of the path', async () => {
    const user = await customer(env.deps);
    const market = await marketKey(env.deps);
    for (const [url, headers, status, code] of [
      ['/v1/kpis/%E0%A4%A', {}, 401, 'missing_key'],
      ['/v1/kpis/%E0%A4%A', bearer(market), 401, 'wrong_key'],
      ['/v1/kpis/%E0%A4%A', bearer('gds_notakeynotakeynotakeynotakey'), 401, 'invalid_key'],
      ['/v1/kpis/%E0%A4%A', bearer(user.key), 400, 'invalid_params'],
      ['/v1/history/%E0%A4%A', bearer(user.key), 401, 'wrong_key'],
      ['/v1/datasets/%E0%A4%A/sample', {}, 400, 'invalid_params'],
      // A change feed is keyed: the key is judged first.
      ['/v1/datasets/%E0%A4%A/changes', {}, 401, 'missing_key'],
    ] as const) {
      const res = await env.app.inject({ url, headers });
      expect([url, res.statusCode, res.json().error]).toEqual([url, status, code]);
    }
  });
});
