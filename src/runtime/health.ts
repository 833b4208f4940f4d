// Readiness: whether this process can serve, part by part: the store answers, the counters answer (Redis when
// configured) and the store's schema is the one this code expects.

import { sql } from 'kysely';
import type { Deps } from '../kernel/deps.js';
import { pendingMigrations } from '../store/migrate.js';
import { MIGRATIONS } from './migrations.js';

/** How long a part may take to answer before it counts as down. */
const PART_TIMEOUT_MS = 2000;

export interface Readiness {
  ready: boolean;
  checks: { store: string; counters: string; migrations: string } | { bundle: string };
}

/** What a store is still having loaded while the server answers (the demo's bundle), by store. */
const loading = new WeakMap<object, string>();

/** Says what is loading into the store (null: nothing any more); readiness names it until then. */
export function markLoading(store: object, what: string | null): void {
  if (what === null) loading.delete(store);
  else loading.set(store, what);
}

function within<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not answer within ${PART_TIMEOUT_MS} ms`)),
      PART_TIMEOUT_MS,
    );
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * Each part's state: 'ok', or 'down' (its error goes to `failed`, for the log: an unkeyed route tells nobody
 * the store's address or its driver's words).
 */
export async function readiness(
  deps: Pick<Deps, 'store' | 'counters' | 'config'>,
  failed: (part: string, error: unknown) => void,
): Promise<Readiness> {
  // A load holds the embedded store's one connection file by file: the store is not asked meanwhile.
  const bundle = loading.get(deps.store);
  if (bundle !== undefined) return { ready: false, checks: { bundle } };
  const failure = (part: string) => (error: unknown) => {
    failed(part, error);
    return 'down';
  };
  const [store, counters, migrations] = await Promise.all([
    within(sql`select 1`.execute(deps.store.db), 'the store').then(() => 'ok', failure('store')),
    within(deps.counters.ping(), deps.config.redisUrl ? 'Redis' : 'the counters').then(
      () => (deps.config.redisUrl ? 'ok' : 'ok (in process)'),
      failure('counters'),
    ),
    within(pendingMigrations(deps.store, MIGRATIONS), 'the store').then(
      (pending) => (pending.length === 0 ? 'ok' : `pending: ${pending.join(', ')}`),
      failure('migrations'),
    ),
  ]);
  return {
    ready: store === 'ok' && counters.startsWith('ok') && migrations === 'ok',
    checks: { store, counters, migrations },
  };
}
