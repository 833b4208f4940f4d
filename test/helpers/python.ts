// Debian's Python with pandas, for the computations the suite checks the service against (test/independent/):
// without it those tests are skipped, and under CI's QUARRY_TEST_REQUIRE_SERVICES they fail.
import { spawnSync } from 'node:child_process';

export const PYTHON = '/usr/bin/python3';

export function havePandas(): boolean {
  const probe = spawnSync(PYTHON, ['-c', 'import pandas'], { encoding: 'utf8' });
  if (probe.status === 0) return true;
  if (process.env.QUARRY_TEST_REQUIRE_SERVICES === '1')
    throw new Error(`${PYTHON} with pandas is required (apt-get install python3-pandas)`);
  console.log(
    `Skipping the independent computations: ${PYTHON} lacks pandas (apt-get install python3-pandas).`,
  );
  return false;
}

/** Runs a script of test/independent/ from the repository's root; the JSON it prints. */
export function independent<T>(script: string, args: string[]): T {
  const run = spawnSync(PYTHON, [`test/independent/${script}`, ...args], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`test/independent/${script} failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}
