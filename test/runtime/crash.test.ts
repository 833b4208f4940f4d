// Nothing lost: kill -9 of a server under load (embedded, or over PostgreSQL and Redis), restart, and the
// balance still equals the period allowance minus charges plus refunds, as the ledger records them and the
// account route says.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createAccount, setContract } from '../../src/accounts/accounts.js';
import { createKey } from '../../src/accounts/keys.js';
import { loadConfig } from '../../src/runtime/config.js';
import { createDeps } from '../../src/runtime/deps.js';
import { freshPostgres, pgUrl, redisUrl } from '../helpers/env.js';
import { type ServerProcess, startServer } from '../helpers/server.js';

interface LedgerSums {
  charged: number;
  refunded: number;
  charges: number;
  total: number;
}

const SUMS = `SELECT SUM(CASE WHEN kind = 'charge' THEN -amount ELSE 0 END) AS charged,
                SUM(CASE WHEN kind = 'refund' THEN amount ELSE 0 END) AS refunded,
                SUM(CASE WHEN kind = 'charge' THEN 1 ELSE 0 END) AS charges,
                SUM(amount) AS total
         FROM ledger WHERE account_id = $1 AND period_start = $2`;

const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop('SIGKILL');
});

/**
 * Kills a loaded server with SIGKILL once 100 calls have been answered, starts it again, and checks that the
 * balance equals the allowance less the ledger's charges plus its refunds, as the account route says.
 */
async function killUnderLoad(
  env: Record<string, string>,
  ledgerSums: (account: string, period: string) => Promise<LedgerSums>,
) {
  let server: ServerProcess;
  const deps = await createDeps(loadConfig({ ...env, LOG_LEVEL: 'silent' }));
  const account = await createAccount(deps, {
    email: 'crash@example.com',
    plan: 'enterprise',
    emailConfirmed: true,
  });
  // A rate far above the load, so every call is charged rather than limited.
  await setContract(deps, {
    accountId: account.id,
    change: {
      creditsPerMonth: 1_000_000,
      creditsPerMinute: 10_000_000,
    },
  });
  const key = (await createKey(deps, { accountId: account.id, api: 'datasets' })).key;
  await deps.close();

  servers.push(await startServer(env));
  server = servers.at(-1) as ServerProcess;
  const target = server.url;
  let ok = 0;
  let stop = false;
  const worker = async () => {
    while (!stop) {
      try {
        const res = await fetch(`${target}/v1/awards?limit=5`, {
          headers: { 'x-api-key': key },
        });
        await res.arrayBuffer();
        if (res.status === 200) ok += 1;
      } catch {
        return; // the server is gone
      }
    }
  };
  const workers = Array.from({ length: 16 }, worker);
  // Killed under load, once 100 calls have been answered, however long a busy machine takes to get there.
  await expect.poll(() => ok, { timeout: 20_000, interval: 10 }).toBeGreaterThanOrEqual(100);
  await server.stop('SIGKILL');
  stop = true;
  await Promise.all(workers);
  expect(ok).toBeGreaterThanOrEqual(100);

  servers.push(await startServer(env));
  server = servers.at(-1) as ServerProcess;
  const res = await fetch(`${server.url}/v1/datasets/account`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const view = (await res.json()) as { period: { start: string }; credits: { balance: number } };

  const sums = await ledgerSums(account.id, view.period.start);

  // Every answered call was charged (4 credits each); calls in flight at the kill may be charged unanswered.
  expect(sums.charges).toBeGreaterThanOrEqual(ok);
  expect(sums.charged).toBe(sums.charges * 4);
  expect(view.credits).toEqual({
    allowance: 1_000_000,
    charged: sums.charged,
    refunded: sums.refunded,
    adjusted: 0,
    balance: 1_000_000 - sums.charged + sums.refunded,
  });
  expect(sums.total).toBe(view.credits.balance);
  expect(res.headers.get('x-credits-remaining')).toBe(String(view.credits.balance));
}

describe('kill -9 under load', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quarry-crash-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('embedded: keeps balance = allowance - charges + refunds, exactly', async () => {
    await killUnderLoad({ QUARRY_DATA_DIR: dataDir, DATA_API_ENABLED: 'true' }, async (account, period) => {
      const db = new SQLite(path.join(dataDir, 'accounts.db'), { readonly: true });
      try {
        return db.prepare(SUMS.replace('$1', '?').replace('$2', '?')).get(account, period) as LedgerSums;
      } finally {
        db.close();
      }
    });
  });

  it.skipIf(pgUrl() === null || redisUrl() === null)(
    'PostgreSQL and Redis: keeps balance = allowance - charges + refunds, exactly',
    async () => {
      const postgres = await freshPostgres();
      const client = new pg.Client({ connectionString: postgres.url });
      try {
        const env = {
          QUARRY_DATA_DIR: dataDir,
          DATA_API_ENABLED: 'true',
          DATABASE_URL: postgres.url,
          REDIS_URL: redisUrl() as string,
        };
        await killUnderLoad(env, async (account, period) => {
          await client.connect();
          const result = await client.query(SUMS, [account, period]);
          const row = result.rows[0] as Record<string, string>;
          return {
            charged: Number(row.charged),
            refunded: Number(row.refunded),
            charges: Number(row.charges),
            total: Number(row.total),
          };
        });
      } finally {
        await client.end().catch(() => {});
        for (const s of servers.splice(0)) await s.stop('SIGKILL');
        await postgres.drop();
      }
    },
  );
});

describe('clean shutdown', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quarry-stop-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('SIGTERM writes the buffered usage before the process exits', async () => {
    const env = { QUARRY_DATA_DIR: dataDir, DATA_API_ENABLED: 'true' };
    const deps = await createDeps(loadConfig({ ...env, LOG_LEVEL: 'silent' }));
    const account = await createAccount(deps, {
      email: 'stop@example.com',
      plan: 'basic',
      emailConfirmed: true,
    });
    const key = (await createKey(deps, { accountId: account.id, api: 'datasets' })).key;
    await deps.close();

    const server = await startServer(env);
    for (const url of ['/v1/awards', '/v1/awards', '/v1/energy/inventories', '/v1/macro/cpi']) {
      const res = await fetch(`${server.url}${url}`, { headers: { 'x-api-key': key } });
      expect(res.status).toBe(200);
    }
    await server.stop('SIGTERM');
    expect(server.child.exitCode).toBe(0);

    const db = new SQLite(path.join(dataDir, 'accounts.db'), { readonly: true });
    const rows = db
      .prepare('SELECT dataset, call_type, calls, credits FROM usage WHERE account_id = ? ORDER BY dataset')
      .all(account.id);
    db.close();
    expect(rows).toEqual([
      { dataset: 'awards', call_type: 'search', calls: 2, credits: 8 },
      { dataset: 'cpi', call_type: 'lookup', calls: 1, credits: 1 },
      { dataset: 'energy-inventories', call_type: 'lookup', calls: 1, credits: 1 },
    ]);
  });
});
