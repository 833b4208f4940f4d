// What the store holds of each source and how its collection stands: for operators (quarry status).
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { lastRelease, nextRelease, type ReleaseCalendar } from './calendar.js';

export interface ScheduleRef {
  job: string;
  calendar: ReleaseCalendar;
}

/** Loads of `dataset` (first and last dates, files, the newest load) and the state of its jobs. */
export async function collectionStatus(
  db: Kysely<Database>,
  dataset: string,
  schedules: readonly ScheduleRef[],
  now: Date,
) {
  const loads = await db
    .selectFrom('source_files')
    .select((eb) => [
      eb.fn.min('first_date').as('first'),
      eb.fn.max('last_date').as('last'),
      eb.fn.countAll().as('files'),
      eb.fn.max('loaded_at').as('loadedAt'),
    ])
    .where('dataset', '=', dataset)
    .executeTakeFirst();
  const newest = await db
    .selectFrom('source_files')
    .select(['name', 'loaded_at', 'rows', 'inserted', 'revised'])
    .where('dataset', '=', dataset)
    .orderBy('loaded_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const jobs = [];
  for (const { job, calendar } of schedules) {
    const row = await db.selectFrom('jobs').selectAll().where('name', '=', job).executeTakeFirst();
    const latest = lastRelease(calendar, now);
    jobs.push({
      job,
      calendar: calendar.rule,
      latestRelease: latest.toISOString(),
      nextRelease: nextRelease(calendar, now).toISOString(),
      // The latest release is collected when a run found something new after it.
      collected: row?.last_new_at ? Date.parse(row.last_new_at) >= latest.getTime() : false,
      nextRunAt: row?.next_at ?? null,
      lastRunAt: row?.last_run_at ?? null,
      lastOutcome: row?.last_outcome ?? null,
      heldBy: row?.holder ?? null,
    });
  }
  return {
    dataset,
    firstDate: loads?.first ?? null,
    lastDate: loads?.last ?? null,
    files: Number(loads?.files ?? 0),
    lastLoad: newest
      ? {
          file: newest.name,
          loadedAt: newest.loaded_at,
          rows: newest.rows,
          inserted: newest.inserted,
          revised: newest.revised,
        }
      : null,
    jobs,
  };
}
