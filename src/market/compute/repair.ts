// Yahoo's 100× unit slips: on listings quoted in minor units (London pence, Johannesburg cents, Tel Aviv
// agorot), a day's price now and then arrives in the other unit — 1.5676 among 156-ish, or 15,676 among
// 156-ish. Each open, high, low and close is compared with the median close of the ten bars around it; a value
// about 100 times too small or too large (within a factor of two of exactly 100) is scaled back, and the
// repair is reported so that the answer can say so. No real day-to-day move is a factor of 50 to 200.
import type { Bar, Repair } from '../../kernel/market-provider.js';

const FIELDS = ['open', 'high', 'low', 'close'] as const;
const NEIGHBOURS = 5;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The factor that brings `value` back to the scale of `typical`: 100, 1/100, or 1 when it is in scale. */
function slip(value: number, typical: number): number {
  if (value <= 0 || typical <= 0) return 1;
  const ratio = typical / value;
  if (ratio > 50 && ratio < 200) return 100;
  if (ratio > 1 / 200 && ratio < 1 / 50) return 1 / 100;
  return 1;
}

/** Bars with unit slips scaled back (the same array when there are none), and what was changed. */
export function repairUnitSlips(bars: readonly Bar[]): { bars: readonly Bar[]; repairs: Repair[] } {
  const repairs: Repair[] = [];
  let out: Bar[] | null = null;
  for (let i = 0; i < bars.length; i += 1) {
    const around: number[] = [];
    for (let j = Math.max(0, i - NEIGHBOURS); j <= Math.min(bars.length - 1, i + NEIGHBOURS); j += 1)
      if (j !== i) around.push((bars[j] as Bar).close);
    if (around.length < 4) continue;
    const typical = median(around);
    const bar = bars[i] as Bar;
    let fixed: Bar | null = null;
    for (const field of FIELDS) {
      const value = bar[field];
      if (value === null) continue;
      const factor = slip(value, typical);
      if (factor === 1) continue;
      const to = Math.round(value * factor * 1e6) / 1e6;
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
