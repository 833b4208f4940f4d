// How fresh a dataset is: what the store holds (first and last dates, the newest load and its file), the next
// release expected, and the gaps a reader should know of — newer periods the agency's calendar says are out
// than the store holds (whether or not a collector runs), a release the collector has not loaded hours after
// it came out, or a collection that failed. Read at most once a second per store and dataset.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../store/schema.js';
import { type PeriodCalendar, releasesSince } from './calendar.js';
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
    /** Periods after lastPeriod the agency has published by now (null without a calendar or data). */
    releasesSince: number | null;
    /** Whether the store misses a published period. */
    stale: boolean;
  };
  gaps: string[];
}

/** What freshness is judged from: the dataset's records table, its collection jobs, its publication calendar. */
export interface FreshnessSource {
  dataset: string;
  /** The revisioned table whose current rows are the dataset's records. */
  records: string;
  schedules: readonly ScheduleRef[];
  periods?: PeriodCalendar;
}

/** A release not loaded this long after it came out is overdue. */
const GRACE_MS = 6 * 3_600_000;
const TTL_MS = 1000;

const held = new WeakMap<object, Map<string, { at: number; value: Promise<Freshness> }>>();

export function freshness(db: Kysely<Database>, source: FreshnessSource, now: Date): Promise<Freshness> {
  const { dataset } = source;
  let byDataset = held.get(db);
  if (!byDataset) {
    byDataset = new Map();
    held.set(db, byDataset);
  }
  const cached = byDataset.get(dataset);
  if (cached && Math.abs(now.getTime() - cached.at) < TTL_MS) return cached.value;
  const value = compute(db, source, now);
  byDataset.set(dataset, { at: now.getTime(), value });
  value.catch(() => byDataset?.delete(dataset));
  return value;
}

async function compute(db: Kysely<Database>, source: FreshnessSource, now: Date): Promise<Freshness> {
  const { dataset, records: table, schedules, periods } = source;
  const status = await collectionStatus(db, dataset, schedules, now);
  // The dataset names its records table (a revisioned table: is_current marks its current rows).
  const counted = (
    await sql<{
      n: number | string;
    }>`SELECT count(*) AS n FROM ${sql.table(table)} WHERE is_current = 1`.execute(db)
  ).rows[0];
  const gaps: string[] = [];
  const last = status.lastDate;
  const since = periods && last ? releasesSince(periods, last, now) : null;
  if (periods && last && since) gaps.push(staleGap(periods, last, since));
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
    releasesSince: since,
    stale: (since ?? 0) > 0,
  };
  return { key: JSON.stringify([coverage, gaps]), coverage, gaps };
}

/** "stale: newest report 2025-03-18; the CFTC has published 87 reports since". */
function staleGap(periods: PeriodCalendar, last: string, since: number): string {
  const newest = periods.period === 'month' ? last.slice(0, 7) : last;
  const noun = since === 1 ? periods.noun : `${periods.noun}s`;
  return `stale: newest ${periods.period} ${newest}; ${periods.publisher} has published ${since} ${noun} since`;
}
