// Recorded Yahoo Finance responses ({request, response: {bodyJson}}): quote (quoteResponse.result[]) and
// quoteSummary (quoteSummary.result[0] with its modules). Each becomes a quote record by field id, prices in
// main units (GBp, ZAc and ILA are minor units); recordings of both kinds for one symbol add up.
import { readFileSync } from 'node:fs';
import { SourceError, type SourceFile } from '../../datasets/load/source.js';
import type { MarketRecordValue } from './import.js';
import { toMain } from './prices.js';

const MINOR: Record<string, [string, number]> = {
  GBp: ['GBP', 100],
  GBX: ['GBP', 100],
  ZAc: ['ZAR', 100],
  ILA: ['ILS', 100],
};

const ASSET_TYPES: Record<string, string> = {
  EQUITY: 'equity',
  ETF: 'fund',
  MUTUALFUND: 'fund',
  INDEX: 'index',
  FUTURE: 'future',
  CURRENCY: 'currency',
  CRYPTOCURRENCY: 'crypto',
};

/** Yahoo quote member -> our field id; `price` marks values in the price currency. */
const QUOTE_FIELDS: [string, string, boolean][] = [
  ['regularMarketPrice', 'price', true],
  ['regularMarketOpen', 'open', true],
  ['regularMarketDayHigh', 'high', true],
  ['regularMarketDayLow', 'low', true],
  ['regularMarketVolume', 'volume', false],
  ['regularMarketPreviousClose', 'previousClose', true],
  ['regularMarketChange', 'change', true],
  ['regularMarketChangePercent', 'changePercent', false],
  ['bid', 'bid', true],
  ['ask', 'ask', true],
  ['fiftyTwoWeekHigh', 'high52w', true],
  ['fiftyTwoWeekLow', 'low52w', true],
  ['marketCap', 'marketCap', false],
  ['marketState', 'marketState', false],
  ['trailingPE', 'trailingPE', false],
  ['forwardPE', 'forwardPE', false],
  ['epsTrailingTwelveMonths', 'trailingEps', false],
  ['epsCurrentYear', 'epsEstimateCurrentYear', false],
  ['sharesOutstanding', 'sharesOutstanding', false],
  ['trailingAnnualDividendRate', 'dividendRate', false],
];

type Result = Record<string, unknown>;

/** quoteSummary values arrive as numbers or as {raw, fmt} objects. */
function raw(value: unknown): number | string | null {
  if (value !== null && typeof value === 'object' && 'raw' in value)
    return raw((value as { raw: unknown }).raw);
  return typeof value === 'number' || typeof value === 'string' ? value : null;
}

type Module = Record<string, unknown>;
type Trend = { period?: string; earningsEstimate?: Module; revenueEstimate?: Module };

function summaryRecord(r: Record<string, Module | undefined>): MarketRecordValue | null {
  const price = r.price ?? {};
  const symbol = String(price.symbol ?? r.quoteType?.symbol ?? '');
  if (!symbol) return null;
  const providerCurrency = String(price.currency ?? r.summaryDetail?.currency ?? 'USD');
  const [currency, factor] = MINOR[providerCurrency] ?? [providerCurrency.toUpperCase(), 1];
  const fields: Record<string, number | string | null> = {};
  const set = (id: string, value: unknown, kind: 'price' | 'percent' | 'plain' = 'plain') => {
    const v = raw(value);
    if (v === null) return;
    if (typeof v !== 'number') fields[id] = v;
    else if (kind === 'price') fields[id] = toMain(v, factor);
    else if (kind === 'percent') fields[id] = Math.round(v * 100 * 1e8) / 1e8;
    else fields[id] = v;
  };
  const profile = r.assetProfile ?? r.summaryProfile ?? {};
  set('sector', profile.sector);
  set('industry', profile.industry);
  const fin = r.financialData ?? {};
  set('targetPrice', fin.targetMeanPrice, 'price');
  set('targetPriceMedian', fin.targetMedianPrice, 'price');
  set('targetPriceHigh', fin.targetHighPrice, 'price');
  set('targetPriceLow', fin.targetLowPrice, 'price');
  set('profitMargin', fin.profitMargins, 'percent');
  set('operatingMargin', fin.operatingMargins, 'percent');
  set('revenueTtm', fin.totalRevenue);
  set('financialCurrency', fin.financialCurrency);
  const stats = r.defaultKeyStatistics ?? {};
  set('forwardPE', stats.forwardPE);
  set('pegRatio', stats.pegRatio);
  set('floatShares', stats.floatShares);
  set('sharesOutstanding', stats.sharesOutstanding);
  set('enterpriseValue', stats.enterpriseValue);
  set('trailingEps', stats.trailingEps);
  set('netIncomeTtm', stats.netIncomeToCommon);
  const detail = r.summaryDetail ?? {};
  set('trailingPE', detail.trailingPE);
  // Yahoo's summary yield is the indicated (forward) one; without it only a trailing yield is known.
  set('indicatedDividendYield', detail.dividendYield, 'percent');
  set('dividendYield', raw(detail.dividendYield) ?? raw(detail.trailingAnnualDividendYield), 'percent');
  set('dividendRate', detail.dividendRate, 'price');
  set('marketCap', detail.marketCap);
  for (const trend of (r.earningsTrend?.trend as Trend[] | undefined) ?? []) {
    if (trend.period === '0y') {
      set('epsEstimateCurrentYear', trend.earningsEstimate?.avg);
      set('revenueEstimateCurrentYear', trend.revenueEstimate?.avg);
    } else if (trend.period === '+1y') set('epsEstimateNextYear', trend.earningsEstimate?.avg);
  }
  set('price', price.regularMarketPrice, 'price');
  set('previousClose', price.regularMarketPreviousClose, 'price');
  set('changePercent', price.regularMarketChangePercent, 'percent');
  set('volume', price.regularMarketVolume);
  set('marketState', price.marketState);
  const time = raw(price.regularMarketTime);
  const asOf =
    typeof time === 'number'
      ? new Date(time * 1000)
      : typeof time === 'string'
        ? new Date(time)
        : new Date(0);
  return {
    type: 'quote',
    symbol,
    name: String(price.longName ?? price.shortName ?? symbol),
    currency,
    exchange: String(price.exchangeName ?? ''),
    assetType: ASSET_TYPES[String(price.quoteType)] ?? 'equity',
    asOf: asOf.toISOString(),
    fields,
  };
}

export async function* yahooRecords(
  source: SourceFile,
): AsyncGenerator<{ line: number; value: MarketRecordValue }> {
  let body: {
    quoteResponse?: { result?: Result[] };
    quoteSummary?: { result?: Record<string, Record<string, unknown>>[] };
  };
  try {
    const recorded = JSON.parse(readFileSync(source.path, 'utf8'));
    body = recorded.response?.bodyJson ?? recorded;
  } catch (error) {
    throw new SourceError(source.name, null, `not JSON: ${(error as Error).message}`);
  }
  const summary = body.quoteSummary?.result?.[0];
  if (summary) {
    const record = summaryRecord(summary);
    if (!record) throw new SourceError(source.name, null, 'a quoteSummary response without the price module');
    yield { line: 1, value: record };
    return;
  }
  const results = body.quoteResponse?.result;
  if (!Array.isArray(results)) {
    throw new SourceError(source.name, null, 'not a recorded quote or quoteSummary response');
  }
  for (const [i, r] of results.entries()) {
    const symbol = String(r.symbol ?? '');
    const providerCurrency = String(r.currency ?? 'USD');
    const [currency, factor] = MINOR[providerCurrency] ?? [providerCurrency.toUpperCase(), 1];
    const fields: Record<string, number | string | null> = {};
    for (const [from, to, isPrice] of QUOTE_FIELDS) {
      const v = r[from];
      if (typeof v === 'number') fields[to] = isPrice ? toMain(v, factor) : v;
      else if (typeof v === 'string') fields[to] = v;
    }
    if (typeof r.financialCurrency === 'string') fields.financialCurrency = r.financialCurrency;
    if (typeof r.trailingAnnualDividendYield === 'number')
      fields.dividendYield = r.trailingAnnualDividendYield * 100;
    const time =
      typeof r.regularMarketTime === 'number'
        ? new Date(r.regularMarketTime * 1000).toISOString()
        : new Date(0).toISOString();
    yield {
      line: i + 1,
      value: {
        type: 'quote',
        symbol,
        name: String(r.longName ?? r.shortName ?? symbol),
        currency,
        exchange: String(r.fullExchangeName ?? r.exchange ?? ''),
        assetType: ASSET_TYPES[String(r.quoteType)] ?? 'equity',
        asOf: time,
        fields,
      },
    };
  }
}
