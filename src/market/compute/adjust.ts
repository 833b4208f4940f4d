// A daily series as traded, split-adjusted or with dividends reinvested, from the split-adjusted bars a provider
// holds and the listing's corporate actions. Pure: plain bars and actions in, new bars out.
//
// - `split` is the series as held (each price in today's shares).
// - `none` is the series as traded: a bar before a split is multiplied by the split's ratio (and its volume
//   divided by it), so that before AAPL's 4-for-1 split of 2020-08-31 the close is the one quoted then.
// - `total` reinvests each dividend on its ex-date: every bar before it is multiplied by 1 - D / C, where C is
//   the close of the last bar before the ex-date (both in today's shares). The newest bar keeps its price, as
//   the upstreams' own adjusted closes do, so any two bars' ratio is the total return between them.
import type { ActionSpan, Bar, CorporateAction } from '../../kernel/market-provider.js';

export const ADJUSTMENTS = ['split', 'none', 'total'] as const;
export type Adjustment = (typeof ADJUSTMENTS)[number];

/**
 * The factor each bar's prices are multiplied by, index for index: the product, over the actions whose ex-date
 * is after the bar, of each action's own factor — `step` of the action and the last bar before its ex-date.
 */
function factors(
  series: readonly Bar[],
  actions: readonly CorporateAction[],
  step: (action: CorporateAction, lastBefore: Bar) => number,
): Float64Array {
  const out = new Float64Array(series.length);
  const newestFirst = [...actions].sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  let factor = 1;
  let next = 0;
  for (let i = series.length - 1; i >= 0; i -= 1) {
    const bar = series[i] as Bar;
    // The actions between this bar and the one after it: this bar is the last before each.
    while (next < newestFirst.length && (newestFirst[next] as CorporateAction).date > bar.date) {
      factor *= step(newestFirst[next] as CorporateAction, bar);
      next += 1;
    }
    out[i] = factor;
  }
  return out;
}

/** A split's ratio: shares after for each share before (4 for AAPL's 4-for-1). */
const ratio = (split: CorporateAction) =>
  split.numerator && split.denominator ? split.numerator / split.denominator : 1;

/** The multipliers of `adjustment`, index for index with the series; null for `split` (the series as held). */
export function adjustmentFactors(
  series: readonly Bar[],
  actions: readonly CorporateAction[],
  adjustment: Adjustment,
): Float64Array | null {
  if (adjustment === 'split') return null;
  if (adjustment === 'none')
    return factors(
      series,
      actions.filter((a) => a.type === 'split'),
      (split) => ratio(split),
    );
  return factors(
    series,
    actions.filter((a) => a.type !== 'split' && a.amount !== undefined && !a.inDividend),
    (dividend, lastBefore) => 1 - (dividend.amount as number) / lastBefore.close,
  );
}

/** Significant digits an adjusted price keeps: far finer than any price's own, without float noise. */
const PRECISION = 10;

/**
 * The series under an adjustment: the same array for `split`, else new bars with each price multiplied by its
 * factor and (as traded) each volume divided by it, to whole shares.
 */
export function adjustedSeries(
  series: readonly Bar[],
  actions: readonly CorporateAction[],
  adjustment: Adjustment,
): readonly Bar[] {
  const by = adjustmentFactors(series, actions, adjustment);
  if (!by) return series;
  const scale = (value: number | null, factor: number) =>
    value === null ? null : Number((value * factor).toPrecision(PRECISION));
  return series.map((bar, i) => {
    const factor = by[i] as number;
    if (factor === 1) return bar;
    return {
      date: bar.date,
      open: scale(bar.open, factor),
      high: scale(bar.high, factor),
      low: scale(bar.low, factor),
      close: Number((bar.close * factor).toPrecision(PRECISION)),
      volume: adjustment === 'none' && bar.volume !== null ? Math.round(bar.volume / factor) : bar.volume,
    };
  });
}

/** A bar with its total-return index beside its prices (history's TOT_RETURN_INDEX_GROSS_DVDS). */
export interface IndexedBar extends Bar {
  totalReturn?: number;
}

const kept = new WeakMap<
  readonly Bar[],
  WeakMap<readonly CorporateAction[], Map<string, readonly IndexedBar[]>>
>();

/**
 * The series under an adjustment, with each bar's total-return index when `withIndex`: one array per series,
 * actions, adjustment and index (a provider answers the same arrays until its data changes), so what is
 * derived from it downstream (history's written rows) is kept too.
 */
export function keptAdjusted(
  series: readonly Bar[],
  actions: readonly CorporateAction[],
  adjustment: Adjustment,
  withIndex: boolean,
): readonly IndexedBar[] {
  if (adjustment === 'split' && !withIndex) return series;
  let byActions = kept.get(series);
  if (!byActions) {
    byActions = new WeakMap();
    kept.set(series, byActions);
  }
  let byKey = byActions.get(actions);
  if (!byKey) {
    byKey = new Map();
    byActions.set(actions, byKey);
  }
  const key = `${adjustment}${withIndex ? '+index' : ''}`;
  const held = byKey.get(key);
  if (held) return held;
  const adjusted = adjustedSeries(series, actions, adjustment);
  let out: readonly IndexedBar[] = adjusted;
  if (withIndex) {
    const total = adjustment === 'total' ? adjusted : adjustedSeries(series, actions, 'total');
    out = adjusted.map((bar, i) => ({ ...bar, totalReturn: (total[i] as Bar).close }));
  }
  byKey.set(key, out);
  return out;
}

/** Days between two spans that still make one: a weekend and a holiday between two sources' windows. */
const JOINING_DAYS = 7;

const daysBetween = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 86_400_000;

/** The spans over which actions of a type are known, overlapping and adjoining ones joined, oldest first. */
export function knownSpans(
  known: readonly ActionSpan[],
  type: CorporateAction['type'],
): { start: string; end: string }[] {
  const spans = known
    .filter((s) => s.type === type)
    .map((s) => ({ start: s.start, end: s.end }))
    .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const out: { start: string; end: string }[] = [];
  for (const span of spans) {
    const last = out.at(-1);
    if (last && daysBetween(last.end, span.start) <= JOINING_DAYS) {
      if (span.end > last.end) last.end = span.end;
    } else out.push(span);
  }
  return out;
}

/** Whether the actions of a type are known on every day from `start` to `end`. */
export function knownThrough(
  known: readonly ActionSpan[],
  type: CorporateAction['type'],
  start: string,
  end: string,
): boolean {
  return knownSpans(known, type).some((span) => span.start <= start && span.end >= end);
}

/** Spans as words: "from 2021-02-01 to 2022-01-28 and from …", or "on no day". */
export function spansText(spans: readonly { start: string; end: string }[]): string {
  return spans.length ? spans.map((s) => `from ${s.start} to ${s.end}`).join(' and ') : 'on no day';
}
