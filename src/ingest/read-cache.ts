// Computed responses kept per store until a load changes their dataset. The version is read at most once a
// second per dataset, so a load made elsewhere (the CLI, another process) reaches every server within about
// a second, a load made in this process at once, and a busy board route answers from memory.
import type { Kysely } from 'kysely';
import type { MaybePromise } from '../kernel/steps.js';
import type { Database } from '../store/schema.js';

const VERSION_TTL_MS = 1000;
const MAX_ENTRIES = 1000;

interface DatasetCache {
  version: number;
  checkedAt: number;
  checking: Promise<number> | null;
  entries: Map<string, Promise<unknown>>;
}

/** Keyed by the store's query builder, the one object a load and a read share. */
const stores = new WeakMap<object, Map<string, DatasetCache>>();

/** Drops what is held for `dataset` on this store; the next read checks the version again. */
export function forget(db: object, dataset: string): void {
  const cache = stores.get(db)?.get(dataset);
  if (cache) {
    cache.entries.clear();
    cache.checkedAt = 0;
  }
}

/** The dataset's version as stored: how many loads have changed it (0 before the first). */
export async function storedVersion(db: Kysely<Database>, dataset: string): Promise<number> {
  const row = await db
    .selectFrom('dataset_versions')
    .select('version')
    .where('dataset', '=', dataset)
    .executeTakeFirst();
  return Number(row?.version ?? 0);
}

/** The dataset's version: the one held while it is fresh (no promise), else a read of the stored one. */
function currentVersion(db: Kysely<Database>, dataset: string, cache: DatasetCache): MaybePromise<number> {
  const now = Date.now();
  if (now - cache.checkedAt < VERSION_TTL_MS) return cache.version;
  cache.checking ??= storedVersion(db, dataset)
    .then((version) => {
      if (version !== cache.version) cache.entries.clear();
      cache.version = version;
      cache.checkedAt = Date.now();
      return version;
    })
    .finally(() => {
      cache.checking = null;
    });
  return cache.checking;
}

/** The value for `key` computed from the current data of `dataset`; one computation per version. */
export function cachedRead<T>(
  db: Kysely<Database>,
  dataset: string,
  key: string,
  compute: () => Promise<T>,
): Promise<T> {
  let byDataset = stores.get(db);
  if (!byDataset) {
    byDataset = new Map();
    stores.set(db, byDataset);
  }
  let cache = byDataset.get(dataset);
  if (!cache) {
    cache = { version: -1, checkedAt: 0, checking: null, entries: new Map() };
    byDataset.set(dataset, cache);
  }
  const held = cache;
  const version = currentVersion(db, dataset, held);
  return version instanceof Promise
    ? version.then(() => entryFor(held, key, compute))
    : entryFor(held, key, compute);
}

function entryFor<T>(cache: DatasetCache, key: string, compute: () => Promise<T>): Promise<T> {
  let entry = cache.entries.get(key) as Promise<T> | undefined;
  if (!entry) {
    // The oldest computed goes first: a read of many keys at once (a cross-section of 500 listings) then
    // leaves the newest 999 held rather than none.
    if (cache.entries.size >= MAX_ENTRIES) cache.entries.delete(cache.entries.keys().next().value as string);
    const entries = cache.entries;
    entry = compute();
    entries.set(key, entry);
    // A failed computation is not kept.
    entry.catch(() => entries.delete(key));
  }
  return entry;
}
