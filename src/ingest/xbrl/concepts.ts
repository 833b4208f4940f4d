// Which us-gaap concept states a figure, in one fallback order per figure, shared by the kpis loader and the
// market statements: a period's figure comes from the first concept of its list that has a value for that
// period, and every revision of the period keeps to that concept, so two concepts never mix in a period.
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
 * The facts of each period under the first concept of the list that has a value for it. `periodOf` names a
 * fact's period (null leaves the fact out), so filings that state a period's start differently still meet.
 */
export function factsByPeriod(
  taxonomy: Record<string, ConceptFacts>,
  concepts: ConceptList,
  unitOf: (unit: string) => boolean,
  periodOf: (fact: XbrlFact) => string | null,
): Map<string, { concept: string; unit: string; facts: XbrlFact[] }> {
  const out = new Map<string, { concept: string; unit: string; facts: XbrlFact[] }>();
  for (const concept of concepts) {
    const claimed = new Set<string>();
    for (const [unit, facts] of Object.entries(taxonomy[concept]?.units ?? {})) {
      if (!unitOf(unit)) continue;
      for (const fact of facts) {
        const key = periodOf(fact);
        if (key === null) continue;
        const held = out.get(key);
        if (held && !claimed.has(key)) continue;
        claimed.add(key);
        if (held) held.facts.push(fact);
        else out.set(key, { concept, unit, facts: [fact] });
      }
    }
  }
  return out;
}
