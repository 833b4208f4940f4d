// Recorded Yahoo Finance quote responses ({request, response: {bodyJson}} with quoteResponse.result[]). Each
// result becomes a quote record by field id, prices in main units (GBp, ZAc and ILA are minor units).
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

export async function* yahooRecords(
  source: SourceFile,
): AsyncGenerator<{ line: number; value: MarketRecordValue }> {
  let body: { quoteResponse?: { result?: Result[] } };
  try {
    const recorded = JSON.parse(readFileSync(source.path, 'utf8'));
    body = recorded.response?.bodyJson ?? recorded;
  } catch (error) {
    throw new SourceError(source.name, null, `not JSON: ${(error as Error).message}`);
  }
  const results = body.quoteResponse?.result;
  if (!Array.isArray(results))
    throw new SourceError(source.name, null, 'not a recorded quote response (no quoteResponse.result)');
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
