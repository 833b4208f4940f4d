// The reported-basis metrics read from EDGAR's company facts: each with the concepts that state it (in the
// shared fallback order) and the unit they are reported in.
import { CONCEPTS, type ConceptList } from '../../../ingest/xbrl/concepts.js';
import type { MetricRecord } from '../import.js';

type Measure = 'money' | 'per_share' | 'shares';

export interface XbrlMetric {
  id: string;
  name: string;
  concepts: ConceptList;
  measure: Measure;
  favorable: 'higher' | 'lower' | 'neutral';
  definition: string;
}

const m = (
  id: string,
  name: string,
  concepts: ConceptList,
  measure: Measure,
  favorable: XbrlMetric['favorable'],
  definition: string,
): XbrlMetric => ({ id, name, concepts, measure, favorable, definition });

export const XBRL_METRICS: readonly XbrlMetric[] = [
  m('revenue', 'Revenue', CONCEPTS.revenue, 'money', 'higher', 'Total revenue as reported.'),
  m(
    'cost_of_revenue',
    'Cost of revenue',
    CONCEPTS.costOfRevenue,
    'money',
    'lower',
    'Cost of goods and services sold.',
  ),
  m('gross_profit', 'Gross profit', CONCEPTS.grossProfit, 'money', 'higher', 'Revenue less cost of revenue.'),
  m(
    'research_and_development',
    'Research and development',
    CONCEPTS.researchAndDevelopment,
    'money',
    'neutral',
    'Research and development expense.',
  ),
  m(
    'sga_expense',
    'Selling, general and administrative',
    CONCEPTS.sellingGeneralAndAdministration,
    'money',
    'lower',
    'Selling, general and administrative expense.',
  ),
  m(
    'operating_income',
    'Operating income',
    CONCEPTS.operatingIncome,
    'money',
    'higher',
    'Operating income (loss).',
  ),
  m(
    'net_income',
    'Net income',
    CONCEPTS.netIncome,
    'money',
    'higher',
    'Net income (loss) attributable to the company.',
  ),
  m(
    'diluted_eps',
    'Diluted EPS',
    CONCEPTS.dilutedEps,
    'per_share',
    'higher',
    'Diluted earnings per share, as reported (not adjusted for later splits).',
  ),
  m(
    'basic_eps',
    'Basic EPS',
    CONCEPTS.basicEps,
    'per_share',
    'higher',
    'Basic earnings per share, as reported.',
  ),
  m(
    'diluted_shares',
    'Diluted weighted shares',
    CONCEPTS.dilutedShares,
    'shares',
    'neutral',
    'Weighted average diluted shares outstanding in the period.',
  ),
  m(
    'shares_outstanding',
    'Shares outstanding',
    CONCEPTS.sharesOutstanding,
    'shares',
    'neutral',
    'Common shares outstanding at the balance-sheet date.',
  ),
  m(
    'operating_cash_flow',
    'Operating cash flow',
    CONCEPTS.operatingCashFlow,
    'money',
    'higher',
    'Net cash provided by (used in) operating activities.',
  ),
  m(
    'capital_expenditure',
    'Capital expenditure',
    CONCEPTS.capitalExpenditure,
    'money',
    'neutral',
    'Cash paid for property, plant and equipment (a positive figure, as reported).',
  ),
  m(
    'total_assets',
    'Total assets',
    CONCEPTS.totalAssets,
    'money',
    'neutral',
    'Total assets at the balance-sheet date.',
  ),
  m(
    'total_liabilities',
    'Total liabilities',
    CONCEPTS.totalLiabilities,
    'money',
    'lower',
    'Total liabilities at the balance-sheet date.',
  ),
  m(
    'stockholders_equity',
    "Stockholders' equity",
    CONCEPTS.stockholdersEquity,
    'money',
    'higher',
    "Total stockholders' equity at the balance-sheet date.",
  ),
  m(
    'cash_and_equivalents',
    'Cash and equivalents',
    CONCEPTS.cashAndEquivalents,
    'money',
    'higher',
    'Cash and cash equivalents at the balance-sheet date.',
  ),
  m(
    'long_term_debt',
    'Long-term debt',
    CONCEPTS.longTermDebt,
    'money',
    'lower',
    'Long-term debt, non-current portion.',
  ),
];

/** Whether a unit of company facts is the metric's: a currency code, a currency per share, or shares. */
export function unitMatches(measure: Measure, unit: string): boolean {
  if (measure === 'money') return /^[A-Z]{3}$/.test(unit);
  if (measure === 'per_share') return /^[A-Z]{3}\/shares$/.test(unit);
  return unit === 'shares';
}

/** The unit and currency a fact is served with: USD, USD/share or shares. */
export function servedUnit(measure: Measure, unit: string): { unit: string; currency: string | null } {
  if (measure === 'shares') return { unit: 'shares', currency: null };
  const currency = unit.slice(0, 3);
  return { unit: measure === 'per_share' ? `${currency}/share` : currency, currency };
}

export function metricRecord(metric: XbrlMetric): MetricRecord {
  return {
    type: 'metric',
    id: metric.id,
    name: metric.name,
    sector: 'all',
    unit: metric.measure === 'shares' ? 'shares' : metric.measure === 'per_share' ? 'USD/share' : 'USD',
    definition: `${metric.definition} From the company's XBRL facts: ${metric.concepts.join(', then ')}.`,
    aliases: { 'us-gaap': [...metric.concepts] },
    favorable: metric.favorable,
  };
}
