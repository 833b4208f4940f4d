// Global setup: finds PostgreSQL and Redis for the suites that are about them. With
// QUARRY_TEST_REQUIRE_SERVICES=1 (as CI sets it) a missing service fails the run instead of skipping.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string | null;
    redisUrl: string | null;
    /** libfaketime, which stands a child process at a fixed instant (Debian's libfaketime). */
    faketime: string | null;
    /** A folder of this run's own, removed at its end: what several files share (the demo's bundle, loaded once). */
    runDir: string;
  }
}

const PG_URL = process.env.QUARRY_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.QUARRY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function probePostgres(): Promise<string | null> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (error) {
    return (error as Error).message || String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

async function probeRedis(): Promise<string | null> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0 });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
    return null;
  } catch (error) {
    return (error as Error).message || String(error);
  } finally {
    redis.disconnect();
  }
}

const FAKETIME_LIBS = [
  '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1',
  '/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1',
  '/usr/lib/faketime/libfaketime.so.1',
];

export default async function setup(project: TestProject) {
  const [pgProblem, redisProblem] = await Promise.all([probePostgres(), probeRedis()]);
  const faketime = FAKETIME_LIBS.find((lib) => existsSync(lib)) ?? null;
  const required = process.env.QUARRY_TEST_REQUIRE_SERVICES === '1';
  if (required && (pgProblem || redisProblem || !faketime)) {
    throw new Error(
      `required test services are unreachable: postgres: ${pgProblem ?? 'ok'}; redis: ${redisProblem ?? 'ok'}; ` +
        `libfaketime: ${faketime ? 'ok' : 'not installed (apt-get install faketime)'}`,
    );
  }
  if (!faketime)
    console.log('Skipping the tests of processes at a fixed instant: libfaketime is not installed.');
  if (pgProblem) console.log(`Skipping the PostgreSQL suites: ${PG_URL} is unreachable (${pgProblem}).`);
  if (redisProblem) console.log(`Skipping the Redis suites: ${REDIS_URL} is unreachable (${redisProblem}).`);
  project.provide('pgUrl', pgProblem ? null : PG_URL);
  project.provide('redisUrl', redisProblem ? null : REDIS_URL);
  project.provide('faketime', faketime);
  const runDir = mkdtempSync(path.join(tmpdir(), 'quarry-run-'));
  project.provide('runDir', runDir);
  return () => rmSync(runDir, { recursive: true, force: true });
}
