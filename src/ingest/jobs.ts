// Leases on scheduled jobs, the same on SQLite and PostgreSQL: one conditional UPDATE takes a due job whose
// lease is free or expired, so of several instances exactly one runs it; the holder renews while it works.
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';

export type JobOutcome = 'new' | 'nothing_new' | 'failed';

/** Makes sure the job has a row; a new job is due at `now`. */
export async function ensureJob(db: Kysely<Database>, name: string, now: Date): Promise<void> {
  await db
    .insertInto('jobs')
    .values({ name, next_at: now.toISOString(), attempt: 0 })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

/** Takes the job if it is due and nobody holds a live lease on it; true when taken. */
export async function takeJob(
  db: Kysely<Database>,
  name: string,
  holder: string,
  now: Date,
  leaseMs: number,
): Promise<boolean> {
  const at = now.toISOString();
  const result = await db
    .updateTable('jobs')
    .set({ holder, lease_until: new Date(now.getTime() + leaseMs).toISOString() })
    .where('name', '=', name)
    .where('next_at', '<=', at)
    .where((eb) => eb.or([eb('holder', 'is', null), eb('lease_until', '<', at), eb('holder', '=', holder)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Extends the holder's lease; false when it has lost it (expired and taken by another). */
export async function renewJob(
  db: Kysely<Database>,
  name: string,
  holder: string,
  now: Date,
  leaseMs: number,
): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ lease_until: new Date(now.getTime() + leaseMs).toISOString() })
    .where('name', '=', name)
    .where('holder', '=', holder)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Records the run and when the job is next due, and gives the lease back. */
export async function finishJob(
  db: Kysely<Database>,
  name: string,
  holder: string,
  run: { outcome: JobOutcome; at: Date; nextAt: Date; attempt: number },
): Promise<void> {
  await db
    .updateTable('jobs')
    .set({
      holder: null,
      lease_until: null,
      next_at: run.nextAt.toISOString(),
      attempt: run.attempt,
      last_run_at: run.at.toISOString(),
      last_outcome: run.outcome,
      ...(run.outcome === 'new' ? { last_new_at: run.at.toISOString() } : {}),
    })
    .where('name', '=', name)
    .where('holder', '=', holder)
    .execute();
}

export function readJob(db: Kysely<Database>, name: string) {
  return db.selectFrom('jobs').selectAll().where('name', '=', name).executeTakeFirst();
}
