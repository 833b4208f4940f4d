// Recorded Yahoo chart responses (chart.result[0]): daily bars, and the dividends, splits and capital gains of
// the window the request asked for, prices in main units.
import { dayOfEpoch } from '../../kernel/dates.js';
import type { Bar, CorporateAction } from '../../kernel/market-provider.js';
import { resolveInput } from '../instrument/instrument.js';
import { providerFactor, toMain } from './prices.js';
import type { MarketRecordValue } from './record.js';
import { mainUnits, quoteRecord, yahooTime } from './yahoo-common.js';

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
 * Why a chart's bars are not daily bars (Yahoo's `dataGranularity`: 1wk, 1mo, 3mo, or an intraday interval),
 * or null when they are (or the chart does not say).
 */
export function notDaily(chart: Chart): string | null {
  const granularity = chart.meta?.dataGranularity;
  if (typeof granularity !== 'string' || granularity === '1d') return null;
  return `its bars are of ${granularity} (the chart's dataGranularity), and a listing's bars are stored daily; record the chart with interval=1d`;
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
 * The action types a chart states all of over its window: those its request asked for, and those its body
 * carries (Yahoo sends `events.dividends` only to a request that asked for dividends: the body says it alone,
 * whether or not the request is recorded).
 */
export function knownEvents(
  chart: Chart,
  asked: readonly CorporateAction['type'][],
): CorporateAction['type'][] {
  const carried = EVENT_TYPES.flatMap(([member, type]) => (chart.events?.[member] ? [type] : []));
  return [...new Set([...asked, ...carried])];
}

/**
 * A chart response: its daily bars and corporate actions, the days it answered the actions it states all of
 * (`asked`: see knownEvents), then the quote in its meta (kept only when the meta names a currency).
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
