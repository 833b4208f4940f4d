// A reported period's own identity: its end date and its length (a fiscal year, a quarter, or a point in
// time), with the fiscal year and quarter read from the dates. A fact's `fy` and `fp` belong to the filing
// that reported it, not to the period: a 10-K reports three years, all tagged with its own fy.
import { addDays } from '../../kernel/dates.js';
import type { ConceptFacts } from './concepts.js';

export type PeriodKind = 'year' | 'quarter' | 'point';

const DAY = 86_400_000;
const days = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY);

/** year for 350–380 days, quarter for 80–100, null for anything else (year-to-date, transition periods). */
export function kindOf(start: string | undefined, end: string): PeriodKind | null {
  if (!start) return 'point';
  const length = days(start, end) + 1;
  if (length >= 350 && length <= 380) return 'year';
  if (length >= 80 && length <= 100) return 'quarter';
  return null;
}

/**
 * A company's fiscal calendar: the month its fiscal year ends, taken from the year-long periods its annual
 * reports cover (the most frequent end month; December when there are none). A 52/53-week year ends within
 * a week after that month.
 */
export class FiscalCalendar {
  constructor(readonly endMonth: number) {}

  static fromYearEnds(ends: readonly string[]): FiscalCalendar {
    const counts = new Map<number, number>();
    for (const end of ends) {
      // A year ending in the first week of a month belongs to the month before (a 53-week year).
      const month = Number(addDays(end, -7).slice(5, 7));
      counts.set(month, (counts.get(month) ?? 0) + 1);
    }
    const best = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0];
    return new FiscalCalendar(best ? best[0] : 12);
  }

  /** The last day of the end month in `year`. */
  private yearEnd(year: number): string {
    return new Date(Date.UTC(year, this.endMonth, 0)).toISOString().slice(0, 10);
  }

  /** The fiscal year a date falls in, named by the calendar year its fiscal year ends in. */
  fiscalYear(date: string): number {
    const year = Number(date.slice(0, 4));
    return date <= addDays(this.yearEnd(year), 7) ? year : year + 1;
  }

  /** The fiscal quarter a quarter (or a quarter-end instant) ends, or null when the date ends none. */
  fiscalQuarter(date: string): number | null {
    const since = days(this.yearEnd(this.fiscalYear(date) - 1), date);
    const quarter = Math.round(since / 91.3);
    if (quarter < 1 || quarter > 4 || Math.abs(since - quarter * 91.3) > 10) return null;
    return quarter;
  }

  label(kind: PeriodKind, end: string): string {
    const fy = this.fiscalYear(end);
    const q = this.fiscalQuarter(end);
    if (kind === 'year') return `FY${fy}`;
    if (kind === 'quarter') return `Q${q} FY${fy}`;
    if (q === 4) return `end of FY${fy}`;
    return q ? `end of Q${q} FY${fy}` : `as of ${end}`;
  }
}

/**
 * Whether a later figure only rounds an earlier one (4,130,162,000 reported again as 4,130,000,000): the
 * one with fewer significant digits equals the other rounded to its precision, and they differ by under 0.1%.
 */
export function sameUpToRounding(a: number, b: number): boolean {
  if (a === b) return true;
  // Trailing zeros can be chance (1,000 and 1,450): a rounding moves a figure by well under a tenth of a percent.
  if (Math.abs(a - b) > 0.001 * Math.max(Math.abs(a), Math.abs(b))) return false;
  const [coarse, fine] = precision(a) >= precision(b) ? [a, b] : [b, a];
  const step = 10 ** precision(coarse);
  return Math.abs(Math.round(fine / step) * step - coarse) < step * 1e-9 + Number.EPSILON;
}

/** The power of ten a number is a multiple of: 3 for 4,130,000,000's …000, -2 for 2.05. */
function precision(value: number): number {
  if (value === 0) return 0;
  const text = Math.abs(value).toString();
  if (text.includes('e')) return 0;
  const [whole, fraction] = text.split('.');
  if (fraction) return -fraction.length;
  const zeros = /0*$/.exec(whole as string)?.[0].length ?? 0;
  return zeros;
}

/** The end dates of the year-long periods a company's annual reports (10-K, 20-F, 40-F) cover, over all its concepts. */
export function annualEnds(gaap: Record<string, ConceptFacts>): string[] {
  const ends = new Set<string>();
  for (const concept of Object.values(gaap)) {
    for (const facts of Object.values(concept.units ?? {})) {
      for (const f of facts)
        if (/^(10-K|20-F|40-F)/.test(f.form ?? '') && kindOf(f.start, f.end) === 'year') ends.add(f.end);
    }
  }
  return [...ends];
}
