// Weekly and monthly bars built from daily bars: open of the first day, high and low over the period, close
// and date of the last trading day, volume summed. The period in progress is included as it stands.
import { addDays } from '../../kernel/dates.js';
import type { Bar } from '../../kernel/market-provider.js';

export type BarPeriod = 'daily' | 'weekly' | 'monthly';

/**
 * The date far enough before `today` to hold its last `count` daily closes: trading days are about five in
 * seven calendar days, and a month more covers holidays.
 */
export function closesSince(today: string, count: number): string {
  return addDays(today, -(Math.ceil((count * 7) / 5) + 31));
}

/** The Monday of a date's week (weeks run Monday to Sunday). */
export function weekOf(date: string): string {
  const t = Date.parse(`${date}T00:00:00Z`);
  const day = (new Date(t).getUTCDay() + 6) % 7;
  return new Date(t - day * 86_400_000).toISOString().slice(0, 10);
}

export function rollUp<B extends Bar>(bars: readonly B[], period: BarPeriod): B[] {
  if (period === 'daily') return [...bars];
  const keyOf = period === 'weekly' ? weekOf : (date: string) => date.slice(0, 7);
  const out: B[] = [];
  let key: string | null = null;
  for (const bar of bars) {
    const k = keyOf(bar.date);
    const last = out.at(-1);
    if (k !== key || !last) {
      out.push({ ...bar });
      key = k;
      continue;
    }
    const { open } = last;
    const high = max(last.high, bar.high);
    const low = min(last.low, bar.low);
    const volume =
      last.volume === null && bar.volume === null ? null : (last.volume ?? 0) + (bar.volume ?? 0);
    // The period's last bar gives its date, close and any other value as of its end.
    Object.assign(last, bar, { open, high, low, volume });
  }
  return out;
}

function max(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : Math.max(a, b);
}
function min(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : Math.min(a, b);
}

/** The indices [first, end) of the bars dated from `from` to `to` inclusive; either bound may be absent. */
export function barRange(bars: readonly Bar[], from?: string, to?: string): [number, number] {
  return [from ? lowerBound(bars, from) : 0, to ? lowerBound(bars, `${to}\uffff`) : bars.length];
}

/** The index of the first bar dated on or after `date`. */
function lowerBound(bars: readonly Bar[], date: string): number {
  let lo = 0;
  let hi = bars.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (bars[mid]!.date < date) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
