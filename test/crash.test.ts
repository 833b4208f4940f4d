// Nothing lost: kill -9 of the embedded server under load, restart, and the balance still equals the
// period allowance minus charges plus refunds, as the ledger records them and the account route says.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createAccount, setContract } from '../src/accounts/accounts.js';
import { createKey } from '../src/accounts/keys.js';
import { loadConfig } from '../src/kernel/config.js';
import { createDeps } from '../src/runtime/deps.js';
import { type ServerProcess, startServer } from './helpers/server.js';

describe('kill -9 under load', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quarry-crash-'));
  let server: ServerProcess | null = null;
  afterAll(async () => {
    await server?.stop('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps balance = allowance - charges + refunds, exactly', async () => {
    const env = { QUARRY_DATA_DIR: dataDir, DATA_API_ENABLED: 'true' };
    const deps = await createDeps(loadConfig({ ...env, LOG_LEVEL: 'silent' }));
    const account = await createAccount(deps.store.db, {
      email: 'crash@example.com',
      plan: 'enterprise',
      emailConfirmed: true,
    });
    // A rate far above the load, so every call is charged rather than limited.
    await setContract(deps.store.db, account.id, {
      creditsPerMonth: 1_000_000,
      creditsPerMinute: 10_000_000,
    });
    const key = (await createKey(deps.store.db, { accountId: account.id, api: 'datasets' })).key;
    await deps.close();

    server = await startServer(env);
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

    server = await startServer(env);
    const res = await fetch(`${server.url}/v1/datasets/account`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const view = (await res.json()) as { period: { start: string }; credits: { balance: number } };

    const db = new SQLite(path.join(dataDir, 'quarry.db'), { readonly: true });
    const sums = db
      .prepare(
        `SELECT SUM(CASE WHEN kind = 'charge' THEN -amount ELSE 0 END) AS charged,
                SUM(CASE WHEN kind = 'refund' THEN amount ELSE 0 END) AS refunded,
                SUM(CASE WHEN kind = 'charge' THEN 1 ELSE 0 END) AS charges,
                SUM(amount) AS total
         FROM ledger WHERE account_id = ? AND period_start = ?`,
      )
      .get(account.id, view.period.start) as {
      charged: number;
      refunded: number;
      charges: number;
      total: number;
    };
    db.close();

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
  });
});

describe('clean shutdown', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quarry-stop-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('SIGTERM writes the buffered usage before the process exits', async () => {
    const env = { QUARRY_DATA_DIR: dataDir, DATA_API_ENABLED: 'true' };
    const deps = await createDeps(loadConfig({ ...env, LOG_LEVEL: 'silent' }));
    const account = await createAccount(deps.store.db, {
      email: 'stop@example.com',
      plan: 'basic',
      emailConfirmed: true,
    });
    const key = (await createKey(deps.store.db, { accountId: account.id, api: 'datasets' })).key;
    await deps.close();

    const server = await startServer(env);
    for (const url of ['/v1/awards', '/v1/awards', '/v1/energy/inventories', '/v1/macro/cpi']) {
      const res = await fetch(`${server.url}${url}`, { headers: { 'x-api-key': key } });
      expect(res.status).toBe(200);
    }
    await server.stop('SIGTERM');
    expect(server.child.exitCode).toBe(0);

    const db = new SQLite(path.join(dataDir, 'quarry.db'), { readonly: true });
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
