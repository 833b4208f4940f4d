// Recorded Yahoo fundamentals time series (ws/fundamentals-timeseries): one series per type such as
// annualTotalRevenue or quarterlyTotalAssets, each point dated by its period end. The types behind our
// statement fields become statement records; Yahoo gives no period start, so a duration starts the day after
// the same date 12 or 3 months earlier. Trailing (TTM) series are left out: they are computed from quarters.
import { resolveInput } from '../instrument/instrument.js';
import type { MarketRecordValue } from './record.js';

/** Yahoo type (without its annual/quarterly prefix) -> our statement field id. */
const TYPES: Record<string, string> = {
  TotalRevenue: 'totalRevenue',
  CostOfRevenue: 'costOfRevenue',
  GrossProfit: 'grossProfit',
  ResearchAndDevelopment: 'researchAndDevelopment',
  SellingGeneralAndAdministration: 'sellingGeneralAndAdministration',
  OperatingExpense: 'operatingExpense',
  OperatingIncome: 'operatingIncome',
  InterestExpense: 'interestExpense',
  PretaxIncome: 'pretaxIncome',
  TaxProvision: 'taxProvision',
  NetIncome: 'netIncome',
  NetIncomeCommonStockholders: 'netIncomeCommonStockholders',
  BasicEPS: 'basicEps',
  DilutedEPS: 'eps',
  BasicAverageShares: 'basicShares',
  DilutedAverageShares: 'dilutedShares',
  TotalAssets: 'totalAssets',
  CurrentAssets: 'currentAssets',
  CashAndCashEquivalents: 'cashAndCashEquivalents',
  AccountsReceivable: 'receivables',
  Inventory: 'inventory',
  NetPPE: 'netPPE',
  Goodwill: 'goodwill',
  TotalLiabilitiesNetMinorityInterest: 'totalLiabilities',
  CurrentLiabilities: 'currentLiabilities',
  LongTermDebt: 'longTermDebt',
  CurrentDebt: 'currentDebt',
  StockholdersEquity: 'commonStockEquity',
  RetainedEarnings: 'retainedEarnings',
  OperatingCashFlow: 'operatingCashFlow',
  CapitalExpenditure: 'capitalExpenditure',
  InvestingCashFlow: 'investingCashFlow',
  FinancingCashFlow: 'financingCashFlow',
  DepreciationAndAmortization: 'depreciationAndAmortization',
  StockBasedCompensation: 'stockBasedCompensation',
  RepurchaseOfCapitalStock: 'repurchaseOfCapitalStock',
  CashDividendsPaid: 'cashDividendsPaid',
};

/** The time-series types behind the statement fields, annual and quarterly: what an upstream call asks for. */
export const TIMESERIES_TYPES: readonly string[] = Object.keys(TYPES).flatMap((t) => [
  `annual${t}`,
  `quarterly${t}`,
]);

/** Balance-sheet fields: a value at the period end, not over the period. */
const INSTANTS = new Set([
  'totalAssets',
  'currentAssets',
  'cashAndCashEquivalents',
  'receivables',
  'inventory',
  'netPPE',
  'goodwill',
  'totalLiabilities',
  'currentLiabilities',
  'longTermDebt',
  'currentDebt',
  'commonStockEquity',
  'retainedEarnings',
]);

export interface TimeSeries {
  meta?: { symbol?: string[]; type?: string[] };
  [type: string]: unknown;
}

interface Point {
  asOfDate?: string;
  periodType?: string;
  currencyCode?: string;
  reportedValue?: { raw?: unknown };
}

/** The day after the same date `months` earlier: the first day of a period ending on `end`. */
export function periodStart(end: string, months: number): string {
  const [y, m, d] = end.split('-').map(Number) as [number, number, number];
  const earlier = new Date(Date.UTC(y, m - 1 - months, 1));
  const lastDay = new Date(Date.UTC(earlier.getUTCFullYear(), earlier.getUTCMonth() + 1, 0)).getUTCDate();
  earlier.setUTCDate(Math.min(d, lastDay) + 1);
  return earlier.toISOString().slice(0, 10);
}

export function* timeSeriesRecords(
  series: readonly TimeSeries[],
): Generator<{ line: number; value: MarketRecordValue }> {
  let line = 0;
  for (const s of series) {
    line += 1;
    const type = s.meta?.type?.[0] ?? '';
    const match = /^(annual|quarterly)(.+)$/.exec(type);
    const field = match ? TYPES[match[2]!] : undefined;
    const symbol = s.meta?.symbol?.[0];
    if (!match || !field || !symbol) continue;
    const resolution = resolveInput(symbol);
    if (resolution.status !== 'ok') continue;
    const annual = match[1] === 'annual';
    for (const point of (s[type] as (Point | null)[] | undefined) ?? []) {
      const value = point?.reportedValue?.raw;
      const end = point?.asOfDate ?? '';
      if (typeof value !== 'number' || !/^\d{4}-\d{2}-\d{2}$/.test(end)) continue;
      const instant = INSTANTS.has(field);
      yield {
        line,
        value: {
          type: 'statement',
          symbol: resolution.resolved.ticker,
          field,
          kind: instant ? 'instant' : 'duration',
          start: instant ? '' : periodStart(end, annual ? 12 : 3),
          end,
          value,
          currency: /^[A-Z]{3}$/.test(point?.currencyCode ?? '') ? (point?.currencyCode as string) : 'USD',
          fp: annual ? 'FY' : '',
          form: 'yahoo',
          filed: '',
        },
      };
    }
  }
}
