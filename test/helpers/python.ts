// Debian's Python with pandas, for the computations the suite checks the service against (test/independent/):
// without it those tests are skipped, and under CI's QUARRY_TEST_REQUIRE_SERVICES they fail.
import { spawnSync } from 'node:child_process';

export const PYTHON = '/usr/bin/python3';

export function havePandas(): boolean {
  // xlrd reads the EIA's .xls workbooks (Debian's 1.2, which reads them directly, not through pandas).
  const probe = spawnSync(PYTHON, ['-c', 'import pandas, xlrd'], { encoding: 'utf8' });
  if (probe.status === 0) return true;
  const install = 'apt-get install python3-pandas python3-xlrd';
  if (process.env.QUARRY_TEST_REQUIRE_SERVICES === '1')
    throw new Error(`${PYTHON} with pandas and xlrd is required (${install})`);
  console.log(`Skipping the independent computations: ${PYTHON} lacks pandas or xlrd (${install}).`);
  return false;
}

/** Runs a script of test/independent/ from the repository's root; the JSON it prints. */
export function independent<T>(script: string, args: string[]): T {
  const run = spawnSync(PYTHON, [`test/independent/${script}`, ...args], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`test/independent/${script} failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}
