// SEC XBRL company facts (data.sec.gov/api/xbrl/companyfacts): the us-gaap concepts behind each statement
// field, as statement records. The ticker is --ticker, else the first-ranked registrant of the file's CIK
// (load company_tickers.json first); values are in the reporting currency.
import { readFileSync } from 'node:fs';
import type { LoadContext } from '../../ingest/run.js';
import { cik10, tickerForCik } from '../../ingest/sec/registrants.js';
import { SourceError, type SourceFile } from '../../ingest/source.js';
import { CONCEPTS, type ConceptFacts, type ConceptList, factsByPeriod } from '../../ingest/xbrl/concepts.js';
import { annualEnds, FiscalCalendar, kindOf } from '../../ingest/xbrl/periods.js';
import { resolveInput } from '../instrument/instrument.js';
import type { MarketRecordValue } from './record.js';

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

/** Periodic reports: their facts are the company's figures for the periods they cover. */
const PERIODIC = /^(10-K|10-KT|10-Q|20-F|40-F)(\/A)?$/;

export async function* secFactsRecords(
  source: SourceFile,
  context: LoadContext<Map<string, string>>,
): AsyncGenerator<{ line: number; value: MarketRecordValue }> {
  let body: { cik?: unknown; entityName?: unknown; facts?: Record<string, Record<string, ConceptFacts>> };
  try {
    body = JSON.parse(readFileSync(source.path, 'utf8'));
  } catch (error) {
    throw new SourceError(source.name, null, `not JSON: ${(error as Error).message}`);
  }
  const gaap = body.facts?.['us-gaap'];
  if (!gaap) throw new SourceError(source.name, null, 'not SEC company facts (no us-gaap facts)');
  const ticker =
    context.options.ticker ??
    (typeof body.cik === 'number' || typeof body.cik === 'string'
      ? tickerForCik(source, context, cik10(body.cik), String(body.entityName ?? ''))
      : null);
  if (!ticker)
    throw new SourceError(source.name, null, 'the file names no CIK: name the company with --ticker');
  const resolution = resolveInput(ticker);
  if (resolution.status !== 'ok')
    throw new SourceError(source.name, null, `--ticker ${ticker}: ${resolution.error.message}`);
  yield* statementRecords(gaap, resolution.resolved.ticker);
}

/**
 * The statement fields of a company's us-gaap facts. Each fiscal year's periods come from one concept; the
 * latest filing of a period states it. A period is annual by its dates alone — a year-long duration, or an
 * instant at the fiscal year's end — whatever `fp` the filing tagged it with.
 */
export function* statementRecords(
  gaap: Record<string, ConceptFacts>,
  symbol: string,
): Generator<{ line: number; value: MarketRecordValue }> {
  const calendar = FiscalCalendar.fromYearEnds(annualEnds(gaap));
  let n = 0;
  for (const [field, map] of Object.entries(FIELD_CONCEPTS)) {
    const periods = factsByPeriod(
      gaap,
      map.concepts,
      (unit) => (map.unit ? unit === map.unit : /^[A-Z]{3}$/.test(unit)),
      (fact) => {
        const kind = PERIODIC.test(fact.form ?? '') ? kindOf(fact.start, fact.end) : null;
        return kind && `${fact.start ?? ''}|${fact.end}`;
      },
    );
    for (const { concept, unit, facts } of periods.values()) {
      const fact = facts.reduce((a, b) => (b.filed > a.filed ? b : a));
      const signed = (val: number) => (map.negate ? -Math.abs(val) : val);
      const reports = reportsOf(facts.map((f) => ({ value: signed(f.val), filed: f.filed ?? '' })));
      const quarter = calendar.fiscalQuarter(fact.end);
      const kind = kindOf(fact.start, fact.end);
      const fp = kind === 'year' || (kind === 'point' && quarter === 4) ? 'FY' : quarter ? `Q${quarter}` : '';
      n += 1;
      yield {
        line: n,
        value: {
          type: 'statement',
          symbol,
          field,
          kind: fact.start ? 'duration' : 'instant',
          start: fact.start ?? '',
          end: fact.end,
          value: signed(fact.val),
          currency: /^[A-Z]{3}/.test(unit) ? unit.slice(0, 3) : 'USD',
          fp,
          form: fact.form ?? '',
          filed: fact.filed ?? '',
          concept: `us-gaap:${concept}`,
          ...(reports.length > 1 ? { reports } : {}),
        },
      };
    }
  }
}

/**
 * The values a period was reported at over time, oldest first, each with the first filing that reported it: a
 * filing repeating the value before it adds nothing. One entry when the period was never restated.
 */
export function reportsOf(filings: { value: number; filed: string }[]): { value: number; filed: string }[] {
  const out: { value: number; filed: string }[] = [];
  for (const filing of [...filings].sort((a, b) => a.filed.localeCompare(b.filed))) {
    if (out.at(-1)?.value !== filing.value) out.push(filing);
  }
  return out;
}
