// The Python client (clients/python), installed as a user installs it (pip, offline, from the repository) and
// run by its own pytest suite against a real server: the built CLI on a fresh store holding recorded files.
// Twice: with pandas (DataFrames) and as on a machine without it (lists and dicts).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, endPlan, setBalance } from '../../src/accounts/accounts.js';
import { createKey } from '../../src/accounts/keys.js';
import { loadFile } from '../../src/ingest/run.js';
import { loadConfig } from '../../src/runtime/config.js';
import { createDeps } from '../../src/runtime/deps.js';
import { LOADERS } from '../../src/runtime/loaders.js';
import { NO_AGENCIES } from '../helpers/agency.js';
import { marketKey } from '../helpers/env.js';
import { type ServerProcess, startServer } from '../helpers/server.js';
import { haveShared } from '../helpers/shared.js';

const PYTHON = '/usr/bin/python3';
const FIXTURES = path.resolve('test/fixtures');
const WEEKLY = path.resolve('../shared/data/cftc/weekly/deafut_2026-04-14.txt');

/**
 * Debian's Python with pip, pytest and pandas; without them the suite is skipped, and under CI's
 * QUARRY_TEST_REQUIRE_SERVICES it fails.
 */
function havePython(): boolean {
  const probe = spawnSync(PYTHON, ['-c', 'import pytest, pandas, pip'], { encoding: 'utf8' });
  if (probe.status === 0) return true;
  const install = 'apt-get install python3-pip python3-pytest python3-pandas python3-setuptools';
  if (process.env.QUARRY_TEST_REQUIRE_SERVICES === '1')
    throw new Error(`${PYTHON} with pip, pytest and pandas is required (${install})`);
  console.log(`Skipping the Python client suite: ${PYTHON} lacks pip, pytest or pandas (${install}).`);
  return false;
}

describe.runIf(havePython() && haveShared(WEEKLY))('the Python client against a real server', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-python-'));
  const site = path.join(dir, 'site');
  const env = { ...NO_AGENCIES, QUARRY_DATA_DIR: dir, DATA_API_ENABLED: 'true', LOG_LEVEL: 'silent' };
  let server: ServerProcess;
  const keys: Record<string, string> = {};

  beforeAll(async () => {
    const deps = await createDeps(loadConfig(env));
    const load = (source: string, file: string, options: Record<string, string> = {}) =>
      loadFile(deps, LOADERS[source] as NonNullable<(typeof LOADERS)[string]>, file, options);
    await load('prices', path.join(FIXTURES, 'market/AAPL.csv'), { ticker: 'AAPL' });
    await load('prices', path.join(FIXTURES, 'market/BARC.L.csv'), { ticker: 'BARC.L' });
    await load('yahoo', path.join(FIXTURES, 'market/quote-AAPL.json'));
    await load('cftc', WEEKLY);
    await load('usaspending', path.join(FIXTURES, 'usaspending/01-award-search-dod-mit.json'));
    const account = await createAccount(deps, {
      email: 'py@example.com',
      plan: 'basic',
      emailConfirmed: true,
    });
    keys.QUARRY_DATASETS_KEY = (await createKey(deps, { accountId: account.id, api: 'datasets' })).key;
    keys.QUARRY_MARKET_KEY = await marketKey(deps);
    keys.QUARRY_LIMITED_KEY = await marketKey(deps);
    // The run without pandas drives a key of its own over its minute.
    keys.QUARRY_LIMITED_KEY_SECOND = await marketKey(deps);
    // Keys the API refuses, one per refusal: a plan ended, one credit left, an email not confirmed, a
    // market key with full access on a market-data route.
    const datasetsKey = async (email: string, confirmed = true) => {
      const owner = await createAccount(deps, { email, plan: 'basic', emailConfirmed: confirmed });
      return { owner, key: (await createKey(deps, { accountId: owner.id, api: 'datasets' })).key };
    };
    const ended = await datasetsKey('ended@example.com');
    await endPlan(deps, { accountId: ended.owner.id, at: new Date(Date.now() - 86_400_000) });
    keys.QUARRY_ENDED_KEY = ended.key;
    const poor = await datasetsKey('poor@example.com');
    await setBalance(deps, { accountId: poor.owner.id, balance: 1 });
    keys.QUARRY_POOR_KEY = poor.key;
    keys.QUARRY_UNCONFIRMED_KEY = await marketKey(deps, { confirmed: false });
    keys.QUARRY_FULL_KEY = await marketKey(deps, { access: 'full' });
    await deps.close();
    server = await startServer(env);
    // Built from a copy, so that setuptools' build folders land beside the store, not in the repository.
    const source = path.join(dir, 'client-source');
    cpSync('clients/python', source, { recursive: true, filter: (from) => !from.includes('__pycache__') });
    const install = spawnSync(
      PYTHON,
      ['-m', 'pip', 'install', '--quiet', '--no-build-isolation', '--no-index', '--target', site, source],
      { encoding: 'utf8' },
    );
    expect(install.status, install.stderr).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const pytest = (extra: Record<string, string>) =>
    spawnSync(PYTHON, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'clients/python/tests'], {
      encoding: 'utf8',
      timeout: 120_000,
      // No bytecode written into the repository's test folder.
      env: {
        ...process.env,
        PYTHONPATH: site,
        PYTHONDONTWRITEBYTECODE: '1',
        QUARRY_BASE_URL: server.url,
        ...keys,
        ...extra,
      },
    });

  it('with pandas: every test of the client passes', () => {
    const run = pytest({});
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/\b13 passed\b/);
  });

  it('without pandas: the same tests pass on lists and dicts', () => {
    const run = pytest({
      QUARRY_WITHOUT_PANDAS: '1',
      QUARRY_LIMITED_KEY: keys.QUARRY_LIMITED_KEY_SECOND ?? '',
    });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
  });
});
