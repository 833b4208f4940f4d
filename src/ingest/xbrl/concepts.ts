// Which us-gaap concept states a figure, in one fallback order per figure, shared by the kpis loader and the
// market statements: all the periods of one fiscal year (its quarters, its full year, its balances) come from
// one concept of the list, and every revision of a period keeps to it, so two concepts never mix in a year.
// Apple's revenue, for one, is SalesRevenueNet to fiscal 2017 and
// RevenueFromContractWithCustomerExcludingAssessedTax from fiscal 2018.

export const CONCEPTS = {
  revenue: [
    'Revenues',
    'RevenueFromContractWithCustomerExcludingAssessedTax',
    'RevenueFromContractWithCustomerIncludingAssessedTax',
    'SalesRevenueNet',
  ],
  costOfRevenue: ['CostOfRevenue', 'CostOfGoodsAndServicesSold', 'CostOfGoodsSold'],
  grossProfit: ['GrossProfit'],
  researchAndDevelopment: ['ResearchAndDevelopmentExpense'],
  sellingGeneralAndAdministration: ['SellingGeneralAndAdministrativeExpense'],
  operatingExpenses: ['OperatingExpenses'],
  operatingIncome: ['OperatingIncomeLoss'],
  netIncome: ['NetIncomeLoss'],
  basicEps: ['EarningsPerShareBasic'],
  dilutedEps: ['EarningsPerShareDiluted'],
  dilutedShares: ['WeightedAverageNumberOfDilutedSharesOutstanding'],
  sharesOutstanding: ['CommonStockSharesOutstanding'],
  totalAssets: ['Assets'],
  totalLiabilities: ['Liabilities'],
  stockholdersEquity: ['StockholdersEquity'],
  cashAndEquivalents: ['CashAndCashEquivalentsAtCarryingValue'],
  longTermDebt: ['LongTermDebtNoncurrent'],
  operatingCashFlow: ['NetCashProvidedByUsedInOperatingActivities'],
  capitalExpenditure: ['PaymentsToAcquirePropertyPlantAndEquipment', 'PaymentsToAcquireProductiveAssets'],
} as const;

export type ConceptList = readonly string[];

/** One fact of EDGAR's company facts (data.sec.gov/api/xbrl/companyfacts). */
export interface XbrlFact {
  start?: string;
  end: string;
  val: number;
  accn: string;
  fy?: number | null;
  fp?: string | null;
  form?: string;
  filed: string;
  frame?: string;
}

/** A concept's facts in every unit: `{ units: { USD: [...] } }`. */
export type ConceptFacts = { label?: string; units?: Record<string, XbrlFact[]> };

/**
 * The facts of each period, every period of one fiscal year under one concept, so a year's quarters and its
 * full year (and a fourth quarter derived from them) never mix two concepts. A year's concept is the one that
 * states the most of its periods, the list's order breaking ties. `periodOf` names a fact's period (null
 * leaves the fact out), so filings that state a period's start differently still meet; `yearOf` names the
 * fiscal year a period belongs to.
 */
export function factsByPeriod(
  taxonomy: Record<string, ConceptFacts>,
  concepts: ConceptList,
  unitOf: (unit: string) => boolean,
  periodOf: (fact: XbrlFact) => string | null,
  yearOf: (fact: XbrlFact) => number,
): Map<string, { concept: string; unit: string; facts: XbrlFact[] }> {
  // Each concept's facts by fiscal year, then by period.
  const byConcept = concepts.map((concept) => {
    const years = new Map<number, Map<string, { unit: string; facts: XbrlFact[] }>>();
    for (const [unit, facts] of Object.entries(taxonomy[concept]?.units ?? {})) {
      if (!unitOf(unit)) continue;
      for (const fact of facts) {
        const key = periodOf(fact);
        if (key === null) continue;
        const year = yearOf(fact);
        const periods = years.get(year) ?? new Map<string, { unit: string; facts: XbrlFact[] }>();
        years.set(year, periods);
        const held = periods.get(key);
        if (held) held.facts.push(fact);
        else periods.set(key, { unit, facts: [fact] });
      }
    }
    return { concept, years };
  });
  const out = new Map<string, { concept: string; unit: string; facts: XbrlFact[] }>();
  const allYears = new Set(byConcept.flatMap(({ years }) => [...years.keys()]));
  for (const year of [...allYears].sort((a, b) => a - b)) {
    let best: (typeof byConcept)[number] | undefined;
    for (const candidate of byConcept) {
      const count = candidate.years.get(year)?.size ?? 0;
      if (count > (best?.years.get(year)?.size ?? 0)) best = candidate;
    }
    if (!best) continue;
    for (const [key, { unit, facts }] of best.years.get(year) ?? [])
      out.set(key, { concept: best.concept, unit, facts });
  }
  return out;
}
