// Statement series from reported facts: annual and quarterly periods, with a missing fiscal Q4 derived as the
// full year less Q1 to Q3 when the four figures come from one concept (balance-sheet fields take the year-end
// figure; average share counts are left out).
// Pure: tested on hand-worked and SEC-published numbers.

export interface Fact {
  kind: 'duration' | 'instant';
  /** '' for an instant */
  start: string;
  end: string;
  value: number;
  fp: string;
  /** The XBRL concept it was read from, where known: a derived quarter never mixes two. */
  concept?: string;
}

export interface StatementPoint {
  end: string;
  value: number;
  derived: boolean;
}

const DAY = 86_400_000;
const days = (f: Fact) => (Date.parse(f.end) - Date.parse(f.start)) / DAY;
const isYear = (f: Fact) => f.kind === 'duration' && days(f) >= 350 && days(f) <= 380;
const isQuarter = (f: Fact) => f.kind === 'duration' && days(f) >= 80 && days(f) <= 100;

/** Fields whose full year is not the sum of its quarters. */
export const NOT_SUMMABLE = new Set(['basicShares', 'dilutedShares']);

export function statementSeries(
  field: string,
  facts: readonly Fact[],
  period: 'annual' | 'quarterly',
): StatementPoint[] {
  const byEnd = new Map<string, StatementPoint>();
  const put = (end: string, value: number, derived: boolean) => {
    if (!byEnd.has(end) || (byEnd.get(end)?.derived && !derived)) byEnd.set(end, { end, value, derived });
  };
  const instants = facts.filter((f) => f.kind === 'instant');
  if (instants.length) {
    for (const f of instants) if (period === 'quarterly' || f.fp === 'FY') put(f.end, f.value, false);
    return [...byEnd.values()].sort((a, b) => a.end.localeCompare(b.end));
  }
  const years = facts.filter(isYear);
  if (period === 'annual') {
    for (const f of years) put(f.end, f.value, false);
  } else {
    const quarters = facts.filter(isQuarter);
    for (const q of quarters) put(q.end, q.value, false);
    if (!NOT_SUMMABLE.has(field)) {
      for (const year of years) {
        if (quarters.some((q) => q.end === year.end)) continue;
        const inside = quarters.filter((q) => q.start >= year.start && q.end < year.end);
        const distinct = [...new Map(inside.map((q) => [q.end, q])).values()];
        if (distinct.length !== 3 || distinct.some((q) => q.concept !== year.concept)) continue;
        put(year.end, year.value - distinct.reduce((a, q) => a + q.value, 0), true);
      }
    }
  }
  return [...byEnd.values()].sort((a, b) => a.end.localeCompare(b.end));
}

/** A reported figure with when it was filed and, where restated later, each value it was reported at. */
interface Reported {
  value: number;
  filed?: string;
  reports?: readonly { value: number; filed: string }[];
}

/**
 * The facts as the filings accepted by the end of `asOf` (YYYY-MM-DD) reported them: each period at the value
 * of the last report filed by then, none when no filing had reported it yet. A fact without a filing date
 * cannot be placed in time and is left out.
 */
export function factsKnownOn<F extends Reported>(facts: readonly F[], asOf: string): F[] {
  const out: F[] = [];
  for (const fact of facts) {
    if (fact.filed && fact.filed <= asOf) out.push(fact);
    else {
      const known = fact.reports?.filter((r) => r.filed <= asOf).at(-1);
      if (known) out.push({ ...fact, value: known.value, filed: known.filed });
    }
  }
  return out;
}
