// Where each version's bulk files are kept, and making them when a version has none yet: once per version
// (and per asOf day), whichever process asks first, never per request. Folders of versions a load replaced
// are kept a day, so a download or a signed link of that version can still be finished.
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { storedVersion } from '../../ingest/read-cache.js';
import type { Deps } from '../../kernel/deps.js';
import type { BulkLayout } from './layout.js';
import { type Manifest, produce } from './produce.js';

const DAY_MS = 86_400_000;
/** Tries before giving up on a dataset that loads keep changing while its files are written. */
const ATTEMPTS = 3;

/** The dataset's version: how many loads have changed it (0 before the first). */
export const datasetVersion = (deps: Pick<Deps, 'store'>, dataset: string) =>
  storedVersion(deps.store.db, dataset);

export function folderOf(deps: Pick<Deps, 'config'>, dataset: string, version: number, asOf: string | null) {
  return path.join(deps.config.bulkDir, dataset, asOf ? `v${version}-asof-${asOf}` : `v${version}`);
}

/** The manifest of a version's folder, or null when its files are not made. */
export async function manifestIn(folder: string): Promise<Manifest | null> {
  try {
    return JSON.parse(await readFile(path.join(folder, 'manifest.json'), 'utf8')) as Manifest;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Files being made in this process, by folder: a second request waits for the first. */
const making = new Map<string, Promise<Manifest | null>>();

/** The files of the dataset's current version (as known at `asOf` when given), made first if need be. */
export async function bulkFiles(
  deps: Deps,
  dataset: string,
  layout: BulkLayout,
  asOf: string | null,
): Promise<{ manifest: Manifest; folder: string }> {
  for (let attempt = 1; ; attempt += 1) {
    const version = await datasetVersion(deps, dataset);
    const folder = folderOf(deps, dataset, version, asOf);
    const held = await manifestIn(folder);
    if (held) return { manifest: held, folder };
    let pending = making.get(folder);
    if (!pending) {
      pending = produce(deps, dataset, layout, version, asOf, folder, () =>
        datasetVersion(deps, dataset),
      ).finally(() => making.delete(folder));
      making.set(folder, pending);
    }
    const manifest = await pending;
    if (manifest) {
      await retire(deps, dataset, version);
      return { manifest, folder };
    }
    if (attempt >= ATTEMPTS)
      throw new Error(`bulk files of ${dataset}: loads kept changing it while they were made`);
  }
}

/** The manifest of a given version's folder (a signed link names its version), or null when gone. */
export function versionFiles(
  deps: Pick<Deps, 'config'>,
  dataset: string,
  version: number,
  asOf: string | null,
) {
  const folder = folderOf(deps, dataset, version, asOf);
  return manifestIn(folder).then((manifest) => (manifest ? { manifest, folder } : null));
}

/** Removes the folders of versions before `current` made more than a day ago. */
async function retire(deps: Deps, dataset: string, current: number): Promise<void> {
  const root = path.join(deps.config.bulkDir, dataset);
  const now = deps.clock().getTime();
  for (const name of await readdir(root)) {
    const version = /^v(\d+)(?:-asof-|$)/.exec(name)?.[1];
    if (version === undefined || Number(version) >= current) continue;
    const folder = path.join(root, name);
    const manifest = await manifestIn(folder);
    if (manifest && now - Date.parse(manifest.producedAt) > DAY_MS)
      await rm(folder, { recursive: true, force: true });
  }
}
