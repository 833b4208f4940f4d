// How fresh a dataset is: what the store holds (first and last dates, the newest load and its file), the next
// release expected, and the gaps a reader should know of — newer periods the agency's calendar says are out
// than the store holds (whether or not a collector runs), a release the collector has not loaded hours after
// it came out, or a collection that failed. Read at most once a second per store and dataset.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../store/schema.js';
import { type PeriodCalendar, periodsAfter } from './calendar.js';
import { collectionStatus, type ScheduleRef } from './status.js';

export interface GroupCoverage {
  group: string;
  lastPeriod: string | null;
  releasesSince: number | null;
  stale: boolean;
}

export interface Freshness {
  /** Changes when anything below changes: boards merged with it are rebuilt only then. */
  key: string;
  coverage: {
    /** Current records of the dataset's main table (revisions not counted), or those known at the instant read. */
    records: number;
    firstPeriod: string | null;
    lastPeriod: string | null;
    lastLoad: { file: string; loadedAt: string } | null;
    /** When the agency publishes next, where its calendar fixes the time. */
    nextRelease: string | null;
    /** Where the calendar gives only the latest day a publication comes (the BLS's CPI): that day. */
    nextReleaseBy?: string;
    /** Periods after lastPeriod the agency has published by now (null without a calendar or data): of the group furthest behind. */
    releasesSince: number | null;
    /** Whether the store misses a published period. */
    stale: boolean;
    /** Each group of series published on its own calendar, where a dataset has several. */
    groups?: GroupCoverage[];
  };
  gaps: string[];
}

/**
 * Series of a dataset published together on one calendar: a COT report family, the EIA's petroleum or gas
 * report, the CPI. Each is judged on its own, so one group's newer periods never hide another's lag.
 */
export interface FreshnessGroup {
  /** Its name in coverage and gaps: "legacy", "disaggregated", "petroleum", "natural gas". */
  name: string;
  periods: PeriodCalendar;
  /** The newest period of the group the store holds: current, or as known at the instant `at`. */
  lastPeriod(db: Kysely<Database>, at: string | null): Promise<string | null>;
}

/** What freshness is judged from: the dataset's records table, its collection jobs, its publication calendars. */
export interface FreshnessSource {
  dataset: string;
  /** The revisioned table whose current rows are the dataset's records. */
  records: string;
  schedules: readonly ScheduleRef[];
  /** Groups of series by publication calendar; none for a dataset that comes as it is filed. */
  groups: readonly FreshnessGroup[];
}

/** How to read freshness: as known at an instant (null: now), of some groups only (a board of one family). */
export interface FreshnessOptions {
  at?: string | null;
  groups?: readonly string[];
}

/** A release not loaded this long after it came out is overdue. */
const GRACE_MS = 6 * 3_600_000;
const TTL_MS = 1000;

const held = new WeakMap<object, Map<string, { at: number; value: Promise<Freshness> }>>();

/**
 * How fresh a dataset is now, or as it stood at an instant (`at`): at a past instant, the periods its agency had
 * published by then and the store did not yet know of; the collection's state is only judged now.
 */
export function freshness(
  db: Kysely<Database>,
  source: FreshnessSource,
  now: Date,
  options: FreshnessOptions = {},
): Promise<Freshness> {
  const { dataset } = source;
  let byDataset = held.get(db);
  if (!byDataset) {
    byDataset = new Map();
    held.set(db, byDataset);
  }
  const key = JSON.stringify([dataset, options.at ?? null, options.groups ?? null]);
  const cached = byDataset.get(key);
  if (cached && Math.abs(now.getTime() - cached.at) < TTL_MS) return cached.value;
  const value = compute(db, source, now, options);
  byDataset.set(key, { at: now.getTime(), value });
  value.catch(() => byDataset?.delete(key));
  return value;
}

async function compute(
  db: Kysely<Database>,
  source: FreshnessSource,
  now: Date,
  { at = null, groups: only }: FreshnessOptions,
): Promise<Freshness> {
  const { dataset, records: table, schedules } = source;
  const status = await collectionStatus(db, dataset, at === null ? schedules : [], now);
  const groups = source.groups.filter((g) => !only || only.includes(g.name));
  const judgedAt = at === null ? now : new Date(at);
  // The dataset names its records table (a revisioned table: is_current marks its current rows).
  const known =
    at === null
      ? sql`is_current = 1`
      : sql`known_at <= ${at} AND (superseded_at IS NULL OR superseded_at > ${at})`;
  const counted = (
    await sql<{ n: number | string }>`SELECT count(*) AS n FROM ${sql.table(table)} WHERE ${known}`.execute(
      db,
    )
  ).rows[0];
  const gaps: string[] = [];
  const judged: GroupCoverage[] = [];
  // The next publication by the groups' calendars: at a fixed time, or only by a latest day (the BLS's CPI).
  const fixed: string[] = [];
  const by: string[] = [];
  for (const group of groups) {
    const last = await group.lastPeriod(db, at);
    const after = last ? periodsAfter(group.periods, last, judgedAt) : null;
    const since = after?.since ?? null;
    judged.push({ group: group.name, lastPeriod: last, releasesSince: since, stale: (since ?? 0) > 0 });
    if (after) (group.periods.fixedDay ? fixed : by).push(after.next.toISOString());
    if (last && since) gaps.push(staleGap(group, last, since, source.groups.length > 1));
  }
  for (const job of status.jobs) {
    if (job.lastOutcome === 'failed') gaps.push(`the last collection (${job.job}, ${job.lastRunAt}) failed`);
    // Only a store whose collector runs this job expects each release to be loaded.
    const collecting = job.lastRunAt !== null;
    if (collecting && !job.collected && now.getTime() - Date.parse(job.latestRelease) > GRACE_MS) {
      gaps.push(`the release of ${job.latestRelease} (${job.job}) is not loaded yet`);
    }
  }
  // A dataset judged by release calendars says when its agency publishes next (never a collector's polling
  // time: the BLS's CPI day is not held, so only the latest it comes by); the others, their collection's.
  const nextRelease = groups.length
    ? (fixed.sort()[0] ?? null)
    : (status.jobs.map((j) => j.nextRelease).sort()[0] ?? null);
  const counts = judged.flatMap((g) => (g.releasesSince === null ? [] : [g.releasesSince]));
  const lasts = judged.flatMap((g) => (g.lastPeriod === null ? [] : [g.lastPeriod])).sort();
  const releases = counts.length ? Math.max(...counts) : null;
  const coverage = {
    records: Number(counted?.n ?? 0),
    firstPeriod: status.firstDate,
    // Of the groups read where there are any (as known at the instant read), else of the files loaded.
    lastPeriod: groups.length ? (lasts.at(-1) ?? null) : status.lastDate,
    lastLoad: status.lastLoad ? { file: status.lastLoad.file, loadedAt: status.lastLoad.loadedAt } : null,
    nextRelease,
    ...(by.length ? { nextReleaseBy: by.sort()[0] } : {}),
    releasesSince: releases,
    stale: (releases ?? 0) > 0,
    ...(source.groups.length > 1 ? { groups: judged } : {}),
  };
  return { key: JSON.stringify([coverage, gaps]), coverage, gaps };
}

/** "stale: newest disaggregated report 2025-03-18; the CFTC has published 87 reports since". */
function staleGap(group: FreshnessGroup, last: string, since: number, named: boolean): string {
  const { periods } = group;
  const newest = periods.period === 'month' ? last.slice(0, 7) : last;
  const noun = since === 1 ? periods.noun : `${periods.noun}s`;
  const what = named ? `${group.name} ${periods.period}` : periods.period;
  return `stale: newest ${what} ${newest}; ${periods.publisher} has published ${since} ${noun} since`;
}
