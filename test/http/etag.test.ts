// A board's ETag names its data, not the moment it was computed: after the cached board is dropped (as a restart
// drops it) and computed again a minute later, its generatedAt differs and its ETag does not, so a client's
// If-None-Match still answers 304.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forget } from '../../src/ingest/read-cache.js';
import { loadFile } from '../../src/ingest/run.js';
import { LOADERS } from '../../src/runtime/loaders.js';
import { bearer, type Customer, customer, type TestEnv, testEnv } from '../helpers/env.js';
import { asset } from '../helpers/real-data.js';

describe('ETags across a recomputation', () => {
  let env: TestEnv;
  let user: Customer;
  let now = new Date('2026-11-18T10:00:05.000Z');
  beforeAll(async () => {
    env = await testEnv({ clock: () => now });
    user = await customer(env.deps);
    const bls = LOADERS.bls as NonNullable<typeof LOADERS.bls>;
    await loadFile(env.deps, bls, asset('bls/cu.item'), { published: '2025-09-11T12:30:00Z' });
    await loadFile(env.deps, bls, asset('bls/cu.data.1.AllItems'), { published: '2026-04-10T12:30:00Z' });
  });
  afterAll(() => env.close());
  const board = (headers: Record<string, string> = {}) =>
    env.app.inject({ url: '/v1/macro/cpi', headers: { ...bearer(user.key), ...headers } });

  it('the cpi board computed again a minute later: another generatedAt and readAsOf, the same ETag, and a 304', async () => {
    const first = await board();
    forget(env.deps.store.db, 'cpi');
    now = new Date(now.getTime() + 60_000);
    const second = await board();
    expect(second.json().data.generatedAt).not.toBe(first.json().data.generatedAt);
    // Read as of now: another instant, the same data.
    expect(second.json().meta.readAsOf).toBe('2026-11-18T10:01:05.000Z');
    expect(first.json().meta.readAsOf).toBe('2026-11-18T10:00:05.000Z');
    expect(second.headers.etag).toBe(first.headers.etag);
    forget(env.deps.store.db, 'cpi');
    now = new Date(now.getTime() + 60_000);
    expect((await board({ 'if-none-match': first.headers.etag as string })).statusCode).toBe(304);
  });
});
