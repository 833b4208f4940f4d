// The field dictionary of the market-data API, as data (spec: Field dictionary and its tables). Aliases marked
// millions return millions under that alias; under the id the same field is in full units.
import type { AssetType } from '../symbology/resolve.js';

export type FieldGroup =
  | 'quote'
  | 'profile'
  | 'valuation'
  | 'estimate'
  | 'computed'
  | 'statement'
  | 'identifier'
  | 'bulk';

export interface Alias {
  name: string;
  millions: boolean;
}

export interface FieldDef {
  id: string;
  aliases: Alias[];
  unit: string;
  appliesTo: AssetType[];
  /** Served by /v1/history. */
  history: boolean;
  group: FieldGroup;
}

const ALL: AssetType[] = ['equity', 'fund', 'index', 'future', 'currency', 'crypto'];
const EQUITY: AssetType[] = ['equity'];
const EQUITY_FUND: AssetType[] = ['equity', 'fund'];

const a = (...names: string[]): Alias[] =>
  names.map((n) =>
    n.endsWith(' [m]') ? { name: n.slice(0, -4), millions: true } : { name: n, millions: false },
  );

const quote = (id: string, aliases: Alias[], unit: string, appliesTo = ALL, history = false): FieldDef => ({
  id,
  aliases,
  unit,
  appliesTo,
  history,
  group: 'quote',
});

/** Statement fields whose unit is not the reporting currency, or that carry a sign convention. */
const STATEMENT_UNITS: Record<string, string> = {
  basicEps: 'reporting currency per share',
  eps: 'reporting currency per share (diluted)',
  basicShares: 'shares (weighted average)',
  dilutedShares: 'shares (weighted average)',
  capitalExpenditure: 'reporting currency (negative = outflow)',
  repurchaseOfCapitalStock: 'reporting currency (negative = outflow)',
  cashDividendsPaid: 'reporting currency (negative = outflow)',
};

/** Bulk fields: lists of rows, served by /v1/actions (and market.actions, the clients' bds). */
const bulk = (id: string, alias: string, unit: string): FieldDef => ({
  id,
  aliases: a(alias),
  unit,
  appliesTo: EQUITY_FUND,
  history: false,
  group: 'bulk',
});

/** The identifier fields OpenFIGI answers (the others are facts loaded from SEC's exchange file). */
export const FIGI_FIELDS: ReadonlySet<string> = new Set(['figi', 'compositeFigi', 'shareClassFigi']);

export const FIELDS: FieldDef[] = [
  quote('price', a('PX_LAST', 'LAST_PRICE'), 'price currency', ALL, true),
  quote('open', a('PX_OPEN'), 'price currency', ALL, true),
  quote('high', a('PX_HIGH'), 'price currency', ALL, true),
  quote('low', a('PX_LOW'), 'price currency', ALL, true),
  quote(
    'volume',
    a('PX_VOLUME'),
    'shares or contracts',
    ['equity', 'fund', 'index', 'crypto', 'future'],
    true,
  ),
  quote(
    'totalReturnIndex',
    a('TOT_RETURN_INDEX_GROSS_DVDS'),
    'price currency: the close with dividends reinvested, equal to the newest close (history only)',
    EQUITY_FUND,
    true,
  ),
  quote('previousClose', a('PX_CLOSE_1D'), 'price currency'),
  quote('change', a('CHG_NET_1D'), 'price currency'),
  quote('changePercent', a('CHG_PCT_1D'), 'percent'),
  quote('bid', a('PX_BID'), 'price currency'),
  quote('ask', a('PX_ASK'), 'price currency'),
  quote('high52w', a('HIGH_52WEEK'), 'price currency'),
  quote('low52w', a('LOW_52WEEK'), 'price currency'),
  quote('marketCap', a('CUR_MKT_CAP'), 'price currency, full units', ['equity', 'fund', 'crypto']),
  quote('name', a('NAME'), 'text'),
  quote('currency', a('CRNCY'), 'text (ISO code in the main unit)'),
  quote('exchange', [], 'text'),
  quote('asOf', [], 'ISO 8601 time'),
  bulk(
    'dividendHistory',
    'DVD_HIST_ALL',
    'rows: ex-date, type (dividend, capitalGain), amount per share in the price currency (GET /v1/actions)',
  ),
  bulk(
    'splitHistory',
    'EQY_SPLIT_HIST',
    'rows: ex-date, numerator, denominator (GET /v1/actions?types=split)',
  ),
  ...(
    [
      ['figi', 'ID_BB_GLOBAL', "text: the listing's FIGI (OpenFIGI)"],
      ['compositeFigi', 'COMPOSITE_ID_BB_GLOBAL', 'text: the FIGI of all the listings of its country'],
      ['shareClassFigi', 'ID_BB_GLOBAL_SHARE_CLASS', 'text: the FIGI of its share class'],
      ['exchangeCode', 'EXCH_CODE', 'text: the exchange SEC lists a US listing on (Nasdaq, NYSE, CBOE, OTC)'],
      ['cik', 'CIK', "text: the SEC Central Index Key of a US listing's registrant (ten digits)"],
    ] as const
  ).map(
    ([id, alias, unit]): FieldDef => ({
      id,
      aliases: a(alias),
      unit,
      appliesTo: EQUITY_FUND,
      history: false,
      group: 'identifier',
    }),
  ),
  {
    id: 'sector',
    aliases: [],
    unit: 'text (provider classification, not GICS)',
    appliesTo: EQUITY,
    history: false,
    group: 'profile',
  },
  {
    id: 'industry',
    aliases: [],
    unit: 'text (provider classification, not GICS)',
    appliesTo: EQUITY,
    history: false,
    group: 'profile',
  },
  ...(
    [
      ['trailingPE', a('PE_RATIO'), 'x', EQUITY],
      ['forwardPE', [], 'x', EQUITY],
      ['pegRatio', [], 'x', EQUITY],
      ['trailingEps', a('TRAIL_12M_EPS'), 'reporting currency per share', EQUITY],
      ['dividendYield', [], 'percent', EQUITY_FUND],
      ['indicatedDividendYield', a('EQY_DVD_YLD_IND'), 'percent', EQUITY_FUND],
      ['dividendRate', [], 'price currency per share', EQUITY_FUND],
      ['sharesOutstanding', a('EQY_SH_OUT [m]'), 'shares', EQUITY],
      ['floatShares', [], 'shares', EQUITY],
      ['enterpriseValue', [], 'reporting currency', EQUITY],
      ['revenueTtm', [], 'reporting currency', EQUITY],
      ['netIncomeTtm', [], 'reporting currency', EQUITY],
      ['profitMargin', [], 'percent', EQUITY],
      ['operatingMargin', [], 'percent', EQUITY],
    ] as [string, Alias[], string, AssetType[]][]
  ).map(([id, aliases, unit, appliesTo]) => ({
    id,
    aliases,
    unit,
    appliesTo,
    history: false,
    group: 'valuation' as const,
  })),
  ...(
    [
      ['epsEstimateCurrentYear', a('BEST_EPS'), 'estimate currency per share'],
      ['epsEstimateNextYear', [], 'estimate currency per share'],
      ['revenueEstimateCurrentYear', a('BEST_SALES [m]'), 'estimate currency'],
      ['peCurrentYear', a('BEST_PE_RATIO'), 'x'],
      ['targetPrice', a('BEST_TARGET_PRICE'), 'price currency'],
      ['targetPriceMedian', [], 'price currency'],
      ['targetPriceHigh', [], 'price currency'],
      ['targetPriceLow', [], 'price currency'],
    ] as [string, Alias[], string][]
  ).map(([id, aliases, unit]) => ({
    id,
    aliases,
    unit,
    appliesTo: EQUITY,
    history: false,
    group: 'estimate' as const,
  })),
  ...['10d', '30d', '60d', '90d', '180d', '260d'].map((n) => ({
    id: `volatility${n}`,
    aliases: a(`VOLATILITY_${n.toUpperCase()}`),
    unit: 'percent (annualised with the square root of 260)',
    appliesTo: ALL,
    history: false,
    group: 'computed' as const,
  })),
  {
    id: 'betaRaw',
    aliases: a('BETA_RAW_OVERRIDABLE'),
    unit: 'x',
    appliesTo: EQUITY_FUND,
    history: false,
    group: 'computed',
  },
  {
    id: 'betaAdjusted',
    aliases: a('EQY_BETA', 'BETA_ADJ_OVERRIDABLE'),
    unit: 'x',
    appliesTo: EQUITY_FUND,
    history: false,
    group: 'computed',
  },
  ...(
    [
      ['totalRevenue', 'SALES_REV_TURN [m]'],
      ['costOfRevenue'],
      ['grossProfit', 'GROSS_PROFIT [m]'],
      ['researchAndDevelopment'],
      ['sellingGeneralAndAdministration'],
      ['operatingExpense'],
      ['operatingIncome', 'IS_OPER_INC [m]'],
      ['ebitda', 'EBITDA [m]'],
      ['interestExpense', 'IS_INT_EXPENSE [m]'],
      ['pretaxIncome', 'PRETAX_INC [m]'],
      ['taxProvision', 'IS_INC_TAX_EXP [m]'],
      ['netIncome', 'NET_INCOME [m]'],
      ['netIncomeCommonStockholders'],
      ['basicEps', 'IS_EPS'],
      ['eps', 'IS_DILUTED_EPS'],
      ['basicShares', 'IS_AVG_NUM_SH_FOR_EPS [m]'],
      ['dilutedShares', 'IS_SH_FOR_DILUTED_EPS [m]'],
      ['totalAssets', 'BS_TOT_ASSET [m]'],
      ['currentAssets', 'BS_CUR_ASSET_REPORT [m]'],
      ['cashAndCashEquivalents', 'BS_CASH_NEAR_CASH_ITEM [m]'],
      ['receivables'],
      ['netPPE'],
      ['goodwill'],
      ['currentDebt'],
      ['workingCapital'],
      ['tangibleBookValue'],
      ['inventory', 'BS_INVENTORIES [m]'],
      ['totalLiabilities', 'BS_TOT_LIAB2 [m]'],
      ['currentLiabilities', 'BS_CUR_LIAB [m]'],
      ['longTermDebt', 'BS_LT_BORROW [m]'],
      ['totalDebt', 'SHORT_AND_LONG_TERM_DEBT [m]'],
      ['commonStockEquity', 'TOT_COMMON_EQY [m]'],
      ['retainedEarnings', 'BS_RETAIN_EARN [m]'],
      ['operatingCashFlow', 'CF_CASH_FROM_OPER [m]'],
      ['capitalExpenditure', 'CF_CAP_EXPEND_PRPTY_ADD [m]'],
      ['freeCashFlow', 'CF_FREE_CASH_FLOW [m]'],
      ['investingCashFlow', 'CF_CASH_FROM_INV_ACT [m]'],
      ['financingCashFlow', 'CF_CASH_FROM_FNC_ACT [m]'],
      ['depreciationAndAmortization', 'CF_DEPR_AMORT [m]'],
      ['stockBasedCompensation'],
      ['repurchaseOfCapitalStock'],
      ['cashDividendsPaid', 'CF_DVD_PAID [m]'],
    ] as string[][]
  ).map(([id, ...aliases]) => ({
    id: id as string,
    aliases: a(...aliases),
    unit: STATEMENT_UNITS[id as string] ?? 'reporting currency',
    appliesTo: EQUITY,
    history: true,
    group: 'statement' as const,
  })),
];

/** Terminal fields that are not served, each with its reason. */
export const NOT_SERVED: { name: string; reason: string }[] = [
  { name: 'ID_ISIN', reason: 'no open source licenses ISINs: use ID_BB_GLOBAL (FIGI)' },
  { name: 'ID_CUSIP', reason: 'no open source licenses CUSIPs: use ID_BB_GLOBAL (FIGI)' },
  { name: 'GICS_SECTOR_NAME', reason: 'use sector (provider classification)' },
  { name: 'GICS_INDUSTRY_NAME', reason: 'use industry (provider classification)' },
  { name: 'BEST_EBITDA', reason: 'no consensus source' },
  { name: 'BEST_ANALYST_RATING', reason: 'different scale' },
  { name: 'EQY_DVD_YLD_12M', reason: 'use dividendYield' },
  { name: 'SHORT_INT', reason: 'served by the MCP tool market.short_interest' },
  { name: 'YLD_YTM_MID', reason: 'bond analytics are not served' },
  { name: 'DUR_ADJ_MID', reason: 'bond analytics are not served' },
  { name: 'INT_ACC', reason: 'bond analytics are not served' },
];

export type FieldLookup =
  | { kind: 'field'; field: FieldDef; alias: string | null; millions: boolean }
  | { kind: 'not_served'; name: string; reason: string }
  | { kind: 'unknown' };

// Exact spelling first: EBITDA (an alias, millions) and ebitda (the id, full units) differ only in case.
// In any other spelling a name is matched without case, ids before aliases.
const exact = new Map<string, FieldLookup>();
const anyCase = new Map<string, FieldLookup>();
for (const field of FIELDS) {
  for (const alias of field.aliases) {
    const found: FieldLookup = { kind: 'field', field, alias: alias.name, millions: alias.millions };
    exact.set(alias.name, found);
    anyCase.set(alias.name.toLowerCase(), found);
  }
}
for (const field of FIELDS) {
  const found: FieldLookup = { kind: 'field', field, alias: null, millions: false };
  exact.set(field.id, found);
  anyCase.set(field.id.toLowerCase(), found);
}
for (const n of NOT_SERVED) {
  const found: FieldLookup = { kind: 'not_served', name: n.name, reason: n.reason };
  exact.set(n.name, found);
  anyCase.set(n.name.toLowerCase(), found);
}

/** A field by id or alias, in any letter case. */
export function lookupField(name: string): FieldLookup {
  const text = name.trim();
  return exact.get(text) ?? anyCase.get(text.toLowerCase()) ?? { kind: 'unknown' };
}
