// Answers over 1 KB are compressed as the caller accepts (brotli, else gzip); a cached dataset answer is
// compressed once; what comes back decompresses to exactly the identity answer.
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cotImporter } from '../../src/datasets/cot/import.js';
import { chooseEncoding } from '../../src/http/compress.js';
import { importFile } from '../../src/ingest/import.js';
import { loadFile } from '../../src/ingest/run.js';
import { LOADERS } from '../../src/runtime/loaders.js';
import { bearer, type Customer, customer, marketKey, type TestEnv, testEnv } from '../helpers/env.js';

describe('compression', () => {
  let env: TestEnv;
  let user: Customer;
  let market: string;
  beforeAll(async () => {
    env = await testEnv();
    await importFile(env.deps, cotImporter, path.resolve('test/fixtures/cot-legacy-2025-03.ndjson'));
    const prices = LOADERS.prices as NonNullable<typeof LOADERS.prices>;
    await loadFile(env.deps, prices, path.resolve('test/fixtures/market/BARC.L.csv'), {
      ticker: 'BARC.L',
    });
    user = await customer(env.deps);
    market = await marketKey(env.deps);
  });
  afterAll(() => env.close());

  const history = (encoding?: string) =>
    env.app.inject({
      method: 'POST',
      url: '/v1/history',
      headers: { ...bearer(market), ...(encoding ? { 'accept-encoding': encoding } : {}) },
      payload: { tickers: ['BARC.L'], fields: ['PX_LAST'], start: '2023-01-01', end: '2023-08-31' },
    });

  it('gzip and brotli as accepted, each decompressing to the identity answer', async () => {
    const plain = await history();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    expect(plain.headers.vary).toBe('accept-encoding');
    const gz = await history('gzip, deflate');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    expect(gz.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    const br = await history('gzip, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect((await history('br;q=0, gzip;q=0')).headers['content-encoding']).toBeUndefined();
  });

  it('a cached dataset answer: compressed once, the same bytes each time, its ETag weak and still honoured', async () => {
    const get = (headers: Record<string, string> = {}) =>
      env.app.inject({
        url: '/v1/cftc/cot',
        headers: { ...bearer(user.key), 'accept-encoding': 'gzip', ...headers },
      });
    const [first, second] = [await get(), await get()];
    expect(first.headers['content-encoding']).toBe('gzip');
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
    const again = await get({ 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.headers['x-credits-cost']).toBe('1');
    const identity = await env.app.inject({ url: '/v1/cftc/cot', headers: bearer(user.key) });
    expect(JSON.parse(gunzipSync(first.rawPayload).toString())).toEqual(identity.json());
  });

  it('small answers are sent as they are', async () => {
    const res = await env.app.inject({ url: '/healthz', headers: { 'accept-encoding': 'gzip, br' } });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('reads Accept-Encoding: br first, q=0 refuses, * means gzip', () => {
    expect(chooseEncoding('gzip, deflate, br')).toBe('br');
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('identity')).toBeNull();
    expect(chooseEncoding('*')).toBe('gzip');
    expect(chooseEncoding(undefined)).toBeNull();
  });
});
