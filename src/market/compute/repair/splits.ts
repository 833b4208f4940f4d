// Splits Yahoo did not apply to some bars, or applied twice (docs/adr/038). Bars are held in today's shares, so a
// split leaves no step in them; where Yahoo missed it, the bars it missed stand the split's ratio away from
// their neighbours (4063.T's closes before its 5-for-1 split of 2023-03-30 at 20,710 beside 4,206), and where
// it applied it twice they stand the ratio the other way. Each split cuts the series into runs at the steps of
// about its ratio between one close and the next; the runs at the level most bars from the split's ex-date
// on hold are right, and a run of another level that reaches within a year of the ex-date is scaled to it:
// its prices by the ratio, its volume the other way. Splits of less than 1.8 for 1 (or 1 for 1.8) are not
// judged: their ratio is within a day's move. Pure: bars in, bars out.
import type { Bar, CorporateAction, Repair } from '../../../kernel/market-provider.js';

const PRICES = ['open', 'high', 'low', 'close'] as const;
/** The smallest ratio judged, and how far (a part of the ratio's logarithm) a step may be from it. */
const LEAST_RATIO = Math.log(1.8);
const STEP_TOLERANCE = 0.25;
/** How far from the ex-date a run may start and still be judged against the split. */
const WINDOW_DAYS = 366;

const dayOf = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

/** Each bar's level: how many steps of the split's ratio its close is from the first bar's. */
function levels(bars: readonly Bar[], logRatio: number): number[] {
  const out: number[] = [];
  const tolerance = Math.abs(logRatio) * STEP_TOLERANCE;
  for (let i = 0; i < bars.length; i += 1) {
    const previous = out[i - 1] ?? 0;
    const before = bars[i - 1];
    const move = before && before.close > 0 ? Math.log(bars[i]!.close / before.close) : 0;
    const step = Math.abs(move - logRatio) < tolerance ? 1 : Math.abs(move + logRatio) < tolerance ? -1 : 0;
    out.push(previous + step);
  }
  return out;
}

/** The level most bars in the year from the ex-date hold; null when none is held. */
function rightLevel(bars: readonly Bar[], levelOf: number[], exDate: number): number | null {
  const counts = new Map<number, number>();
  for (let i = 0; i < bars.length; i += 1) {
    const day = dayOf(bars[i]!.date);
    const level = levelOf[i]!;
    if (day < exDate || day > exDate + WINDOW_DAYS) continue;
    counts.set(level, (counts.get(level) ?? 0) + 1);
  }
  const [best] = [...counts].sort((a, b) => b[1] - a[1]);
  return best ? best[0] : null;
}

/** The bars with the runs one split's ratio away brought to the right level, and each value changed. */
function repairSplit(
  bars: readonly Bar[],
  split: { date: string; numerator: number; denominator: number },
  repairs: Repair[],
): readonly Bar[] {
  const ratio = split.numerator / split.denominator;
  const logRatio = Math.log(ratio);
  if (Math.abs(logRatio) < LEAST_RATIO) return bars;
  const levelOf = levels(bars, logRatio);
  const exDate = dayOf(split.date);
  const right = rightLevel(bars, levelOf, exDate);
  if (right === null) return bars;
  let out: Bar[] | null = null;
  const name = `${split.numerator}-for-${split.denominator} split of ${split.date}`;
  for (let start = 0; start < bars.length; ) {
    let end = start;
    while (end + 1 < bars.length && levelOf[end + 1] === levelOf[start]) end += 1;
    const off = levelOf[start]! - right;
    const near =
      dayOf(bars[end]!.date) >= exDate - WINDOW_DAYS && dayOf(bars[start]!.date) <= exDate + WINDOW_DAYS;
    if (Math.abs(off) === 1 && near) {
      out ??= [...bars];
      const reason =
        off === 1
          ? `in the shares before the ${name}, which was not applied to it: prices divided by ${ratio}, volume multiplied`
          : `adjusted twice for the ${name}: prices multiplied by ${ratio}, volume divided`;
      for (let i = start; i <= end; i += 1) out[i] = scaledBar(out[i]!, ratio ** off, reason, repairs);
    }
    start = end + 1;
  }
  return out ?? bars;
}

function scaledBar(bar: Bar, by: number, reason: string, repairs: Repair[]): Bar {
  const fixed: Bar = { ...bar };
  for (const field of PRICES) {
    const value = bar[field];
    if (value === null) continue;
    const to = Number((value / by).toPrecision(12));
    fixed[field] = to;
    repairs.push({ date: bar.date, field, from: value, to, reason });
  }
  if (bar.volume !== null) {
    // Shares are whole.
    const to = Math.round(bar.volume * by);
    fixed.volume = to;
    repairs.push({ date: bar.date, field: 'volume', from: bar.volume, to, reason });
  }
  return fixed;
}

/** Bars with the splits Yahoo missed (or applied twice) applied once, and what was changed, oldest first. */
export function repairSplits(
  bars: readonly Bar[],
  actions: readonly CorporateAction[],
): { bars: readonly Bar[]; repairs: Repair[] } {
  const repairs: Repair[] = [];
  let out = bars;
  for (const { type, date, numerator, denominator } of actions)
    if (type === 'split' && numerator && denominator)
      out = repairSplit(out, { date, numerator, denominator }, repairs);
  repairs.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return { bars: out, repairs };
}
