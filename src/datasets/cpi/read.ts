// cpi read: the board of the latest release, each component with weight, changes and contributions.

import { cachedRead } from '../../ingest/read-cache.js';
import type { Deps } from '../../kernel/deps.js';
import { type EnvelopeValue, storedMeta } from '../envelope.js';
import { freshBoard } from '../freshness.js';
import { asOfInstant, knownAt, newestKnown, readInstant } from '../known.js';
import type { OperationInput } from '../operation.js';
import {
  annualized,
  contribution,
  type IndexSeries,
  monthsBefore,
  percentChange,
  readPace,
  weightAt,
} from './derive.js';
import { cpiFreshness } from './load/collection.js';
import { BLS, BLS_DISCLAIMER } from './source.js';

/** Headline rows shown first by clients. */
const PINNED = new Set(['SA0', 'SA0L1E', 'SAF1', 'SA0E']);
const ALL_ITEMS = 'SA0';
/** All items (on both bases) and the purchasing power of the dollar: the board's frame, not its components. */
const NOT_COMPONENTS = new Set([ALL_ITEMS, 'AA0', 'SA0R', 'AA0R']);
const HISTORY_MONTHS = 13;

type Levels = Map<string, Map<string, number>>;

function levels(
  rows: { item_code: string; seasonal: string; period: string; value: number }[],
  seasonal: string,
): Levels {
  const out: Levels = new Map();
  for (const r of rows) {
    if (r.seasonal !== seasonal) continue;
    const series = out.get(r.item_code) ?? new Map<string, number>();
    series.set(r.period, Number(r.value));
    out.set(r.item_code, series);
  }
  return out;
}

function nextMonth(period: string): string {
  return monthsBefore(period, -1);
}

/**
 * The board of the newest release, or, with asOf, the board as it was known at the end of that day: every
 * index, weight and release as published by then (a later vintage's revisions not yet known), and fresh as of
 * then: a month the BLS had published by that day and the store did not yet know of is a gap.
 */
export async function readBoard(
  deps: Deps,
  { query }: OperationInput<{ asOf?: string }, object>,
): Promise<EnvelopeValue<unknown>> {
  const at = asOfInstant(deps, query.asOf);
  return freshBoard(
    deps,
    cpiFreshness,
    () => cachedRead(deps.store.db, 'cpi', `board:${at ?? 'now'}`, () => computeBoard(deps, at)),
    { at },
  );
}

/** The board with no index value held (as known at `at`). */
function emptyBoard(deps: Deps, at: string | null): EnvelopeValue<unknown> {
  return {
    data: frame(
      deps,
      [],
      [at ? `nothing published by ${at.slice(0, 10)} is held` : 'no index values loaded'],
      null,
      null,
    ),
    meta: storedMeta('cpi', [BLS], { readAsOf: readInstant(deps, at) }),
  };
}

/** The months the all-items index is held for (as known), newest first. */
async function allItemsPeriods(deps: Deps, known: ReturnType<typeof knownAt>): Promise<string[]> {
  const rows = await deps.store.db
    .selectFrom('cpi_index')
    .select('period')
    .distinct()
    .where(known)
    .where('item_code', '=', ALL_ITEMS)
    .orderBy('period', 'desc')
    .execute();
  return rows.map((r) => r.period);
}

async function computeBoard(deps: Deps, at: string | null): Promise<EnvelopeValue<unknown>> {
  const db = deps.store.db;
  const known = knownAt(at);
  const allPeriods = await allItemsPeriods(deps, known);
  const newestAll = allPeriods[0];
  if (!newestAll) return emptyBoard(deps, at);
  const period = await boardPeriod(deps, allPeriods, known);
  const release = await db
    .selectFrom('cpi_releases')
    .selectAll()
    .where(known)
    .where('period', '=', period)
    .executeTakeFirst();
  const gaps: string[] = [];
  if (period < newestAll) {
    const allOnly = allPeriods.filter((p) => p > period).reverse();
    gaps.push(
      `all items only for ${span(allOnly)}: no component index is held after ${period}, so the board shows ${period}`,
    );
  }

  const { weightsPeriod, weightOf } = await releaseWeights(deps, known, period);
  if (!weightsPeriod) gaps.push('no relative importance loaded for this release');

  const from = monthsBefore(period, 12 + HISTORY_MONTHS);
  const start = weightsPeriod && weightsPeriod < from ? weightsPeriod : from;
  const indexRows = await db
    .selectFrom('cpi_index')
    .select(['item_code', 'seasonal', 'period', 'value', 'known_at', 'known_from'])
    .where(known)
    .where('period', '>=', start)
    .where('period', '<=', period)
    .execute();
  const mixed = mixedReleases(indexRows, period);
  if (mixed) gaps.push(mixed);
  const adjusted = levels(indexRows, 'S');
  const unadjusted = levels(indexRows, 'U');
  const allNsa = unadjusted.get(ALL_ITEMS) ?? adjusted.get(ALL_ITEMS) ?? new Map();

  const items = await itemsAt(deps, at);

  const rows = items.flatMap((item) => {
    const sa: IndexSeries | undefined = adjusted.get(item.item_code) ?? unadjusted.get(item.item_code);
    const nsa: IndexSeries | undefined = unadjusted.get(item.item_code) ?? adjusted.get(item.item_code);
    if (!sa || !nsa || !(sa.has(period) || nsa.has(period))) return [];
    return [boardRow(item, { sa, nsa, allNsa }, period, weightOf.get(item.item_code) ?? null, weightsPeriod)];
  });
  gaps.push(...componentGaps(items, rows, period, allNsa));

  // When the newest index value the board is computed from became known.
  const published = newestKnown(indexRows);
  const releaseView = {
    period,
    releasedAt: release?.released_at ?? null,
    weightsPeriod: weightsPeriod ?? null,
    nextPeriod: release?.next_period ?? nextMonth(period),
    nextReleaseAt: release?.next_release_at ?? null,
  };
  return {
    data: frame(deps, rows, gaps, releaseView, release?.loaded_at ?? null),
    meta: {
      ...storedMeta('cpi', [BLS], {
        readAsOf: readInstant(deps, at),
        // The release's own time where its record states it, else when the newest index value became known.
        asOf: release?.released_at ?? published?.knownAt ?? null,
        knownFrom: release?.released_at ? 'record' : (published?.knownFrom ?? null),
        newestPeriod: period,
        historyStarts: `${allPeriods.at(-1)}-01`,
        coverage: { components: rows.length, period, weightsPeriod: weightsPeriod ?? null },
      }),
      disclaimer: BLS_DISCLAIMER,
    },
  };
}

/** The relative importance the board weighs by: the newest weights of a period before the board's. */
async function releaseWeights(deps: Deps, known: ReturnType<typeof knownAt>, period: string) {
  const db = deps.store.db;
  const newest = await db
    .selectFrom('cpi_weights')
    .select((eb) => eb.fn.max('weights_period').as('p'))
    .where(known)
    .where('weights_period', '<', period)
    .executeTakeFirst();
  const weightsPeriod = typeof newest?.p === 'string' ? newest.p : null;
  const weights = weightsPeriod
    ? await db
        .selectFrom('cpi_weights')
        .select(['item_code', 'weight'])
        .where(known)
        .where('weights_period', '=', weightsPeriod)
        .execute()
    : [];
  return { weightsPeriod, weightOf: new Map(weights.map((w) => [w.item_code, Number(w.weight)])) };
}

/** An item's row of the board: its changes, paces, contributions and recent history. */
function boardRow(
  item: { item_code: string; label: string; depth: number; parent: string | null },
  series: { sa: IndexSeries; nsa: IndexSeries; allNsa: IndexSeries },
  period: string,
  published: number | null,
  weightsPeriod: string | null,
) {
  const { sa, nsa, allNsa } = series;
  const weightThen = (months: number) =>
    published === null || !weightsPeriod
      ? null
      : weightAt(published, weightsPeriod, monthsBefore(period, months), nsa, allNsa);
  const a3 = annualized(sa, period, 3);
  const a6 = annualized(sa, period, 6);
  const history: [string, number | null, number | null][] = [];
  for (let back = HISTORY_MONTHS - 1; back >= 0; back -= 1) {
    const p = monthsBefore(period, back);
    history.push([p, percentChange(sa, p, 1), percentChange(nsa, p, 12)]);
  }
  return {
    id: `CPI.${item.item_code}`,
    code: item.item_code,
    label: item.label,
    depth: item.depth,
    parent: item.parent,
    pinned: PINNED.has(item.item_code),
    derived: false,
    weight: published,
    change: percentChange(sa, period, 1),
    annualized3m: a3,
    annualized6m: a6,
    yoy: percentChange(nsa, period, 12),
    contribution: contribution(weightThen(1), percentChange(sa, period, 1, null)),
    contributionYoy: contribution(weightThen(12), percentChange(nsa, period, 12, null)),
    read: readPace(a3, a6),
    history,
  };
}

/** What the board lacks: components, major groups, or months of the all-items index. */
function componentGaps(
  items: { item_code: string; label: string; depth: number }[],
  rows: { code: string }[],
  period: string,
  allNsa: IndexSeries,
): string[] {
  const gaps: string[] = [];
  if (rows.length === 0) gaps.push('no component has an index value for this release');
  const missingGroups = items.filter(
    (i) => i.depth === 0 && !NOT_COMPONENTS.has(i.item_code) && !rows.some((r) => r.code === i.item_code),
  );
  if (rows.length > 0 && missingGroups.length) {
    gaps.push(
      `no index value for ${period} of the major group${missingGroups.length > 1 ? 's' : ''} ${missingGroups
        .map((i) => i.label.toLowerCase())
        .join(', ')}`,
    );
  }
  const missing = missingMonths(allNsa, monthsBefore(period, 12 + HISTORY_MONTHS - 1), period);
  if (missing.length) {
    gaps.push(`no all-items index value for ${missing.join(', ')}: the changes across those months are null`);
  }
  return gaps;
}

function frame(
  deps: Deps,
  rows: unknown[],
  gaps: string[],
  release: {
    period: string;
    releasedAt: string | null;
    weightsPeriod: string | null;
    nextPeriod: string | null;
    nextReleaseAt: string | null;
  } | null,
  retrievedAt: string | null,
) {
  return {
    source: 'bls',
    generatedAt: deps.clock().toISOString(),
    retrievedAt,
    status: gaps.length === 0 ? 'available' : 'partial',
    gaps,
    release: release ?? {
      period: null,
      releasedAt: null,
      weightsPeriod: null,
      nextPeriod: null,
      nextReleaseAt: null,
    },
    rows,
  };
}

/**
 * Where the month's all-items values and its components' were published apart (the demo: components as the
 * August 2025 release printed them, all items as the March 2026 release revised them), a gap says so: their
 * seasonal factors differ, and contributions set one against the other.
 */
function mixedReleases(
  rows: readonly { item_code: string; period: string; known_at: string }[],
  period: string,
): string | null {
  const newest = (keep: (code: string) => boolean) =>
    rows
      .filter((r) => r.period === period && keep(r.item_code))
      .map((r) => r.known_at)
      .sort()
      .at(-1);
  const allItems = newest((code) => code === ALL_ITEMS);
  const components = newest((code) => !NOT_COMPONENTS.has(code));
  if (!allItems || !components || allItems.slice(0, 10) === components.slice(0, 10)) return null;
  return (
    `${period}: all items as published ${allItems.slice(0, 10)}, the components as published ` +
    `${components.slice(0, 10)}: their seasonal factors come from different releases`
  );
}

/**
 * The item list (labels and hierarchy) as known at `at`, ordered for the board. The list describes codes
 * rather than reporting figures: an item whose index values were published by then but whose entry in the
 * list was loaded as published later is described by its oldest entry held, so that the order in which the
 * files were loaded never hides a component.
 */
async function itemsAt(deps: Deps, at: string | null) {
  const columns = ['item_code', 'label', 'depth', 'parent', 'sort_sequence'] as const;
  const db = deps.store.db;
  if (at === null)
    return db.selectFrom('cpi_items').select(columns).where(knownAt(null)).orderBy('sort_sequence').execute();
  const revisions = await db
    .selectFrom('cpi_items')
    .select([...columns, 'known_at', 'superseded_at'])
    .orderBy('known_at')
    .execute();
  const chosen = new Map<string, (typeof revisions)[number]>();
  for (const r of revisions) {
    const current = r.known_at <= at && (r.superseded_at === null || r.superseded_at > at);
    if (current || !chosen.has(r.item_code)) chosen.set(r.item_code, r);
  }
  return [...chosen.values()]
    .sort((a, b) => a.sort_sequence - b.sort_sequence)
    .map(({ known_at: _k, superseded_at: _s, ...item }) => item);
}

/**
 * The month the board shows: the newest one for which a component is held beside all items, so that a
 * release of all items alone does not empty the board; the newest all-items month when no component is held.
 */
async function boardPeriod(
  deps: Deps,
  allPeriods: string[],
  known: ReturnType<typeof knownAt>,
): Promise<string> {
  const newestComponent = await deps.store.db
    .selectFrom('cpi_index')
    .select((eb) => eb.fn.max('period').as('p'))
    .where(known)
    .where('item_code', 'not in', [...NOT_COMPONENTS])
    .where('period', '<=', allPeriods[0]!)
    .executeTakeFirst();
  const held = newestComponent?.p;
  return (held && allPeriods.find((p) => p <= held)) ?? allPeriods[0]!;
}

/** "2025-09" or "2025-09 to 2026-03 (6 months)". */
function span(periods: string[]): string {
  const first = periods[0];
  const last = periods.at(-1);
  return periods.length === 1 ? `${first}` : `${first} to ${last} (${periods.length} months)`;
}

/** Months from `from` to `to` that the series has no value for, after its first value. */
function missingMonths(series: IndexSeries, from: string, to: string): string[] {
  const out: string[] = [];
  let seen = false;
  for (let p = from; p <= to; p = monthsBefore(p, -1)) {
    if (series.has(p)) seen = true;
    else if (seen) out.push(p);
  }
  return out;
}
