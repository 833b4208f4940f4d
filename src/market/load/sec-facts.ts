// SEC XBRL company facts (data.sec.gov/api/xbrl/companyfacts): the us-gaap concepts behind each statement
// field, as statement records. The ticker is given with --ticker; values are in the reporting currency.
import { readFileSync } from 'node:fs';
import type { LoadContext } from '../../ingest/run.js';
import { SourceError, type SourceFile } from '../../ingest/source.js';
import { CONCEPTS, type ConceptList } from '../../ingest/xbrl/concepts.js';
import { resolveTicker } from '../symbology/resolve.js';
import type { MarketRecordValue } from './import.js';

/**
 * Field id -> us-gaap concepts, in order of preference (the shared order of ingest/xbrl where the kpis
 * dataset reads the same figure); `negate` for outflows reported as positive payments.
 */
export const FIELD_CONCEPTS: Record<string, { concepts: ConceptList; negate?: boolean; unit?: string }> = {
  totalRevenue: { concepts: CONCEPTS.revenue },
  costOfRevenue: { concepts: CONCEPTS.costOfRevenue },
  grossProfit: { concepts: CONCEPTS.grossProfit },
  researchAndDevelopment: { concepts: CONCEPTS.researchAndDevelopment },
  sellingGeneralAndAdministration: { concepts: CONCEPTS.sellingGeneralAndAdministration },
  operatingExpense: { concepts: CONCEPTS.operatingExpenses },
  operatingIncome: { concepts: CONCEPTS.operatingIncome },
  interestExpense: { concepts: ['InterestExpense', 'InterestExpenseNonoperating'] },
  pretaxIncome: {
    concepts: [
      'IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest',
      'IncomeLossFromContinuingOperationsBeforeIncomeTaxesMinorityInterestAndIncomeLossFromEquityMethodInvestments',
    ],
  },
  taxProvision: { concepts: ['IncomeTaxExpenseBenefit'] },
  netIncome: { concepts: CONCEPTS.netIncome },
  netIncomeCommonStockholders: { concepts: ['NetIncomeLossAvailableToCommonStockholdersBasic'] },
  basicEps: { concepts: CONCEPTS.basicEps, unit: 'USD/shares' },
  eps: { concepts: CONCEPTS.dilutedEps, unit: 'USD/shares' },
  basicShares: { concepts: ['WeightedAverageNumberOfSharesOutstandingBasic'], unit: 'shares' },
  dilutedShares: { concepts: CONCEPTS.dilutedShares, unit: 'shares' },
  totalAssets: { concepts: CONCEPTS.totalAssets },
  currentAssets: { concepts: ['AssetsCurrent'] },
  cashAndCashEquivalents: { concepts: CONCEPTS.cashAndEquivalents },
  receivables: { concepts: ['AccountsReceivableNetCurrent'] },
  inventory: { concepts: ['InventoryNet'] },
  netPPE: { concepts: ['PropertyPlantAndEquipmentNet'] },
  goodwill: { concepts: ['Goodwill'] },
  totalLiabilities: { concepts: CONCEPTS.totalLiabilities },
  currentLiabilities: { concepts: ['LiabilitiesCurrent'] },
  longTermDebt: { concepts: CONCEPTS.longTermDebt },
  currentDebt: { concepts: ['LongTermDebtCurrent', 'DebtCurrent'] },
  commonStockEquity: { concepts: CONCEPTS.stockholdersEquity },
  retainedEarnings: { concepts: ['RetainedEarningsAccumulatedDeficit'] },
  operatingCashFlow: { concepts: CONCEPTS.operatingCashFlow },
  capitalExpenditure: { concepts: CONCEPTS.capitalExpenditure, negate: true },
  investingCashFlow: { concepts: ['NetCashProvidedByUsedInInvestingActivities'] },
  financingCashFlow: { concepts: ['NetCashProvidedByUsedInFinancingActivities'] },
  depreciationAndAmortization: {
    concepts: ['DepreciationDepletionAndAmortization', 'DepreciationAndAmortization'],
  },
  stockBasedCompensation: { concepts: ['ShareBasedCompensation'] },
  repurchaseOfCapitalStock: { concepts: ['PaymentsForRepurchaseOfCommonStock'], negate: true },
  cashDividendsPaid: { concepts: ['PaymentsOfDividends', 'PaymentsOfDividendsCommonStock'], negate: true },
};

interface XbrlFact {
  start?: string;
  end: string;
  val: number;
  fp?: string;
  form?: string;
  filed?: string;
}

export async function* secFactsRecords(
  source: SourceFile,
  context: LoadContext,
): AsyncGenerator<{ line: number; value: MarketRecordValue }> {
  const ticker = context.options.ticker;
  if (!ticker) throw new SourceError(source.name, null, 'name the company with --ticker');
  const resolution = resolveTicker(ticker);
  if (resolution.status !== 'ok')
    throw new SourceError(source.name, null, `--ticker ${ticker}: ${resolution.error.message}`);
  let body: { facts?: Record<string, Record<string, { units?: Record<string, XbrlFact[]> }>> };
  try {
    body = JSON.parse(readFileSync(source.path, 'utf8'));
  } catch (error) {
    throw new SourceError(source.name, null, `not JSON: ${(error as Error).message}`);
  }
  const gaap = body.facts?.['us-gaap'];
  if (!gaap) throw new SourceError(source.name, null, 'not SEC company facts (no us-gaap facts)');
  let n = 0;
  for (const [field, map] of Object.entries(FIELD_CONCEPTS)) {
    // The latest filing of each period wins; an earlier concept of the list wins over a later one.
    const chosen = new Map<string, { fact: XbrlFact; currency: string }>();
    for (const concept of map.concepts) {
      const units = gaap[concept]?.units ?? {};
      const [unit, facts] =
        Object.entries(units).find(([u]) => (map.unit ? u === map.unit : /^[A-Z]{3}$/.test(u))) ?? [];
      if (!unit || !facts) continue;
      for (const fact of facts) {
        const key = `${fact.start ?? ''}|${fact.end}`;
        const seen = chosen.get(key);
        if (seen && (seen.fact as unknown as { concept: string }).concept !== concept) continue;
        if (!seen || (fact.filed ?? '') > (seen.fact.filed ?? ''))
          chosen.set(key, { fact: { ...fact, concept } as XbrlFact, currency: unit.slice(0, 3) });
      }
    }
    // A year-end balance is reported again as a comparative in later quarterly filings: it stays a year end.
    const yearEnds = new Set<string>();
    for (const concept of map.concepts) {
      for (const facts of Object.values(gaap[concept]?.units ?? {})) {
        for (const fact of facts)
          if (!fact.start && fact.fp === 'FY' && fact.form?.startsWith('10-K')) yearEnds.add(fact.end);
      }
    }
    for (const { fact, currency } of chosen.values()) {
      n += 1;
      yield {
        line: n,
        value: {
          type: 'statement',
          symbol: resolution.resolved.ticker,
          field,
          kind: fact.start ? 'duration' : 'instant',
          start: fact.start ?? '',
          end: fact.end,
          value: map.negate ? -Math.abs(fact.val) : fact.val,
          currency: /^[A-Z]{3}$/.test(currency) ? currency : 'USD',
          fp: !fact.start && yearEnds.has(fact.end) ? 'FY' : (fact.fp ?? ''),
          form: fact.form ?? '',
          filed: fact.filed ?? '',
        },
      };
    }
  }
}
