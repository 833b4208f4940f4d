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
import type { Bar, Repair } from '../../../kernel/market-provider.js';

const FIELDS = ['open', 'high', 'low', 'close'] as const;
const SLIP = 'sent in the other unit (a hundredth or a hundred times its neighbours): scaled back';

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
      repairs.push({ date: bar.date, field, from: value, to, reason: SLIP });
    }
    if (fixed) {
      out ??= [...bars];
      out[i] = bounded(fixed, bar, repairs);
    }
  }
  return { bars: out ?? bars, repairs };
}

/**
 * A repaired bar's low no higher than its open and close, and its high no lower: a slipped low brought back
 * above the open (ASAI.L's 0.6 for 60 beside an open of 58.5) is the open.
 */
function bounded(fixed: Bar, sent: Bar, repairs: Repair[]): Bar {
  const ends = [fixed.close, ...(fixed.open === null ? [] : [fixed.open])];
  const low = fixed.low === null ? null : Math.min(fixed.low, ...ends);
  const high = fixed.high === null ? null : Math.max(fixed.high, ...ends);
  for (const [field, to] of [
    ['low', low],
    ['high', high],
  ] as const) {
    if (to === fixed[field] || to === null) continue;
    const entry = repairs.findLast((r) => r.date === fixed.date && r.field === field);
    if (entry) entry.to = to;
    else
      repairs.push({
        date: fixed.date,
        field,
        from: sent[field] as number,
        to,
        reason: `${SLIP}; the ${field} is then the ${to === fixed.close ? 'close' : 'open'}`,
      });
  }
  return { ...fixed, low, high };
}
