// GET /metrics: what the service counts about itself, in the Prometheus text format, and who may read it.
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../src/ingest/run.js';
import { LOADERS } from '../../src/runtime/loaders.js';
import { bearer, customer, marketKey, type TestEnv, testEnv } from '../helpers/env.js';

/** The value of one sample line of the exposition, or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const inside = line.slice(line.indexOf('{') + 1, line.lastIndexOf('}')).split(',');
    if (wanted.every((pair) => inside.includes(pair)) && inside.length === wanted.length) {
      return Number(line.slice(line.lastIndexOf(' ') + 1));
    }
  }
  return undefined;
}

describe('metrics on a loopback server without a token', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await testEnv();
    const prices = LOADERS.prices as NonNullable<typeof LOADERS.prices>;
    await loadFile(env.deps, prices, path.resolve('test/fixtures/market/AAPL.csv'), {
      ticker: 'AAPL',
    });
  });
  afterAll(() => env.close());
  const scrape = async () => {
    const res = await env.app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.body;
  };

  it('counts requests by API, route, method and status, credits by dataset and market units by door', async () => {
    const user = await customer(env.deps);
    for (let i = 0; i < 3; i += 1) {
      expect((await env.app.inject({ url: '/v1/macro/cpi', headers: bearer(user.key) })).statusCode).toBe(
        200,
      );
    }
    await env.app.inject({ url: '/v1/macro/cpi' });
    const key = await marketKey(env.deps);
    const tickers = Array.from({ length: 40 }, (_, i) => `T${i}`).join(',');
    expect(
      (await env.app.inject({ url: `/v1/quotes?tickers=${tickers}`, headers: bearer(key) })).statusCode,
    ).toBe(200);
    const text = await scrape();
    const requests = (status: string) =>
      sample(text, 'quarry_http_requests_total', {
        api: 'datasets',
        route: '/v1/macro/cpi',
        method: 'GET',
        status,
      });
    expect(requests('200')).toBe(3);
    expect(requests('401')).toBe(1);
    expect(sample(text, 'quarry_credits_total', { kind: 'charged', dataset: 'cpi' })).toBe(3);
    // 40 tickers: 1 unit per 20.
    expect(sample(text, 'quarry_market_units_total', { door: 'market' })).toBe(2);
    expect(
      sample(text, 'quarry_http_request_duration_seconds_count', { api: 'datasets', route: '/v1/macro/cpi' }),
    ).toBe(4);
    expect(sample(text, 'quarry_source_files', { dataset: 'market' })).toBe(1);
    expect(text).toMatch(/^quarry_nodejs_eventloop_lag_seconds \d/m);
  });

  it('the event loop: a histogram of its delay and the longest block since the process started', async () => {
    const value = (text: string, name: string) =>
      Number(
        text
          .split('\n')
          .find((line) => line.startsWith(`${name} `))
          ?.split(' ')[1],
      );
    const before = await scrape();
    // Hold the loop for 150 ms, then let the monitor's next sample see it.
    const started = performance.now();
    while (performance.now() - started < 150) {}
    await new Promise((resolve) => setTimeout(resolve, 30));
    const text = await scrape();
    expect(value(text, 'quarry_event_loop_longest_block_seconds')).toBeGreaterThanOrEqual(0.13);
    expect(text).toContain('# TYPE quarry_event_loop_delay_seconds histogram');
    const samples = value(text, 'quarry_event_loop_delay_seconds_count');
    expect(samples).toBeGreaterThan(value(before, 'quarry_event_loop_delay_seconds_count'));
    // Cumulative buckets: the block is above 0.1 s, so at least one sample lies past that bucket.
    const bucket = (le: string) => sample(text, 'quarry_event_loop_delay_seconds_bucket', { le });
    expect(bucket('+Inf')).toBe(samples);
    expect(bucket('0.1')).toBeLessThan(samples);
    expect(bucket('0.05')).toBeLessThanOrEqual(bucket('0.1') ?? Number.NaN);
  });

  it('credits refunded after a failure on our side', async () => {
    const broken = await testEnv();
    try {
      const user = await customer(broken.deps);
      await sql`DROP TABLE cpi_index`.execute(broken.deps.store.db);
      const failed = await broken.app.inject({ url: '/v1/macro/cpi', headers: bearer(user.key) });
      expect(failed.statusCode).toBe(500);
      const text = (await broken.app.inject({ url: '/metrics' })).body;
      expect(sample(text, 'quarry_credits_total', { kind: 'charged', dataset: 'cpi' })).toBe(1);
      expect(sample(text, 'quarry_credits_total', { kind: 'refunded', dataset: 'cpi' })).toBe(1);
    } finally {
      await broken.close();
    }
  });
});

describe('who may read /metrics', () => {
  it('with QUARRY_METRICS_TOKEN: only with that token', async () => {
    const env = await testEnv({ env: { QUARRY_METRICS_TOKEN: 'scrape-me-please' } });
    try {
      const none = await env.app.inject({ url: '/metrics' });
      expect([none.statusCode, none.json().error]).toEqual([401, 'missing_key']);
      expect(none.headers['www-authenticate']).toMatch(/^Bearer /);
      const wrong = await env.app.inject({ url: '/metrics', headers: bearer('scrape-me-pleasf') });
      expect([wrong.statusCode, wrong.json().error]).toEqual([401, 'invalid_key']);
      const right = await env.app.inject({ url: '/metrics', headers: bearer('scrape-me-please') });
      expect(right.statusCode).toBe(200);
    } finally {
      await env.close();
    }
  });

  it('without a token on a host that is not loopback: hidden', async () => {
    const env = await testEnv({ env: { HOST: '0.0.0.0' } });
    try {
      const res = await env.app.inject({ url: '/metrics' });
      expect([res.statusCode, res.json().error]).toEqual([404, 'not_found']);
    } finally {
      await env.close();
    }
  });
});
