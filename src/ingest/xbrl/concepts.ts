// Which us-gaap concept states a figure, in one fallback order per figure, shared by the kpis loader and the
// market statements: each period's figure comes from the first concept of the list that states that period,
// and every revision of the period keeps to it. Where a company moved from one concept to another, a series
// changes concept at a period, and says so: Apple's revenue is SalesRevenueNet to fiscal 2016, Revenues in
// fiscal 2017 and 2018 (as its 10-K for 2018 restated them), then
// RevenueFromContractWithCustomerExcludingAssessedTax.

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
 * The facts of each period under the first concept of the list that states it. `periodOf` names a fact's
 * period (null leaves the fact out), so filings that state a period's start differently still meet.
 */
export function factsByPeriod(
  taxonomy: Record<string, ConceptFacts>,
  concepts: ConceptList,
  unitOf: (unit: string) => boolean,
  periodOf: (fact: XbrlFact) => string | null,
): Map<string, { concept: string; unit: string; facts: XbrlFact[] }> {
  const out = new Map<string, { concept: string; unit: string; facts: XbrlFact[] }>();
  for (const concept of concepts) {
    for (const [unit, facts] of Object.entries(taxonomy[concept]?.units ?? {})) {
      if (!unitOf(unit)) continue;
      for (const fact of facts) {
        const key = periodOf(fact);
        if (key === null) continue;
        const held = out.get(key);
        if (!held) out.set(key, { concept, unit, facts: [fact] });
        else if (held.concept === concept) held.facts.push(fact);
      }
    }
  }
  return out;
}
