// The sources' real files in ../shared/data beside the project. A suite that needs a missing one is skipped
// and says so; under QUARRY_TEST_REQUIRE_SERVICES=1 (as CI sets it) it fails instead, naming the path, as a
// missing PostgreSQL or Redis does.
import { existsSync } from 'node:fs';
import path from 'node:path';

export const SHARED_DATA = path.resolve('../shared/data');

/** True when every path exists; else skips (false) or, where the files are required, throws. */
export function haveShared(...paths: string[]): boolean {
  const missing = paths.filter((p) => !existsSync(p));
  if (missing.length === 0) return true;
  const list = missing.join(', ');
  if (process.env.QUARRY_TEST_REQUIRE_SERVICES === '1') {
    throw new Error(`required shared data files are missing: ${list}`);
  }
  console.log(`Skipping the suites that read ${list}: not found.`);
  return false;
}
