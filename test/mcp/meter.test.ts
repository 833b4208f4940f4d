// One meter for REST and MCP: a key's 120 units a minute are shared by both doors (on one process, and across
// two processes over PostgreSQL and Redis); a gds_ key's dataset tools are charged exactly as the routes.
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, getAccount, setContract, setPlan } from '../../src/accounts/accounts.js';
import { createKey } from '../../src/accounts/keys.js';
import { cotImporter } from '../../src/datasets/cot/import.js';
import { importFile } from '../../src/ingest/import.js';
import { loadConfig } from '../../src/runtime/config.js';
import { createDeps } from '../../src/runtime/deps.js';
import {
  bearer,
  customer,
  freshPostgres,
  marketKey,
  pgUrl,
  redisUrl,
  type TestEnv,
  testEnv,
} from '../helpers/env.js';
import { faketimeLib, frozenAt, type ServerProcess, startServer } from '../helpers/server.js';
import { callTool, connect, textOf } from './client.js';

const COT = path.resolve('test/fixtures/cot-legacy-2025-03.ndjson');

/** Counters live in calendar minutes: every clock here stands five seconds into one, 55 seconds from its end. */
const FIVE_PAST = new Date('2026-11-18T10:00:05.000Z');

/** 100 units through REST: ten /v1/data calls of 50 tickers with a computed field (1 unit per 5 tickers). */
async function spendHundredUnits(post: (body: object) => Promise<{ status: number; units: string | null }>) {
  const tickers = Array.from({ length: 50 }, (_, i) => `T${i}`);
  for (let i = 0; i < 10; i += 1) {
    const { status, units } = await post({ tickers, fields: ['VOLATILITY_30D'] });
    expect(status).toBe(200);
    expect(units).toBe('10');
  }
}

/** Tool calls until one is refused; returns how many were answered and the refusal. */
async function callUntilRefused(client: Client) {
  let answered = 0;
  for (;;) {
    const result = await callTool(client, 'market.fields', { query: 'price' });
    if (result.isError) return { answered, refusal: result };
    answered += 1;
    expect(answered).toBeLessThan(200);
  }
}

describe('market units shared by REST and MCP on one process', () => {
  let env: TestEnv;
  let url: string;
  beforeAll(async () => {
    env = await testEnv({ clock: () => FIVE_PAST });
    url = await env.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => env.close());

  it('100 units through REST leave exactly 20 tool calls; then both doors answer 429 / rate_limited', async () => {
    const key = await marketKey(env.deps);
    await spendHundredUnits(async (body) => {
      const res = await env.app.inject({
        method: 'POST',
        url: '/v1/data',
        headers: bearer(key),
        payload: body,
      });
      return { status: res.statusCode, units: res.headers['x-service-units'] as string };
    });
    const client = await connect(url, key);
    try {
      const { answered, refusal } = await callUntilRefused(client);
      expect(answered).toBe(20);
      expect(textOf(refusal)).toMatch(
        /^rate_limited: This call takes 1 units and 120 of the key's 120 units/,
      );
      expect((refusal._meta as { error: { retryAfterSeconds: number } }).error.retryAfterSeconds).toBe(55);
      expect(textOf(refusal)).toContain('Retry in 55 seconds.');
    } finally {
      await client.close();
    }
    const rest = await env.app.inject({ url: '/v1/quotes?tickers=AAPL', headers: bearer(key) });
    expect(rest.statusCode).toBe(429);
  });
});

describe.skipIf(pgUrl() === null || redisUrl() === null || faketimeLib() === null)(
  'market units across two processes on Redis',
  () => {
    const servers: ServerProcess[] = [];
    let cleanup: () => Promise<void> = async () => {};
    afterAll(async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await cleanup();
    });

    it('100 units through REST on one process leave exactly 20 tool calls on the other', async () => {
      const postgres = await freshPostgres();
      const env = { DATABASE_URL: postgres.url, REDIS_URL: redisUrl() as string };
      const deps = await createDeps(loadConfig({ ...env, LOG_LEVEL: 'silent' }), { clock: () => FIVE_PAST });
      cleanup = async () => {
        await deps.close();
        await postgres.drop();
      };
      const key = await marketKey(deps);
      // Both processes stand at the same instant, so the minute cannot turn between their calls.
      const still = { ...env, ...frozenAt(FIVE_PAST) };
      servers.push(await startServer(still), await startServer(still));
      const [rest, mcp] = servers as [ServerProcess, ServerProcess];
      await spendHundredUnits(async (body) => {
        const res = await fetch(`${rest.url}/v1/data`, {
          method: 'POST',
          headers: { ...bearer(key), 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        await res.arrayBuffer();
        return { status: res.status, units: res.headers.get('x-service-units') };
      });
      const client = await connect(mcp.url, key);
      try {
        const { answered, refusal } = await callUntilRefused(client);
        expect(answered).toBe(20);
        expect(textOf(refusal)).toMatch(/^rate_limited: /);
      } finally {
        await client.close();
      }
    });
  },
);

describe('dataset tools charged as the routes', () => {
  let env: TestEnv;
  let url: string;
  beforeAll(async () => {
    env = await testEnv({ clock: () => FIVE_PAST });
    await importFile(env.deps, cotImporter, COT);
    url = await env.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => env.close());

  it('a tool call costs what the REST call costs, in the same ledger, with the credits in _meta', async () => {
    const { key, accountId } = await customer(env.deps);
    const res = await env.app.inject({ url: '/v1/cftc/cot/contracts/067651', headers: bearer(key) });
    expect(res.headers['x-credits-cost']).toBe('2');
    const client = await connect(url, key);
    try {
      const result = await callTool(client, 'datasets.cot_contract', { contractCode: '067651' });
      expect(result.structuredContent).toEqual(res.json());
      expect(result._meta).toMatchObject({
        credits: {
          cost: 2,
          remaining: 1_000_000 - 4,
          plan: 'desk',
          perMinute: { limit: 1200, remaining: 1196 },
        },
      });
    } finally {
      await client.close();
    }
    const account = await getAccount(env.deps.store.db, accountId);
    expect(account).toMatchObject({ charged: 4, balance: 1_000_000 - 4 });
    const ledger = await env.deps.store.db
      .selectFrom('ledger')
      .select(['kind', 'amount', 'operation'])
      .where('account_id', '=', accountId)
      .where('kind', '=', 'charge')
      .execute();
    expect(ledger.map((r) => [r.operation, Number(r.amount)])).toEqual([
      ['cot.contract', -2],
      ['cot.contract', -2],
    ]);
  });

  it("the plan's credits per minute hold across both doors", async () => {
    const { key, accountId } = await customer(env.deps);
    await setPlan(env.deps, { accountId, plan: 'enterprise' });
    await setContract(env.deps, { accountId, change: { creditsPerMonth: 1000, creditsPerMinute: 3 } });
    const res = await env.app.inject({ url: '/v1/cftc/cot/contracts/067651', headers: bearer(key) });
    expect(res.headers['x-credits-cost']).toBe('2');
    const client = await connect(url, key);
    try {
      const refused = await callTool(client, 'datasets.cot_contract', { contractCode: '067651' });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(
        /^rate_limited: This call costs 2 credits and 2 of the 3 credits per minute/,
      );
      const allowed = await callTool(client, 'datasets.cot_board', {});
      expect(allowed.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it('invalid arguments are refused before any charge, as the route refuses them', async () => {
    const { key, accountId } = await customer(env.deps);
    const client = await connect(url, key);
    try {
      const bad = await callTool(client, 'datasets.cot_contract', {
        contractCode: '067651',
        traderClass: 'swap',
      });
      expect(textOf(bad)).toMatch(/^invalid_params: /);
      const route = await env.app.inject({
        url: '/v1/cftc/cot/contracts/067651?traderClass=swap',
        headers: bearer(key),
      });
      expect(route.json().message).toBe(textOf(bad).replace('invalid_params: ', ''));
    } finally {
      await client.close();
    }
    expect((await getAccount(env.deps.store.db, accountId)).charged).toBe(0);
  });

  it('a call that fails on our side is refunded, and says only that it failed', async () => {
    const broken = await testEnv();
    try {
      const brokenUrl = await broken.app.listen({ port: 0, host: '127.0.0.1' });
      const db = broken.deps.store.db;
      const account = await createAccount(broken.deps, {
        email: 'refund-mcp@example.com',
        plan: 'desk',
        emailConfirmed: true,
      });
      const { key } = await createKey(broken.deps, { accountId: account.id, api: 'datasets' });
      await sql`DROP TABLE cot_records`.execute(db);
      const client = await connect(brokenUrl, key);
      try {
        const result = await callTool(client, 'datasets.cot_board', {});
        expect(result.isError).toBe(true);
        expect(textOf(result)).toBe(
          'internal_error: The call failed on our side; any credits or units charged were given back.',
        );
        expect(result._meta).toMatchObject({ credits: { cost: 0, remaining: 1_000_000, refunded: 1 } });
      } finally {
        await client.close();
      }
      expect(await getAccount(db, account.id)).toMatchObject({ charged: 1, refunded: 1, balance: 1_000_000 });
    } finally {
      await broken.close();
    }
  });
});
