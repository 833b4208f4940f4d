// Recorded Yahoo Finance responses ({request, response: {bodyJson}}): quote (quoteResponse.result[]),
// quoteSummary (quoteSummary.result[0] with its modules), chart (daily bars and actions: yahoo-chart.ts) and
// fundamentals time series (yahoo-timeseries.ts). Each becomes quote records by field id, daily bars or
// statements, prices in main units (GBp, ZAc and ILA are minor units); several recordings for one symbol add up.
import { readFileSync } from 'node:fs';
import type { LoadContext } from '../../ingest/run.js';
import { SourceError, type SourceFile } from '../../ingest/source.js';
import { toMain } from './prices.js';
import type { MarketRecordValue } from './record.js';
import { askedEvents, type Chart, chartRecords, knownEvents, notDaily } from './yahoo-chart.js';
import { isoDay, mainUnits, quoteRecord, raw, yahooTime } from './yahoo-common.js';
import { type TimeSeries, timeSeriesRecords } from './yahoo-timeseries.js';

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

/** The field ids a quote response answers (the rest come from quoteSummary's modules). */
export const QUOTE_RESPONSE_FIELDS: ReadonlySet<string> = new Set([
  ...QUOTE_FIELDS.map(([, id]) => id),
  'financialCurrency',
  'dividendYield',
  'name',
  'currency',
  'exchange',
  'asOf',
]);

type Result = Record<string, unknown>;

type Module = Record<string, unknown>;
type Trend = { period?: string; earningsEstimate?: Module; revenueEstimate?: Module };

/**
 * A quoteSummary result: with its price module, the symbol's quote; without it (defaultKeyStatistics alone,
 * say), facts that add to the symbol's quote. `recorded` is what the recording knows besides the body: the
 * symbol it asked for and when it was answered. Price-currency values need the response to name its price
 * currency; a response that does not keeps none of them, and says so in `notes`.
 */
/** Keeps a summary's value as a field: a price in the main unit, a fraction as a percent, else as given. */
type SetField = (id: string, value: unknown, kind?: 'price' | 'percent' | 'plain') => void;

/** The key statistics module: valuation, shares, and short interest as of the settlement date FINRA published. */
function keyStatistics(stats: Module, set: SetField): void {
  set('forwardPE', stats.forwardPE);
  set('pegRatio', stats.pegRatio);
  set('floatShares', stats.floatShares);
  set('sharesOutstanding', stats.sharesOutstanding);
  set('enterpriseValue', stats.enterpriseValue);
  set('trailingEps', stats.trailingEps);
  set('netIncomeTtm', stats.netIncomeToCommon);
  // Short interest (shown by market.short_interest).
  set('sharesShort', stats.sharesShort);
  set('sharesShortPriorMonth', stats.sharesShortPriorMonth);
  set('shortRatio', stats.shortRatio);
  set('shortPercentOfFloat', stats.shortPercentOfFloat, 'percent');
  set('shortPercentOfSharesOutstanding', stats.sharesPercentSharesOut, 'percent');
  set('shortInterestDate', isoDay(yahooTime(stats.dateShortInterest)));
  set('shortInterestPriorDate', isoDay(yahooTime(stats.sharesShortPreviousMonthDate)));
}

export function summaryRecord(
  r: Record<string, Module | undefined>,
  recorded: { symbol: string | null; at: Date | null },
  notes: string[],
): MarketRecordValue | null {
  const price = r.price ?? {};
  const symbol = String(price.symbol ?? r.quoteType?.symbol ?? recorded.symbol ?? '');
  if (!symbol) return null;
  const units = mainUnits(price.currency ?? r.summaryDetail?.currency);
  const [currency, factor] = units ?? ['', 1];
  const fields: Record<string, number | string | null> = {};
  const skipped: string[] = [];
  const set: SetField = (id, value, kind = 'plain') => {
    const v = raw(value);
    if (v === null) return;
    if (typeof v !== 'number') fields[id] = v;
    else if (kind === 'price') {
      if (!units) skipped.push(id);
      else fields[id] = toMain(v, factor);
    } else if (kind === 'percent') fields[id] = Math.round(v * 100 * 1e8) / 1e8;
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
  keyStatistics(r.defaultKeyStatistics ?? {}, set);
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
  if (skipped.length > 0) {
    notes.push(`${symbol}: ${skipped.join(', ')} not kept: the response does not say its price currency`);
  }
  if (!r.price || !units) {
    const at = recorded.at ?? yahooTime(price.regularMarketTime) ?? new Date(0);
    return { type: 'facts', symbol, asOf: at.toISOString(), fields };
  }
  const asOf = yahooTime(price.regularMarketTime) ?? new Date(0);
  const exchange = String(price.exchangeName ?? '');
  return quoteRecord(
    price,
    { symbol, currency, exchange, yahooType: price.quoteType, asOf: asOf.toISOString() },
    fields,
  );
}

/** A recorded exchange: the request it answered and the response, its body parsed. */
interface Recording {
  request?: { url?: string };
  response?: { status?: number; statusText?: string; headers?: Record<string, string>; bodyJson?: never };
}

/** The symbol a recording asked for (its URL's path or `symbols`) and when it was answered (Date header). */
function recordingOf(recorded: Recording): { symbol: string | null; at: Date | null } {
  let symbol: string | null = null;
  try {
    const url = new URL(recorded.request?.url ?? '');
    const match = /\/(?:quoteSummary|chart|timeseries)\/([^/?]+)/.exec(url.pathname);
    symbol = match?.[1] ? decodeURIComponent(match[1]) : url.searchParams.get('symbols');
  } catch {
    symbol = null;
  }
  const date = recorded.response?.headers?.date;
  const at = date && !Number.isNaN(Date.parse(date)) ? new Date(date) : null;
  return { symbol, at };
}

/**
 * What a recorded error answer says (`{"quoteSummary": {"result": null, "error": {...}}}`, or Yahoo's general
 * `{"finance": {"error": ...}}`), naming the symbol asked for; undefined for an answer with data.
 */
function errorResponse(body: Record<string, unknown>, recorded: Recording): string | undefined {
  for (const [endpoint, part] of Object.entries(body)) {
    const { result, error } = (part ?? {}) as {
      result?: unknown;
      error?: { code?: string; description?: string };
    };
    if (!error || (Array.isArray(result) ? result.length > 0 : result)) continue;
    const symbol = recordingOf(recorded).symbol;
    const status = recorded.response?.status;
    const http = status
      ? ` (HTTP ${status}${recorded.response?.statusText ? ` ${recorded.response.statusText}` : ''})`
      : '';
    const what = [error.code, error.description].filter(Boolean).join(': ') || 'no description';
    return `a Yahoo ${endpoint} error response${symbol ? ` for ${symbol}` : ''}${http}: ${what}`;
  }
  return undefined;
}

export async function* yahooRecords(
  source: SourceFile,
  context: LoadContext,
): AsyncGenerator<{ line: number; value: MarketRecordValue }> {
  let body: {
    quoteResponse?: { result?: Result[] };
    quoteSummary?: { result?: Record<string, Record<string, unknown>>[] };
    chart?: { result?: Chart[] | null; error?: { code?: string; description?: string } | null };
    timeseries?: { result?: TimeSeries[] | null };
  };
  let recorded: Recording;
  try {
    recorded = JSON.parse(readFileSync(source.path, 'utf8'));
    body = recorded.response?.bodyJson ?? (recorded as typeof body);
  } catch (error) {
    throw new SourceError(source.name, null, `not JSON: ${(error as Error).message}`);
  }
  const failure = errorResponse(body as Record<string, unknown>, recorded);
  if (failure) throw new SourceError(source.name, null, failure);
  if (body.timeseries) {
    yield* timeSeriesRecords(body.timeseries.result ?? []);
    return;
  }
  if (body.chart) {
    const chart = body.chart.result?.[0];
    if (!chart) throw new SourceError(source.name, null, 'a chart response without data');
    const interval = notDaily(chart);
    if (interval) throw new SourceError(source.name, null, interval);
    const known = knownEvents(chart, askedEvents(recorded.request?.url));
    if (known.length === 0)
      context.notes.push(
        `${chart.meta?.symbol ?? source.name}: the chart carries no events and its request is not recorded, so its dividends and splits stay unknown (record the chart with events=div|split)`,
      );
    yield* chartRecords(chart, known);
    return;
  }
  const summary = body.quoteSummary?.result?.[0];
  if (summary) {
    const record = summaryRecord(summary, recordingOf(recorded), context.notes);
    if (!record) throw new SourceError(source.name, null, 'a quoteSummary response that names no symbol');
    yield { line: 1, value: record };
    return;
  }
  const results = body.quoteResponse?.result;
  if (!Array.isArray(results)) {
    throw new SourceError(
      source.name,
      null,
      'not a recorded quote, quoteSummary, chart or fundamentals time-series response',
    );
  }
  for (const [i, r] of results.entries()) yield { line: i + 1, value: quoteResultRecord(r, context.notes) };
  const answered = new Set(results.map((r) => r.symbol));
  const asked = recordingOf(recorded).symbol?.split(',') ?? [];
  for (const symbol of asked.filter((s) => s && !answered.has(s)))
    context.notes.push(`${symbol}: Yahoo answered nothing for it (no such symbol)`);
}

/**
 * One result of a quote response (raw, or as yahoo-finance2 returns it, times as Dates) as a quote record. A
 * partial result (asked with `fields=`, say) that does not name its currency is facts that add to the stored
 * quote: its prices are not kept, and the name, currency and exchange held are left as they are.
 */
export function quoteResultRecord(r: Result, notes: string[] = []): MarketRecordValue {
  const symbol = String(r.symbol ?? '');
  const units = mainUnits(r.currency);
  const fields: Record<string, number | string | null> = {};
  const skipped: string[] = [];
  for (const [from, to, isPrice] of QUOTE_FIELDS) {
    const v = r[from];
    if (typeof v === 'number' && isPrice && !units) skipped.push(to);
    else if (typeof v === 'number') fields[to] = isPrice ? toMain(v, (units as [string, number])[1]) : v;
    else if (typeof v === 'string') fields[to] = v;
  }
  if (typeof r.financialCurrency === 'string') fields.financialCurrency = r.financialCurrency;
  if (typeof r.trailingAnnualDividendYield === 'number')
    fields.dividendYield = r.trailingAnnualDividendYield * 100;
  const time = yahooTime(r.regularMarketTime) ?? new Date(0);
  if (!units) {
    const lost = skipped.length ? `; ${skipped.join(', ')} not kept` : '';
    notes.push(
      `${symbol}: a partial quote that does not say its currency${lost}; its name, currency and exchange left as held`,
    );
    return { type: 'facts', symbol, asOf: time.toISOString(), fields };
  }
  const [currency] = units;
  return quoteRecord(
    r,
    {
      symbol,
      currency,
      exchange: String(r.fullExchangeName ?? r.exchange ?? ''),
      yahooType: r.quoteType,
      asOf: time.toISOString(),
    },
    fields,
  );
}
