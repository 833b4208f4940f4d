// Each test file makes its own store: a fresh SQLite file in a temp dir, or a fresh PostgreSQL database.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { createAccount, setPlan } from '../../src/accounts/accounts.js';
import { randomToken } from '../../src/accounts/key-text.js';
import { createKey } from '../../src/accounts/keys.js';
import type { MarketPlan, PlanId } from '../../src/accounts/plans.js';
import { buildApp } from '../../src/http/build.js';
import type { Config } from '../../src/kernel/config.js';
import type { Deps } from '../../src/kernel/deps.js';
import { loadConfig } from '../../src/runtime/config.js';
import { createDeps } from '../../src/runtime/deps.js';
import { NO_AGENCIES } from './agency.js';

export type EngineName = 'sqlite' | 'postgres';

export const pgUrl = () => inject('pgUrl');
export const redisUrl = () => inject('redisUrl');

/** The engines the store suites run on here: SQLite always, PostgreSQL when it is reachable. */
export const ENGINES: { engine: EngineName; skip: boolean }[] = [
  { engine: 'sqlite', skip: false },
  { engine: 'postgres', skip: pgUrl() === null },
];

/** A new, empty PostgreSQL database; returns its URL and a function that drops it. */
export async function freshPostgres(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = pgUrl();
  if (!base) throw new Error('PostgreSQL is not available');
  const name = `quarry_t_${randomToken(10).toLowerCase()}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export interface TestEnv {
  app: FastifyInstance;
  deps: Deps;
  config: Config;
  dataDir: string;
  close(): Promise<void>;
}

export interface TestEnvOptions {
  engine?: EngineName;
  redis?: boolean;
  env?: Record<string, string>;
  /** The clock the verbs read (default: the real one). */
  clock?: () => Date;
  /** Called before the app is ready, to add routes. */
  extend?: (app: FastifyInstance, deps: Deps) => void;
  /** An embedded store to start from: its files are copied into the new data folder (see bundledStore). */
  from?: string;
}

export async function testEnv(options: TestEnvOptions = {}): Promise<TestEnv> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quarry-test-'));
  if (options.from) cpSync(options.from, dataDir, { recursive: true });
  const postgres = options.engine === 'postgres' ? await freshPostgres() : null;
  const env: Record<string, string> = {
    QUARRY_DATA_DIR: dataDir,
    DATA_API_ENABLED: 'true',
    LOG_LEVEL: 'silent',
    ...NO_AGENCIES,
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    ...(options.redis ? { REDIS_URL: redisUrl() ?? '' } : {}),
    ...options.env,
  };
  const config = loadConfig(env);
  const deps = await createDeps(config, options.clock ? { clock: options.clock } : {});
  const app = await buildApp(config, deps);
  options.extend?.(app, deps);
  await app.ready();
  return {
    app,
    deps,
    config,
    dataDir,
    async close() {
      await app.close();
      await deps.close();
      await postgres?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Customer {
  accountId: string;
  key: string;
  keyId: string;
}

let counter = 0;

/** An account with a datasets key; by default plan desk with a confirmed email. */
export async function customer(
  deps: Deps,
  options: { plan?: PlanId; confirmed?: boolean; marketPlan?: MarketPlan } = {},
): Promise<Customer> {
  counter += 1;
  const account = await createAccount(deps, {
    email: `user${counter}-${randomToken(6).toLowerCase()}@example.com`,
    plan: 'desk',
    marketPlan: options.marketPlan ?? 'free',
    emailConfirmed: options.confirmed ?? true,
  });
  const key = await createKey(deps, { accountId: account.id, api: 'datasets' });
  if (options.plan && options.plan !== 'desk')
    await setPlan(deps, { accountId: account.id, plan: options.plan });
  return { accountId: account.id, key: key.key, keyId: key.id };
}

/** A market-data (svc_mcp_) key on an account with the paid market plan (or as `options` say). */
export async function marketKey(
  deps: Deps,
  options: { marketPlan?: MarketPlan; confirmed?: boolean; access?: 'market-data' | 'full' } = {},
): Promise<string> {
  counter += 1;
  const account = await createAccount(deps, {
    email: `market${counter}-${randomToken(6).toLowerCase()}@example.com`,
    marketPlan: options.marketPlan ?? 'paid',
    emailConfirmed: options.confirmed ?? true,
  });
  const access = options.access ?? 'market-data';
  return (await createKey(deps, { accountId: account.id, api: 'market', access })).key;
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
