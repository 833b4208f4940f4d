// Yahoo's 100× unit slips: on listings quoted in minor units (London pence, Johannesburg cents, Tel Aviv
// agorot), a day's price — or a run of days, a whole month at times — now and then arrives in the other unit:
// 1.5676 among 156-ish. No real day-to-day move is a factor of 50 to 200, so a close that far from the one
// before it is a step into the other unit, and the steps cut the series into runs, each at a level (0, one
// step up, one step down, …). The series' own level is the one holding the most days; when two levels are
// within a factor of two of each other in days (neither is a slip among the other), the higher one wins, for
// these listings are quoted in minor units and a price in minor units is the larger. Every day of another
// level is scaled to the series' level, and its open, high and low are each checked against its close, so a
// single slipped field is found too. The repairs are reported so that the answer can say so. The whole series
// is judged at once: where a requested window starts changes nothing.
import type { Bar, CorporateAction, Repair } from '../../kernel/market-provider.js';

const FIELDS = ['open', 'high', 'low', 'close'] as const;

/** The power of 100 that brings `value` to the scale of `reference`: 1, -1 or 0 when in scale. */
function step(value: number, reference: number): number {
  if (value <= 0 || reference <= 0) return 0;
  const ratio = value / reference;
  if (ratio > 50 && ratio < 200) return 1;
  if (ratio > 1 / 200 && ratio < 1 / 50) return -1;
  return 0;
}

/** Each bar's level: how many 100× steps up (or down) its close is from the first bar's. */
function levels(bars: readonly Bar[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < bars.length; i += 1) {
    const previous = i === 0 ? 0 : out[i - 1]!;
    out.push(i === 0 ? 0 : previous + step(bars[i]!.close, bars[i - 1]!.close));
  }
  return out;
}

/** The series' own level: the most days, the higher of two within a factor of two of each other. */
function ownLevel(levelOf: number[]): number {
  const days = new Map<number, number>();
  for (const level of levelOf) days.set(level, (days.get(level) ?? 0) + 1);
  const [first, second] = [...days.entries()].sort((a, b) => b[1] - a[1]);
  if (!first) return 0;
  return second && second[1] * 2 > first[1] ? Math.max(first[0], second[0]) : first[0];
}

/** Bars with unit slips scaled back (the same array when there are none), and what was changed. */
export function repairUnitSlips(bars: readonly Bar[]): { bars: readonly Bar[]; repairs: Repair[] } {
  const levelOf = levels(bars);
  const own = ownLevel(levelOf);
  const repairs: Repair[] = [];
  let out: Bar[] | null = null;
  for (let i = 0; i < bars.length; i += 1) {
    const bar = bars[i]!;
    const factor = 100 ** (own - levelOf[i]!);
    const close = bar.close * factor;
    let fixed: Bar | null = null;
    for (const field of FIELDS) {
      const value = bar[field];
      if (value === null) continue;
      // A field may have slipped on its own: each is brought to the scale of the day's (repaired) close.
      const scale = field === 'close' ? factor : factor * 100 ** -step(value * factor, close);
      if (scale === 1) continue;
      const to = Math.round(value * scale * 1e6) / 1e6;
      fixed = { ...(fixed ?? bar), [field]: to };
      repairs.push({ date: bar.date, field, from: value, to });
    }
    if (fixed) {
      out ??= [...bars];
      out[i] = fixed;
    }
  }
  return { bars: out ?? bars, repairs };
}

/** Payments of a listing needed to judge each against the others; with fewer, only the price is the measure. */
const JUDGED_AMONG = 3;

/** How far a payment's share of the price may stray from the listing's usual one before it is a unit slip. */
function stepOf(share: number, usual: number | null): number {
  if (usual === null) return share > 1 && share / 100 <= 0.3 ? -1 : 0;
  // A payment twenty times the usual is far past a special dividend's; Yahoo's slips are a hundred times.
  const ratio = share / usual;
  if (ratio > 20 && ratio < 500) return -1;
  if (ratio < 1 / 20 && ratio > 1 / 500) return 1;
  return 0;
}

/**
 * Dividends and capital gains of a listing quoted in minor units that Yahoo sent in the other unit, judged by
 * their share of the close before the ex-date against the listing's usual share (the median of its payments):
 * one about a hundred times the usual, or a hundredth of it, is scaled back and keeps what was sent in
 * `repairedFrom`. With fewer than three payments, only a payment above the price itself is taken as one. The
 * bars are the listing's (unit slips already repaired); the same array comes back when nothing is changed.
 */
export function repairPaymentUnits(
  bars: readonly Bar[],
  actions: readonly CorporateAction[],
): readonly CorporateAction[] {
  const shares: { index: number; share: number }[] = [];
  let b = 0;
  for (const [index, action] of actions.entries()) {
    if (action.type === 'split' || action.amount === undefined) continue;
    while (b < bars.length && (bars[b] as Bar).date < action.date) b += 1;
    const before = bars[b - 1];
    if (before && before.close > 0) shares.push({ index, share: action.amount / before.close });
  }
  const sorted = shares.map((s) => s.share).sort((x, y) => x - y);
  const usual = sorted.length >= JUDGED_AMONG ? (sorted[sorted.length >> 1] as number) : null;
  let out: CorporateAction[] | null = null;
  for (const { index, share } of shares) {
    const step = stepOf(share, usual);
    if (step === 0) continue;
    const action = actions[index] as CorporateAction;
    const sent = action.amount as number;
    out ??= [...actions];
    out[index] = { ...action, amount: Math.round(sent * 100 ** step * 1e10) / 1e10, repairedFrom: sent };
  }
  return out ?? actions;
}

/**
 * A listing's bars and actions as served: on a listing quoted in minor units, unit slips scaled back, then its
 * payments judged against the repaired bars. Everything else comes back as it is.
 */
export function repairListing(
  minorUnits: boolean,
  bars: readonly Bar[],
  actions: readonly CorporateAction[],
): { bars: readonly Bar[]; actions: readonly CorporateAction[]; repairs: readonly Repair[] } {
  if (!minorUnits) return { bars, actions, repairs: [] };
  const slips = repairUnitSlips(bars);
  return { bars: slips.bars, actions: repairPaymentUnits(slips.bars, actions), repairs: slips.repairs };
}
