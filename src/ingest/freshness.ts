// How fresh a dataset is: what the store holds (first and last dates, the newest load and its file), the next
// release expected, and the gaps a reader should know of — a release the collector has not loaded hours after
// it came out, or a collection that failed. Read at most once a second per store and dataset.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../store/schema.js';
import { collectionStatus, type ScheduleRef } from './status.js';

export interface Freshness {
  /** Changes when anything below changes: boards merged with it are rebuilt only then. */
  key: string;
  coverage: {
    /** Current records of the dataset's main table (revisions not counted). */
    records: number;
    firstPeriod: string | null;
    lastPeriod: string | null;
    lastLoad: { file: string; loadedAt: string } | null;
    nextRelease: string | null;
  };
  gaps: string[];
}

/** A release not loaded this long after it came out is overdue. */
const GRACE_MS = 6 * 3_600_000;
const TTL_MS = 1000;

const held = new WeakMap<object, Map<string, { at: number; value: Promise<Freshness> }>>();

export function freshness(
  db: Kysely<Database>,
  dataset: string,
  records: string,
  schedules: readonly ScheduleRef[],
  now: Date,
): Promise<Freshness> {
  let byDataset = held.get(db);
  if (!byDataset) {
    byDataset = new Map();
    held.set(db, byDataset);
  }
  const cached = byDataset.get(dataset);
  if (cached && Math.abs(now.getTime() - cached.at) < TTL_MS) return cached.value;
  const value = compute(db, dataset, records, schedules, now);
  byDataset.set(dataset, { at: now.getTime(), value });
  value.catch(() => byDataset?.delete(dataset));
  return value;
}

async function compute(
  db: Kysely<Database>,
  dataset: string,
  table: string,
  schedules: readonly ScheduleRef[],
  now: Date,
): Promise<Freshness> {
  const status = await collectionStatus(db, dataset, schedules, now);
  // The dataset names its records table (a revisioned table: is_current marks its current rows).
  const counted = (
    await sql<{
      n: number | string;
    }>`SELECT count(*) AS n FROM ${sql.table(table)} WHERE is_current = 1`.execute(db)
  ).rows[0];
  const gaps: string[] = [];
  for (const job of status.jobs) {
    if (job.lastOutcome === 'failed') gaps.push(`the last collection (${job.job}, ${job.lastRunAt}) failed`);
    // Only a store whose collector runs this job expects each release to be loaded.
    const collecting = job.lastRunAt !== null;
    if (collecting && !job.collected && now.getTime() - Date.parse(job.latestRelease) > GRACE_MS) {
      gaps.push(`the release of ${job.latestRelease} (${job.job}) is not loaded yet`);
    }
  }
  const nextRelease = status.jobs.map((j) => j.nextRelease).sort()[0] ?? null;
  const coverage = {
    records: Number(counted?.n ?? 0),
    firstPeriod: status.firstDate,
    lastPeriod: status.lastDate,
    lastLoad: status.lastLoad ? { file: status.lastLoad.file, loadedAt: status.lastLoad.loadedAt } : null,
    nextRelease,
  };
  return { key: JSON.stringify([coverage, gaps]), coverage, gaps };
}
