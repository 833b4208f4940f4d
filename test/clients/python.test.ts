// The Python client (clients/python), installed as a user installs it (pip, offline, from the repository) and
// run by its own pytest suite against a real server: the built CLI on a fresh store holding recorded files.
// Twice: with pandas (DataFrames) and as on a machine without it (lists and dicts).
import { spawnSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClientServer, startClientServer } from '../helpers/client-server.js';

const PYTHON = '/usr/bin/python3';

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

describe.runIf(havePython())('the Python client against a real server', () => {
  let running: ClientServer;
  let site: string;

  beforeAll(async () => {
    running = await startClientServer();
    site = path.join(running.dir, 'site');
    // Built from a copy, so that setuptools' build folders land beside the store, not in the repository.
    const source = path.join(running.dir, 'client-source');
    cpSync('clients/python', source, { recursive: true, filter: (from) => !from.includes('__pycache__') });
    const install = spawnSync(
      PYTHON,
      ['-m', 'pip', 'install', '--quiet', '--no-build-isolation', '--no-index', '--target', site, source],
      { encoding: 'utf8' },
    );
    expect(install.status, install.stderr).toBe(0);
  }, 120_000);
  afterAll(() => running?.stop());

  const pytest = (extra: Record<string, string>) =>
    spawnSync(PYTHON, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'clients/python/tests'], {
      encoding: 'utf8',
      timeout: 120_000,
      // No bytecode written into the repository's test folder.
      env: {
        ...process.env,
        PYTHONPATH: site,
        PYTHONDONTWRITEBYTECODE: '1',
        QUARRY_BASE_URL: running.server.url,
        ...running.keys,
        ...extra,
      },
    });

  it('with pandas: every test of the client passes', () => {
    const run = pytest({});
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/\b29 passed\b/);
  });

  it('without pandas: the same tests pass on lists and dicts', () => {
    const run = pytest({
      QUARRY_WITHOUT_PANDAS: '1',
      QUARRY_LIMITED_KEY: running.keys.QUARRY_LIMITED_KEY_SECOND ?? '',
      QUARRY_BULK_KEY: running.keys.QUARRY_BULK_KEY_SECOND ?? '',
    });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
  });
});
