// Recorded Yahoo Finance responses ({request, response: {bodyJson}}): quote (quoteResponse.result[]),
// quoteSummary (quoteSummary.result[0] with its modules), chart (chart.result[0], daily bars) and fundamentals
// time series (yahoo-timeseries.ts). Each becomes quote records by field id, daily bars or statements, prices
// in main units (GBp, ZAc and ILA are minor units); several recordings for one symbol add up.
import { readFileSync } from 'node:fs';
import type { LoadContext } from '../../ingest/run.js';
import { SourceError, type SourceFile } from '../../ingest/source.js';
import { dayOfEpoch } from '../../kernel/dates.js';
import type { Bar, CorporateAction } from '../../kernel/market-provider.js';
import { resolveInput } from '../instrument.js';
import { providerFactor, toMain } from './prices.js';
import type { MarketRecordValue } from './record.js';
import { type TimeSeries, timeSeriesRecords } from './yahoo-timeseries.js';

const MINOR: Record<string, [string, number]> = {
  GBp: ['GBP', 100],
  GBX: ['GBP', 100],
  ZAc: ['ZAR', 100],
  ILA: ['ILS', 100],
};

type QuoteRecord = Extract<MarketRecordValue, { type: 'quote' }>;

const ASSET_TYPES: Record<string, QuoteRecord['assetType']> = {
  EQUITY: 'equity',
  ETF: 'fund',
  MUTUALFUND: 'fund',
  INDEX: 'index',
  FUTURE: 'future',
  CURRENCY: 'currency',
  CRYPTOCURRENCY: 'crypto',
};

/**
 * The main currency of a Yahoo price currency and how many provider units make one main unit; null when the
 * response does not say (a partial response): nothing is assumed, so nothing stored is overwritten by a guess.
 */
function mainUnits(providerCurrency: unknown): [string, number] | null {
  if (typeof providerCurrency !== 'string' || !/^[A-Za-z]{3}$/.test(providerCurrency)) return null;
  return MINOR[providerCurrency] ?? [providerCurrency.toUpperCase(), 1];
}

/** A quote record from the naming members every Yahoo response shares (longName, shortName). */
function quoteRecord(
  names: Record<string, unknown>,
  quote: { symbol: string; currency: string; exchange: string; yahooType: unknown; asOf: string },
  fields: Record<string, number | string | null>,
): MarketRecordValue {
  return {
    type: 'quote',
    symbol: quote.symbol,
    name: String(names.longName ?? names.shortName ?? quote.symbol),
    currency: quote.currency,
    exchange: quote.exchange,
    assetType: ASSET_TYPES[String(quote.yahooType)] ?? 'equity',
    asOf: quote.asOf,
    fields,
  };
}

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

/** quoteSummary values arrive as numbers or as {raw, fmt} objects. */
function raw(value: unknown): number | string | null {
  if (value !== null && typeof value === 'object' && 'raw' in value)
    return raw((value as { raw: unknown }).raw);
  return typeof value === 'number' || typeof value === 'string' ? value : null;
}

type Module = Record<string, unknown>;
type Trend = { period?: string; earningsEstimate?: Module; revenueEstimate?: Module };

/** A time Yahoo gives in seconds since the epoch (or as text), as an ISO date or time. */
function yahooTime(value: unknown): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  const v = raw(value);
  if (typeof v === 'number') return new Date(v * 1000);
  if (typeof v === 'string' && !Number.isNaN(Date.parse(v))) return new Date(v);
  return null;
}

const isoDay = (time: Date | null) => (time ? time.toISOString().slice(0, 10) : null);

/**
 * A quoteSummary result: with its price module, the symbol's quote; without it (defaultKeyStatistics alone,
 * say), facts that add to the symbol's quote. `recorded` is what the recording knows besides the body: the
 * symbol it asked for and when it was answered. Price-currency values need the response to name its price
 * currency; a response that does not keeps none of them, and says so in `notes`.
 */
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
  const set = (id: string, value: unknown, kind: 'price' | 'percent' | 'plain' = 'plain') => {
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
  const stats = r.defaultKeyStatistics ?? {};
  set('forwardPE', stats.forwardPE);
  set('pegRatio', stats.pegRatio);
  set('floatShares', stats.floatShares);
  set('sharesOutstanding', stats.sharesOutstanding);
  set('enterpriseValue', stats.enterpriseValue);
  set('trailingEps', stats.trailingEps);
  set('netIncomeTtm', stats.netIncomeToCommon);
  // Short interest, as of the settlement date FINRA published it for (shown by market.short_interest).
  set('sharesShort', stats.sharesShort);
  set('sharesShortPriorMonth', stats.sharesShortPriorMonth);
  set('shortRatio', stats.shortRatio);
  set('shortPercentOfFloat', stats.shortPercentOfFloat, 'percent');
  set('shortPercentOfSharesOutstanding', stats.sharesPercentSharesOut, 'percent');
  set('shortInterestDate', isoDay(yahooTime(stats.dateShortInterest)));
  set('shortInterestPriorDate', isoDay(yahooTime(stats.sharesShortPreviousMonthDate)));
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

type ChartEvent = { date?: number; amount?: number; numerator?: number; denominator?: number };

export type Chart = {
  meta?: Record<string, unknown>;
  timestamp?: number[];
  indicators?: { quote?: Record<string, (number | null)[]>[] };
  /** Keyed by the ex-date's epoch seconds. */
  events?: {
    dividends?: Record<string, ChartEvent>;
    splits?: Record<string, ChartEvent>;
    capitalGains?: Record<string, ChartEvent>;
  };
};

/**
 * chart prices are float32 renderings of the published price (129.0399932861328, 1286.5699462890625): float32
 * holds about seven significant digits, and no price has more places than priceHint + 2.
 */
function chartValue(value: number | null | undefined, places: number, factor: number): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  const rounded = Math.round(Number(value.toPrecision(7)) * 10 ** places) / 10 ** places;
  return toMain(rounded, factor);
}

/** How many provider units make one main unit on a symbol's own listing (100 for London's pence). */
function listingFactor(symbol: string): number {
  const resolution = resolveInput(symbol);
  return resolution.status === 'ok' ? providerFactor(resolution.resolved.mic) : 1;
}

/**
 * A chart's daily bars (split-adjusted, as Yahoo publishes them) in the listing's main units, each with its
 * line: the 1-based position of its timestamp. A day without a trade has no bar.
 */
export function chartBars(chart: Chart): { bars: Bar[]; lines: number[] } {
  const meta = chart.meta ?? {};
  const symbol = String(meta.symbol ?? '');
  const bars: Bar[] = [];
  const lines: number[] = [];
  if (!symbol) return { bars, lines };
  // Without its currency a chart's bars are read in the listing's own units.
  const factor = mainUnits(meta.currency)?.[1] ?? listingFactor(symbol);
  const places = (typeof meta.priceHint === 'number' ? meta.priceHint : 2) + 2;
  const offset = typeof meta.gmtoffset === 'number' ? meta.gmtoffset : 0;
  const quote = chart.indicators?.quote?.[0] ?? {};
  const timestamps = chart.timestamp ?? [];
  for (let i = 0; i < timestamps.length; i += 1) {
    const close = chartValue(quote.close?.[i], places, factor);
    if (close === null) continue;
    const volume = quote.volume?.[i];
    bars.push({
      // The bar's time is the session open; shifted to exchange time it falls on the trading day.
      date: dayOfEpoch(timestamps[i]! + offset),
      open: chartValue(quote.open?.[i], places, factor),
      high: chartValue(quote.high?.[i], places, factor),
      low: chartValue(quote.low?.[i], places, factor),
      close,
      volume: typeof volume === 'number' ? volume : null,
    });
    lines.push(i + 1);
  }
  return { bars, lines };
}

const EVENT_TYPES = [
  ['dividends', 'dividend'],
  ['capitalGains', 'capitalGain'],
  ['splits', 'split'],
] as const;

/**
 * A chart's corporate actions, oldest first: dividends and capital gains per share in the listing's main units
 * (in the shares of the chart's split-adjusted bars, as Yahoo sends them), splits as numerator for denominator,
 * each dated on the exchange day of its ex-date. An event without a positive amount or ratio is left out.
 */
export function chartActions(chart: Chart): CorporateAction[] {
  const meta = chart.meta ?? {};
  const symbol = String(meta.symbol ?? '');
  if (!symbol || !chart.events) return [];
  const factor = mainUnits(meta.currency)?.[1] ?? listingFactor(symbol);
  const offset = typeof meta.gmtoffset === 'number' ? meta.gmtoffset : 0;
  const positive = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;
  const actions: CorporateAction[] = [];
  for (const [member, type] of EVENT_TYPES) {
    for (const [key, event] of Object.entries(chart.events[member] ?? {})) {
      const at = typeof event.date === 'number' ? event.date : Number(key);
      if (!Number.isFinite(at)) continue;
      const date = dayOfEpoch(at + offset);
      if (type === 'split') {
        if (positive(event.numerator) && positive(event.denominator))
          actions.push({ date, type, numerator: event.numerator, denominator: event.denominator });
      } else if (positive(event.amount)) {
        // Amounts are doubles of the published figure: 0.205, not 0.20499999821186066.
        actions.push({ date, type, amount: toMain(Number(event.amount.toPrecision(10)), factor) });
      }
    }
  }
  return actions.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

const ASKED: Record<string, CorporateAction['type']> = {
  div: 'dividend',
  split: 'split',
  capitalGain: 'capitalGain',
  capitalGains: 'capitalGain',
};

/** The actions a chart request asked for (its `events`, div|split): those its answer says all of. */
export function askedEvents(url: string | undefined): CorporateAction['type'][] {
  if (!url) return [];
  let events: string | null;
  try {
    events = new URL(url).searchParams.get('events');
  } catch {
    return [];
  }
  const asked = (events ?? '').split('|').flatMap((e) => (ASKED[e] ? [ASKED[e]] : []));
  return [...new Set(asked)];
}

/**
 * A chart response: its daily bars and corporate actions, the days it answered the actions asked for
 * (`asked`, from the request), then the quote in its meta (kept only when the meta names a currency).
 */
export function* chartRecords(
  chart: Chart,
  asked: readonly CorporateAction['type'][] = [],
): Generator<{ line: number; value: MarketRecordValue }> {
  const meta = chart.meta ?? {};
  const symbol = String(meta.symbol ?? '');
  if (!symbol) return;
  const units = mainUnits(meta.currency);
  const [currency, factor] = units ?? ['', listingFactor(symbol)];
  const { bars, lines } = chartBars(chart);
  for (const [i, bar] of bars.entries()) {
    yield { line: lines[i]!, value: { type: 'bar', symbol, ...bar } };
  }
  // An event has no line of its own: it is reported at the bar of its ex-date, or the chart's end.
  const lineOf = new Map(bars.map((bar, i) => [bar.date, lines[i]!]));
  for (const { type, date, ...rest } of chartActions(chart)) {
    const line = lineOf.get(date) ?? (chart.timestamp?.length ?? 0) + 1;
    yield { line, value: { type: 'action', symbol, date, action: type, ...rest } };
  }
  const first = bars[0];
  const last = bars.at(-1);
  if (first && last && asked.length)
    yield {
      line: (chart.timestamp?.length ?? 0) + 1,
      value: { type: 'actionsKnown', symbol, start: first.date, end: last.date, actions: [...asked] },
    };
  const fields: Record<string, number> = {};
  for (const [from, to] of [
    ['regularMarketPrice', 'price'],
    ['regularMarketDayHigh', 'high'],
    ['regularMarketDayLow', 'low'],
    ['fiftyTwoWeekHigh', 'high52w'],
    ['fiftyTwoWeekLow', 'low52w'],
  ] as const) {
    const v = meta[from];
    if (typeof v === 'number') fields[to] = toMain(v, factor);
  }
  if (typeof meta.regularMarketVolume === 'number') fields.volume = meta.regularMarketVolume;
  const marketTime = yahooTime(meta.regularMarketTime);
  if (!marketTime || !units) return;
  yield {
    line: (chart.timestamp?.length ?? 0) + 1,
    value: quoteRecord(
      meta,
      {
        symbol,
        currency,
        exchange: String(meta.fullExchangeName ?? meta.exchangeName ?? ''),
        yahooType: meta.instrumentType,
        asOf: marketTime.toISOString(),
      },
      fields,
    ),
  };
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
    yield* chartRecords(chart, askedEvents(recorded.request?.url));
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
