// What the stored provider makes a quote of: a listing's last daily bars (a close is a quote at its session's
// close), its recorded quote and facts merged by recording time, and the short-interest members of its fields.
import type { Bar, Instrument, ProviderQuote, ShortInterest } from '../../kernel/market-provider.js';
import { barClose } from '../symbology/sessions.js';

function round(value: number): number {
  return Math.round(value * 1e8) / 1e8;
}

type Fields = ProviderQuote['fields'];

/** A quote's fields with the symbol's facts added: the newer recording wins where both have a value. */
export function withFacts(
  fields: Fields,
  asOf: string,
  facts: { asOf: string; fields: Fields } | undefined,
): Fields {
  if (!facts) return fields;
  return facts.asOf > asOf ? { ...fields, ...facts.fields } : { ...facts.fields, ...fields };
}

export function newest(a: string | undefined, b: string | undefined): string {
  return [a ?? '', b ?? ''].sort().at(-1) as string;
}

const num = (value: unknown) => (typeof value === 'number' ? value : null);

/** The short-interest members of a symbol's fields, when it has a settlement date and a short position. */
export function shortInterestOf(fields: Fields, asOf: string): ShortInterest | null {
  const sharesShort = num(fields.sharesShort);
  const settlementDate = typeof fields.shortInterestDate === 'string' ? fields.shortInterestDate : null;
  if (sharesShort === null || settlementDate === null) return null;
  return {
    sharesShort,
    sharesShortPriorMonth: num(fields.sharesShortPriorMonth),
    priorSettlementDate:
      typeof fields.shortInterestPriorDate === 'string' ? fields.shortInterestPriorDate : null,
    shortRatio: num(fields.shortRatio),
    percentOfFloat: num(fields.shortPercentOfFloat),
    percentOfSharesOutstanding: num(fields.shortPercentOfSharesOutstanding),
    settlementDate,
    asOf,
    source: 'yahoo',
  };
}

/** The price fields a quote made of bars gives. */
const BAR_FIELDS = [
  'price',
  'open',
  'high',
  'low',
  'volume',
  'previousClose',
  'change',
  'changePercent',
  'high52w',
  'low52w',
  'marketState',
] as const;

/** What a stored quote depends on beside the data: the listing's symbol and the market its close is timed by. */
export const listingKey = (i: Instrument) =>
  `${i.symbol}\u0000${i.mic ?? ''}\u0000${i.assetType}\u0000${i.currency}`;

/** A quote made of a symbol's last two daily bars, at the last one's session close; null without bars. */
export function barQuote(
  instrument: Instrument,
  bars: readonly Bar[],
  name = instrument.symbol,
): ProviderQuote | null {
  const { symbol } = instrument;
  const today = bars.at(-1);
  if (!today) return null;
  const before = bars.at(-2);
  const yearAgo = new Date(Date.parse(`${today.date}T00:00:00Z`) - 365 * 86_400_000)
    .toISOString()
    .slice(0, 10);
  let high52w = Number.NEGATIVE_INFINITY;
  let low52w = Number.POSITIVE_INFINITY;
  for (let i = bars.length - 1; i >= 0 && bars[i]!.date > yearAgo; i -= 1) {
    const b = bars[i]!;
    high52w = Math.max(high52w, b.high ?? b.close);
    low52w = Math.min(low52w, b.low ?? b.close);
  }
  const previous = before?.close ?? null;
  return {
    symbol,
    name,
    currency: '',
    exchange: '',
    assetType: '',
    // A close is true at its session's close where the listing's market is known, else at midnight UTC.
    asOf: barClose(instrument, today.date),
    fields: {
      price: today.close,
      open: today.open,
      high: today.high,
      low: today.low,
      volume: today.volume,
      previousClose: previous,
      change: previous === null ? null : round(today.close - previous),
      changePercent: previous ? round(((today.close - previous) / previous) * 100) : null,
      high52w,
      low52w,
      marketState: 'CLOSED',
    },
  };
}

/** The recording with the bars' newer prices: its other fields keep their own (older) time. */
export function newerPrices(quote: ProviderQuote, fromBars: ProviderQuote): ProviderQuote {
  const fields: Fields = { ...quote.fields };
  const fieldsAsOf: Record<string, string> = {};
  for (const id of Object.keys(quote.fields)) fieldsAsOf[id] = quote.asOf;
  for (const id of BAR_FIELDS) {
    fields[id] = fromBars.fields[id] ?? null;
    delete fieldsAsOf[id];
  }
  return {
    ...quote,
    asOf: fromBars.asOf,
    fields,
    fieldsAsOf,
    ...(fromBars.file ? { file: fromBars.file } : {}),
  };
}
