// Spec, market-data API: the field dictionary tables, the not-served list, and /v1/fields without a key.
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELDS, lookupField, NOT_SERVED } from '../../../src/market/fields/dictionary.js';
import { type TestEnv, testEnv } from '../../helpers/env.js';

// [id, aliases ([m] = millions), unit fragment, history]
const ROWS: [string, string[], string, boolean][] = [
  ['price', ['PX_LAST', 'LAST_PRICE'], 'price currency', true],
  ['open', ['PX_OPEN'], 'price currency', true],
  ['high', ['PX_HIGH'], 'price currency', true],
  ['low', ['PX_LOW'], 'price currency', true],
  ['volume', ['PX_VOLUME'], 'shares or contracts', true],
  // Issue 48: the total-return index is served in history (it was listed as not served).
  ['totalReturnIndex', ['TOT_RETURN_INDEX_GROSS_DVDS'], 'dividends reinvested', true],
  ['previousClose', ['PX_CLOSE_1D'], 'price currency', false],
  ['change', ['CHG_NET_1D'], 'price currency', false],
  ['changePercent', ['CHG_PCT_1D'], 'percent', false],
  ['bid', ['PX_BID'], 'price currency', false],
  ['ask', ['PX_ASK'], 'price currency', false],
  ['high52w', ['HIGH_52WEEK'], 'price currency', false],
  ['low52w', ['LOW_52WEEK'], 'price currency', false],
  ['marketCap', ['CUR_MKT_CAP'], 'full units', false],
  ['name', ['NAME'], 'text', false],
  ['currency', ['CRNCY'], 'ISO code', false],
  ['exchange', [], 'text', false],
  ['asOf', [], 'ISO 8601', false],
  ['figi', ['ID_BB_GLOBAL'], "the listing's FIGI", false],
  ['compositeFigi', ['COMPOSITE_ID_BB_GLOBAL'], 'all the listings of its country', false],
  ['shareClassFigi', ['ID_BB_GLOBAL_SHARE_CLASS'], 'its share class', false],
  ['exchangeCode', ['EXCH_CODE'], 'the exchange SEC lists', false],
  ['cik', ['CIK'], 'Central Index Key', false],
  ['dividendHistory', ['DVD_HIST_ALL'], 'GET /v1/actions', false],
  ['splitHistory', ['EQY_SPLIT_HIST'], 'types=split', false],
  ['sector', [], 'not GICS', false],
  ['industry', [], 'not GICS', false],
  ['trailingPE', ['PE_RATIO'], 'x', false],
  ['forwardPE', [], 'x', false],
  ['pegRatio', [], 'x', false],
  ['trailingEps', ['TRAIL_12M_EPS'], 'per share', false],
  ['dividendYield', [], 'percent', false],
  ['indicatedDividendYield', ['EQY_DVD_YLD_IND'], 'percent', false],
  ['dividendRate', [], 'per share', false],
  ['sharesOutstanding', ['EQY_SH_OUT [m]'], 'shares', false],
  ['floatShares', [], 'shares', false],
  ['enterpriseValue', [], 'reporting currency', false],
  ['revenueTtm', [], 'reporting currency', false],
  ['netIncomeTtm', [], 'reporting currency', false],
  ['profitMargin', [], 'percent', false],
  ['operatingMargin', [], 'percent', false],
  ['epsEstimateCurrentYear', ['BEST_EPS'], 'per share', false],
  ['epsEstimateNextYear', [], 'per share', false],
  ['revenueEstimateCurrentYear', ['BEST_SALES [m]'], 'estimate currency', false],
  ['peCurrentYear', ['BEST_PE_RATIO'], 'x', false],
  ['targetPrice', ['BEST_TARGET_PRICE'], 'price currency', false],
  ['targetPriceMedian', [], 'price currency', false],
  ['targetPriceHigh', [], 'price currency', false],
  ['targetPriceLow', [], 'price currency', false],
  ['volatility10d', ['VOLATILITY_10D'], 'percent', false],
  ['volatility30d', ['VOLATILITY_30D'], 'percent', false],
  ['volatility60d', ['VOLATILITY_60D'], 'percent', false],
  ['volatility90d', ['VOLATILITY_90D'], 'percent', false],
  ['volatility180d', ['VOLATILITY_180D'], 'percent', false],
  ['volatility260d', ['VOLATILITY_260D'], 'percent', false],
  ['betaRaw', ['BETA_RAW_OVERRIDABLE'], 'x', false],
  ['betaAdjusted', ['EQY_BETA', 'BETA_ADJ_OVERRIDABLE'], 'x', false],
  ['totalRevenue', ['SALES_REV_TURN [m]'], 'reporting currency', true],
  ['costOfRevenue', [], 'reporting currency', true],
  ['grossProfit', ['GROSS_PROFIT [m]'], 'reporting currency', true],
  ['researchAndDevelopment', [], 'reporting currency', true],
  ['sellingGeneralAndAdministration', [], 'reporting currency', true],
  ['operatingExpense', [], 'reporting currency', true],
  ['operatingIncome', ['IS_OPER_INC [m]'], 'reporting currency', true],
  ['ebitda', ['EBITDA [m]'], 'reporting currency', true],
  ['interestExpense', ['IS_INT_EXPENSE [m]'], 'reporting currency', true],
  ['pretaxIncome', ['PRETAX_INC [m]'], 'reporting currency', true],
  ['taxProvision', ['IS_INC_TAX_EXP [m]'], 'reporting currency', true],
  ['netIncome', ['NET_INCOME [m]'], 'reporting currency', true],
  ['netIncomeCommonStockholders', [], 'reporting currency', true],
  ['basicEps', ['IS_EPS'], 'per share', true],
  ['eps', ['IS_DILUTED_EPS'], 'per share', true],
  ['basicShares', ['IS_AVG_NUM_SH_FOR_EPS [m]'], 'weighted average', true],
  ['dilutedShares', ['IS_SH_FOR_DILUTED_EPS [m]'], 'weighted average', true],
  ['totalAssets', ['BS_TOT_ASSET [m]'], 'reporting currency', true],
  ['currentAssets', ['BS_CUR_ASSET_REPORT [m]'], 'reporting currency', true],
  ['cashAndCashEquivalents', ['BS_CASH_NEAR_CASH_ITEM [m]'], 'reporting currency', true],
  ['receivables', [], 'reporting currency', true],
  ['netPPE', [], 'reporting currency', true],
  ['goodwill', [], 'reporting currency', true],
  ['currentDebt', [], 'reporting currency', true],
  ['workingCapital', [], 'reporting currency', true],
  ['tangibleBookValue', [], 'reporting currency', true],
  ['inventory', ['BS_INVENTORIES [m]'], 'reporting currency', true],
  ['totalLiabilities', ['BS_TOT_LIAB2 [m]'], 'reporting currency', true],
  ['currentLiabilities', ['BS_CUR_LIAB [m]'], 'reporting currency', true],
  ['longTermDebt', ['BS_LT_BORROW [m]'], 'reporting currency', true],
  ['totalDebt', ['SHORT_AND_LONG_TERM_DEBT [m]'], 'reporting currency', true],
  ['commonStockEquity', ['TOT_COMMON_EQY [m]'], 'reporting currency', true],
  ['retainedEarnings', ['BS_RETAIN_EARN [m]'], 'reporting currency', true],
  ['operatingCashFlow', ['CF_CASH_FROM_OPER [m]'], 'reporting currency', true],
  ['capitalExpenditure', ['CF_CAP_EXPEND_PRPTY_ADD [m]'], 'negative = outflow', true],
  ['freeCashFlow', ['CF_FREE_CASH_FLOW [m]'], 'reporting currency', true],
  ['investingCashFlow', ['CF_CASH_FROM_INV_ACT [m]'], 'reporting currency', true],
  ['financingCashFlow', ['CF_CASH_FROM_FNC_ACT [m]'], 'reporting currency', true],
  ['depreciationAndAmortization', ['CF_DEPR_AMORT [m]'], 'reporting currency', true],
  ['stockBasedCompensation', [], 'reporting currency', true],
  ['repurchaseOfCapitalStock', [], 'negative = outflow', true],
  ['cashDividendsPaid', ['CF_DVD_PAID [m]'], 'negative = outflow', true],
];

describe('field dictionary', () => {
  it('holds exactly the fields of the spec', () => {
    expect(FIELDS.map((f) => f.id).sort()).toEqual(ROWS.map(([id]) => id).sort());
  });

  for (const [id, aliases, unit, history] of ROWS) {
    it(`${id}${aliases.length ? ` (${aliases.join(', ')})` : ''}`, () => {
      const field = FIELDS.find((f) => f.id === id);
      expect(field?.aliases.map((a) => (a.millions ? `${a.name} [m]` : a.name))).toEqual(aliases);
      expect(field?.unit).toContain(unit);
      expect(field?.history).toBe(history);
      for (const alias of aliases) {
        const name = alias.replace(' [m]', '');
        expect(lookupField(name)).toMatchObject({
          kind: 'field',
          alias: name,
          millions: alias.endsWith('[m]'),
        });
      }
      expect(lookupField(id)).toMatchObject({ kind: 'field', alias: null, millions: false });
      expect(lookupField(id.toUpperCase())).toMatchObject({ kind: 'field', field: { id } });
    });
  }

  it('any letter case: an alias written otherwise still reads as the alias, unless it spells the id', () => {
    expect(lookupField('px_last')).toMatchObject({ alias: 'PX_LAST', field: { id: 'price' } });
    expect(lookupField('Eqy_Sh_Out')).toMatchObject({ alias: 'EQY_SH_OUT', millions: true });
    expect(lookupField('EBITDA')).toMatchObject({ alias: 'EBITDA', millions: true });
    expect(lookupField('ebitda')).toMatchObject({ alias: null, millions: false });
    expect(lookupField('Ebitda')).toMatchObject({ alias: null, millions: false });
    expect(lookupField('MARKETCAP')).toMatchObject({ field: { id: 'marketCap' } });
  });

  it('volume does not apply to currency pairs; marketCap only to equities, funds and crypto', () => {
    expect(FIELDS.find((f) => f.id === 'volume')?.appliesTo).not.toContain('currency');
    expect(FIELDS.find((f) => f.id === 'marketCap')?.appliesTo.sort()).toEqual(['crypto', 'equity', 'fund']);
  });

  const NOT_SERVED_ROWS: [string, RegExp][] = [
    // Issue 48: ISIN and CUSIP stay unserved (no open source licenses them); the FIGI is served.
    ['ID_ISIN', /no open source licenses ISINs/],
    ['ID_CUSIP', /no open source licenses CUSIPs/],
    ['GICS_SECTOR_NAME', /use sector/],
    ['GICS_INDUSTRY_NAME', /use industry/],
    ['BEST_EBITDA', /no consensus source/],
    ['BEST_ANALYST_RATING', /different scale/],
    ['EQY_DVD_YLD_12M', /use dividendYield/],
    ['SHORT_INT', /market\.short_interest/],
    ['YLD_YTM_MID', /bond analytics/],
    ['DUR_ADJ_MID', /bond analytics/],
    ['INT_ACC', /bond analytics/],
  ];
  for (const [name, reason] of NOT_SERVED_ROWS) {
    it(`${name} is not served, with its reason`, () => {
      expect(lookupField(name)).toMatchObject({ kind: 'not_served', reason: expect.stringMatching(reason) });
    });
  }

  it('lists every not-served field, and nothing else is unknown by accident', () => {
    expect(NOT_SERVED.map((n) => n.name).sort()).toEqual(NOT_SERVED_ROWS.map(([n]) => n).sort());
    expect(lookupField('NO_SUCH_FIELD')).toEqual({ kind: 'unknown' });
  });
});

describe('GET /v1/fields and /v1/openapi.json', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await testEnv({ env: { DATA_API_ENABLED: 'false' } });
  });
  afterAll(() => env.close());

  it('serves the dictionary without a key (and regardless of the stored-datasets switch)', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/v1/fields' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.fields).toHaveLength(ROWS.length);
    expect(body.fields.find((f: { id: string }) => f.id === 'sharesOutstanding')).toEqual({
      id: 'sharesOutstanding',
      aliases: [{ name: 'EQY_SH_OUT', millions: true }],
      unit: 'shares',
      appliesTo: ['equity'],
      history: false,
      group: 'valuation',
    });
    expect(body.notServed).toHaveLength(11);
  });

  it('serves its own OpenAPI 3.1 document, valid, without a key', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/fields', '/v1/openapi.json']));
    expect(Object.keys(doc.paths)).not.toContain('/v1/awards');
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.valid).toBe(true);
  });
});
