// energy-inventories read: the latest report of each kind, each series with its derived figures.

import { cachedRead } from '../../ingest/read-cache.js';
import type { Deps } from '../../kernel/deps.js';
import { type EnvelopeValue, storedMeta } from '../envelope.js';
import { freshBoard } from '../freshness.js';
import { asOfInstant, knownAt, readInstant } from '../known.js';
import type { OperationInput } from '../operation.js';
import {
  fiveYearAverage,
  type Observation,
  readLevel,
  readSeason,
  seasonalChange,
  weekChange,
  yearAgo,
} from './derive.js';
import { energyFreshness } from './load/collection.js';
import { EIA } from './source.js';

/** Observations needed for a five-year average of the latest week, with a week of margin. */
const LOOKBACK_DAYS = 6 * 366;

function daysBefore(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

/** The board of the latest reports, or, with asOf, as known at the end of that day; fresh as of then. */
export async function readInventories(
  deps: Deps,
  { query }: OperationInput<{ asOf?: string }, object>,
): Promise<EnvelopeValue<unknown>> {
  const at = asOfInstant(deps, query.asOf);
  const board = () =>
    cachedRead(deps.store.db, 'energy-inventories', `board:${at ?? 'now'}`, () =>
      computeInventories(deps, at),
    );
  return freshBoard(deps, energyFreshness, board, { at });
}

async function computeInventories(deps: Deps, at: string | null): Promise<EnvelopeValue<unknown>> {
  const { series, reports, observations, bySeries } = await heldInventories(deps, at);
  // The latest week of each report: the newer of its calendar's last week and its series' newest observation.
  const latestWeek = new Map<string, string>();
  const later = (report: string, week: string | undefined) => {
    if (week && week > (latestWeek.get(report) ?? '')) latestWeek.set(report, week);
  };
  for (const r of reports) later(r.report, r.week_ending);
  for (const s of series) later(s.report, bySeries.get(s.series_id)?.at(-1)?.weekEnding);

  const gaps: string[] = [];
  const shown = series.map((s) => {
    const week = latestWeek.get(s.report) ?? null;
    const { row, current } = seriesRow(s, week, bySeries.get(s.series_id) ?? []);
    if (!current) gaps.push(`${s.series_id}: no value for the week ending ${week ?? '(none)'}`);
    return { row, current };
  });
  // The newest week a value is shown for, and when the newest of those values became known.
  const currents = shown.flatMap(({ current }) => (current ? [current] : []));
  const newestWeek = currents.reduce<string | null>(
    (n, c) => (n === null || c.weekEnding > n ? c.weekEnding : n),
    null,
  );
  const newestKnown = currents.reduce<(typeof currents)[number] | null>(
    (n, c) => (n === null || c.knownAt > n.knownAt ? c : n),
    null,
  );
  if (series.length === 0)
    gaps.push(at ? `nothing published by ${at.slice(0, 10)} is held` : 'no series loaded');

  const weeks = observations.map((o) => o.week_ending);
  return {
    data: {
      source: 'eia',
      generatedAt: deps.clock().toISOString(),
      status: gaps.length === 0 ? 'available' : 'partial',
      gaps,
      reports: latestReportsOf(latestWeek, reports),
      series: shown.map(({ row }) => row),
    },
    meta: storedMeta('energy-inventories', [EIA], {
      readAsOf: readInstant(deps, at),
      asOf: newestKnown?.knownAt ?? null,
      knownFrom: newestKnown?.knownFrom ?? null,
      newestPeriod: newestWeek,
      historyStarts: weeks[0] ?? null,
      coverage: series.length ? { series: series.length, firstWeek: weeks[0], lastWeek: weeks.at(-1) } : null,
    }),
  };
}

type HeldObservation = Observation & { knownAt: string; knownFrom: string | null };

/** The series, reports and observations held (as known at `at`), the observations by series, oldest first. */
async function heldInventories(deps: Deps, at: string | null) {
  const db = deps.store.db;
  const known = knownAt(at);
  const series = await db
    .selectFrom('energy_series')
    .selectAll()
    .where(known)
    .orderBy('report')
    .orderBy('position')
    .execute();
  const reports = await db
    .selectFrom('energy_reports')
    .selectAll()
    .where(known)
    .orderBy('week_ending', 'desc')
    .execute();
  const observations = series.length
    ? await db
        .selectFrom('energy_observations')
        .select(['series_id', 'week_ending', 'value', 'known_at', 'known_from'])
        .where(known)
        .where(
          'series_id',
          'in',
          series.map((s) => s.series_id),
        )
        .orderBy('week_ending')
        .execute()
    : [];
  const bySeries = new Map<string, HeldObservation[]>();
  for (const o of observations) {
    const list = bySeries.get(o.series_id) ?? [];
    list.push({
      weekEnding: o.week_ending,
      value: Number(o.value),
      knownAt: o.known_at,
      knownFrom: o.known_from,
    });
    bySeries.set(o.series_id, list);
  }
  return { series, reports, observations, bySeries };
}

/** A series' row of the board for its report's latest week, and the observation it shows (null: none). */
function seriesRow(
  s: { series_id: string; report: string; tab: string; label: string; unit: string },
  week: string | null,
  all: HeldObservation[],
) {
  const history = week ? all.filter((o) => o.weekEnding >= daysBefore(week, LOOKBACK_DAYS)) : [];
  const index = week ? history.findIndex((o) => o.weekEnding === week) : -1;
  const current = index >= 0 ? history[index]! : null;
  const previous = index > 0 ? history[index - 1]! : null;
  const fiveYear = current ? fiveYearAverage(history, current.weekEnding) : null;
  const row = {
    id: s.series_id,
    key: s.series_id.toLowerCase(),
    report: week ? `${s.report}-${week}` : s.report,
    tab: s.tab,
    label: s.label,
    unit: s.unit,
    weekEnding: week ?? '',
    value: current?.value ?? null,
    previousWeekEnding: previous?.weekEnding ?? null,
    weekChange: current ? weekChange(current.value, previous?.value ?? null) : null,
    yearAgo: current ? yearAgo(history, current.weekEnding) : null,
    fiveYear,
    read: current ? readLevel(current.value, fiveYear) : null,
    seasonal: current ? readSeason(seasonalChange(history, current.weekEnding)) : null,
  };
  return { row, current };
}

/** Each report's latest week with its release times, as the calendar held gives them. */
function latestReportsOf(
  latestWeek: Map<string, string>,
  reports: Awaited<ReturnType<typeof heldInventories>>['reports'],
) {
  return [...latestWeek.entries()].map(([report, week]) => {
    const row = reports.find((r) => r.report === report && r.week_ending === week);
    return {
      id: `${report}-${week}`,
      weekEnding: week,
      releasedAt: row?.released_at ?? null,
      releaseHoliday: row?.release_holiday === 1,
      nextWeekEnding: row?.next_week_ending ?? null,
      nextReleaseAt: row?.next_release_at ?? null,
      nextReleaseHoliday: row?.next_release_holiday === 1,
    };
  });
}
