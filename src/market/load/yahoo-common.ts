// What every recorded Yahoo response shares: the naming members of a quote, the price currency's main unit,
// and times given in seconds or as text.
import type { MarketRecordValue } from './record.js';

const MINOR: Record<string, [string, number]> = {
  GBp: ['GBP', 100],
  GBX: ['GBP', 100],
  ZAc: ['ZAR', 100],
  ILA: ['ILS', 100],
};

export type QuoteRecord = Extract<MarketRecordValue, { type: 'quote' }>;

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
export function mainUnits(providerCurrency: unknown): [string, number] | null {
  if (typeof providerCurrency !== 'string' || !/^[A-Za-z]{3}$/.test(providerCurrency)) return null;
  return MINOR[providerCurrency] ?? [providerCurrency.toUpperCase(), 1];
}

/** A quote record from the naming members every Yahoo response shares (longName, shortName). */
export function quoteRecord(
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

/** quoteSummary values arrive as numbers or as {raw, fmt} objects. */
export function raw(value: unknown): number | string | null {
  if (value !== null && typeof value === 'object' && 'raw' in value)
    return raw((value as { raw: unknown }).raw);
  return typeof value === 'number' || typeof value === 'string' ? value : null;
}

/** A time Yahoo gives in seconds since the epoch (or as text), as an ISO date or time. */
export function yahooTime(value: unknown): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  const v = raw(value);
  if (typeof v === 'number') return new Date(v * 1000);
  if (typeof v === 'string' && !Number.isNaN(Date.parse(v))) return new Date(v);
  return null;
}

export const isoDay = (time: Date | null) => (time ? time.toISOString().slice(0, 10) : null);
