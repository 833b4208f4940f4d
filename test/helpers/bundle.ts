// The demo's bundle loaded once a run: the files that read it whole (the boards on real data, the fuzz test)
// copy one embedded store rather than each loading the 538,000 records again. The store is loaded through the
// same path as `quarry serve --demo` (loadBundledData), at the instant the caller's clock stands at.
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import { inject } from 'vitest';
import { loadBundledData } from '../../src/cli/bundled.js';
import { testEnv } from './env.js';

/** How often a file waiting for another's load looks whether it is in. */
const LOOK_EVERY_MS = 200;

/**
 * A data folder holding the bundle as loaded at `at` (and nothing else: no account, no key), made by the first
 * file of the run that asks for it; a file asking meanwhile waits for it. Pass it as testEnv's `from`.
 */
export async function bundledStore(at: Date): Promise<string> {
  const home = path.join(inject('runDir'), `bundle-${at.getTime()}`);
  const store = path.join(home, 'store');
  const done = path.join(home, 'loaded');
  try {
    mkdirSync(home);
  } catch {
    // Another file is loading it: the marker is written once its store is closed and in place.
    while (!existsSync(done)) await wait(LOOK_EVERY_MS);
    return store;
  }
  const env = await testEnv({ clock: () => at });
  await loadBundledData(env.deps, () => {});
  await env.app.close();
  await env.deps.close();
  renameSync(env.dataDir, store);
  writeFileSync(done, '');
  return store;
}
