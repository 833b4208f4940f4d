// Board responses are computed once per data version; a load made by another process shows within ~1 s.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cotImporter } from '../../src/datasets/cot/import.js';
import { importFile } from '../../src/ingest/import.js';
import type { Deps } from '../../src/kernel/deps.js';
import { loadConfig } from '../../src/runtime/config.js';
import { createDeps } from '../../src/runtime/deps.js';
import { bearer, type Customer, customer, type TestEnv, testEnv } from '../helpers/env.js';

describe('read cache', () => {
  let env: TestEnv;
  let other: Deps;
  let user: Customer;
  beforeAll(async () => {
    env = await testEnv();
    user = await customer(env.deps);
    // A second connection to the same store, as the CLI would open.
    other = await createDeps(loadConfig({ QUARRY_DATA_DIR: env.dataDir, LOG_LEVEL: 'silent' }));
  });
  afterAll(async () => {
    await other.close();
    await env.close();
  });
  const board = async () =>
    (await env.app.inject({ method: 'GET', url: '/v1/cftc/cot', headers: bearer(user.key) })).json().data;

  it('serves the same computation until the data changes, then the new data within 2 seconds', async () => {
    const empty = await board();
    expect(empty.rows).toEqual([]);
    expect((await board()).generatedAt).toBe(empty.generatedAt);

    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      await importFile(other, cotImporter, path.resolve('test/fixtures/cot-legacy-2025-03.ndjson'));
      // The version is read again at most a second after the last read: the first call after that has the load.
      vi.setSystemTime(Date.now() + 1001);
      expect((await board()).rows).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
