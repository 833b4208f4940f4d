// Collection: fetching an agency's own files from its host and loading them through the source's loader.
// A dataset names what to fetch (its collections); `quarry sync` and the scheduled collector run them.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { type AgencyHost, agencyUrl, ConfigError } from '../kernel/config.js';
import type { Deps } from '../kernel/deps.js';
import type { ReleaseCalendar } from './calendar.js';
import { download, type Validators } from './fetch.js';
import type { LoadReport } from './import.js';
import { loaderList, loadFile, type SourceLoaders } from './run.js';

/** The files of one source, as paths on its agency's host (the host is configuration). */
export interface Collection {
  agency: AgencyHost;
  /**
   * In load order (a later file may read what an earlier one loaded); `now` picks dated files. A path is named
   * by its last segment; one whose last segment does not name the file (a query picks it) gives its name.
   */
  files(now: Date): (string | { path: string; name: string })[];
  /** The collector's jobs: each on its report's release calendar, over the paths it matches (all by default). */
  schedules: { job: string; calendar: ReleaseCalendar; paths?: RegExp }[];
}

export type FileOutcome =
  /** Fetched and loaded in one transaction. */
  | 'loaded'
  /** The agency's copy is the one already loaded (a 304, or the same checksum). */
  | 'unchanged'
  /** 404 or 410: the agency does not publish it (yet). */
  | 'not_published'
  /** No answer in time, or an error status: nothing changed; the next run tries again. */
  | 'unreachable'
  /** Fetched, but the loader refused it: nothing of it was kept. */
  | 'failed';

export interface FileReport {
  name: string;
  url: string;
  outcome: FileOutcome;
  reason?: string;
  load?: LoadReport;
}

export interface SyncReport {
  source: string;
  files: FileReport[];
}

export function userAgent(contact: string): string {
  return `Quarry data collector (${contact})`;
}

/** Fetches and loads every file of `collection` that changed since it was last loaded. */
export async function collect(
  deps: Pick<Deps, 'store' | 'config' | 'clock'>,
  source: string,
  collection: Collection,
  loaders: SourceLoaders,
  paths?: RegExp,
): Promise<SyncReport> {
  const { config } = deps;
  if (!config.contact) {
    throw new ConfigError(
      'QUARRY_CONTACT',
      'not set: the agencies ask for a contact email in the User-Agent of every request',
    );
  }
  const dir = path.join(config.dataDir, 'downloads', collection.agency.id);
  mkdirSync(dir, { recursive: true });
  const files: FileReport[] = [];
  for (const file of collection.files(deps.clock())) {
    const { path: filePath, name } =
      typeof file === 'string' ? { path: file, name: path.posix.basename(file) } : file;
    if (paths && !paths.test(filePath)) continue;
    const url = `${agencyUrl(config, collection.agency)}${filePath}`;
    files.push({ name, url, ...(await collectFile(deps, url, path.join(dir, name), loaders)) });
  }
  return { source, files };
}

/**
 * Fetches one file (conditionally, when the copy held was loaded and is still on disk) and loads it unless
 * its checksum is loaded already. `pace` is awaited before the request (an agency's rate rule).
 */
export async function collectFile(
  deps: Pick<Deps, 'store' | 'config' | 'clock'>,
  url: string,
  dest: string,
  loaders: SourceLoaders,
  options: { pace?: () => Promise<void>; load?: Record<string, string> } = {},
): Promise<Omit<FileReport, 'name' | 'url'>> {
  const db = deps.store.db;
  const datasets = loaderList(loaders).map((l) => l.importer.dataset);
  const loaded = (checksum: string) =>
    db
      .selectFrom('source_files')
      .select('id')
      .where('dataset', 'in', datasets)
      .where('checksum', '=', checksum)
      .executeTakeFirst();
  const held = await db.selectFrom('fetches').selectAll().where('url', '=', url).executeTakeFirst();
  // Ask conditionally only for a copy that was loaded: one that failed to load is fetched again.
  const validators: Validators | null =
    held && existsSync(dest) && (await loaded(held.checksum))
      ? { etag: held.etag, lastModified: held.last_modified }
      : null;
  await options.pace?.();
  const got = await download(url, dest, {
    userAgent: userAgent(deps.config.contact as string),
    timeoutMs: deps.config.fetchTimeoutMs,
    held: validators,
  });
  switch (got.outcome) {
    case 'not_modified':
      return { outcome: 'unchanged' };
    case 'not_published':
      return { outcome: 'not_published', reason: `HTTP ${got.status}` };
    case 'failed':
      return { outcome: 'unreachable', reason: got.reason };
  }
  const remember = () =>
    db
      .insertInto('fetches')
      .values({
        url,
        etag: got.validators.etag,
        last_modified: got.validators.lastModified,
        checksum: got.checksum,
        fetched_at: deps.clock().toISOString(),
      })
      .onConflict((oc) =>
        oc.column('url').doUpdateSet({
          etag: got.validators.etag,
          last_modified: got.validators.lastModified,
          checksum: got.checksum,
          fetched_at: deps.clock().toISOString(),
        }),
      )
      .execute();
  if (await loaded(got.checksum)) {
    await remember();
    return { outcome: 'unchanged' };
  }
  try {
    const load = await loadFile(deps, loaders, got.file, options.load ?? {});
    await remember();
    return { outcome: 'loaded', load };
  } catch (error) {
    return { outcome: 'failed', reason: (error as Error).message };
  }
}
