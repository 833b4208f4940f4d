// Scale-out: server processes share balances and limits through the store (and Redis). Balance 100,
// a route costing 4, 200 concurrent requests: exactly 25 succeed, on two processes over PostgreSQL and
// Redis as on one embedded process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAccount, getAccount, setBalance } from '../../src/accounts/accounts.js';
import { createKey } from '../../src/accounts/keys.js';
import type { Deps } from '../../src/kernel/deps.js';
import { loadConfig } from '../../src/runtime/config.js';
import { createDeps } from '../../src/runtime/deps.js';
import { freshPostgres, pgUrl, redisUrl } from '../helpers/env.js';
import { type ServerProcess, startServer } from '../helpers/server.js';

async function prepare(deps: Deps): Promise<{ accountId: string; key: string }> {
  const account = await createAccount(deps, {
    email: 'scale@example.com',
    plan: 'desk',
    emailConfirmed: true,
  });
  const key = await createKey(deps, { accountId: account.id, api: 'datasets' });
  await setBalance(deps, { accountId: account.id, balance: 100 });
  return { accountId: account.id, key: key.key };
}

async function burst(urls: string[], key: string, count: number): Promise<number[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const res = await fetch(`${urls[i % urls.length]}/v1/awards?limit=5`, {
        headers: { 'x-api-key': key },
      });
      await res.arrayBuffer();
      return res.status;
    }),
  );
}

async function verify(deps: Deps, accountId: string, statuses: number[]) {
  expect(statuses.filter((s) => s === 200)).toHaveLength(25);
  expect(statuses.filter((s) => s === 402)).toHaveLength(175);
  expect((await getAccount(deps.store.db, accountId)).balance).toBe(0);
  const charges = await deps.store.db
    .selectFrom('ledger')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('kind', '=', 'charge')
    .executeTakeFirstOrThrow();
  expect(Number(charges.n)).toBe(25);
}

describe.skipIf(pgUrl() === null || redisUrl() === null)('two processes over PostgreSQL and Redis', () => {
  const servers: ServerProcess[] = [];
  let cleanup: () => Promise<void> = async () => {};
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await cleanup();
  });

  it('200 concurrent calls of 4 credits against a balance of 100: 25 succeed, 175 get 402', async () => {
    const postgres = await freshPostgres();
    const env = { DATABASE_URL: postgres.url, REDIS_URL: redisUrl() as string, DATA_API_ENABLED: 'true' };
    const deps = await createDeps(loadConfig({ ...env, LOG_LEVEL: 'silent' }));
    cleanup = async () => {
      await deps.close();
      await postgres.drop();
    };
    const { accountId, key } = await prepare(deps);
    servers.push(await startServer(env), await startServer(env));
    const statuses = await burst(
      servers.map((s) => s.url),
      key,
      200,
    );
    await verify(deps, accountId, statuses);
  });
});

describe('one embedded process', () => {
  let server: ServerProcess | null = null;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quarry-scale-'));
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('200 concurrent calls of 4 credits against a balance of 100: 25 succeed, 175 get 402', async () => {
    const env = { QUARRY_DATA_DIR: dataDir, DATA_API_ENABLED: 'true' };
    const deps = await createDeps(loadConfig({ ...env, LOG_LEVEL: 'silent' }));
    try {
      const { accountId, key } = await prepare(deps);
      server = await startServer(env);
      const statuses = await burst([server.url], key, 200);
      await verify(deps, accountId, statuses);
    } finally {
      await deps.close();
    }
  });
});
