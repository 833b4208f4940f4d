// Fields computed from stored data rather than read: volatility and beta from daily closes, and the
// current-year P/E with its EPS estimate converted into the price currency.

import { yearsBefore } from '../../kernel/dates.js';
import { keptPerOwner } from '../../kernel/kept.js';
import type { Bar, MarketProvider, ProviderQuote, Repair } from '../../kernel/market-provider.js';
import { closesSince, rollUp } from '../compute/periods.js';
import { betaAdjusted, betaRaw, volatility } from '../compute/risk.js';
import type { FieldDef } from '../fields/dictionary.js';
import { fxRate } from '../instrument/fx.js';
import { instrumentOf } from '../instrument/instrument.js';
import type { Resolved } from '../symbology/resolve.js';
import { STORED } from '../verb/sources.js';

/** The broad US equity index betas are measured against. */
export const BETA_INDEX = '^GSPC';
const BETA_BENCHMARK = instrumentOf(BETA_INDEX);

export type Value = number | string | null;
export type FieldError = { code: string; message: string };

const VOLATILITY = /^volatility(\d+)d$/;

/**
 * The earliest date the computed fields asked need bars from (null: none is asked): the closes of the longest
 * volatility, or three years for beta's 105 weeks. A live provider then reads no deeper than that.
 */
export function barsSince(defs: readonly FieldDef[], today: string): string | null {
  let since: string | null = null;
  for (const def of defs) {
    if (def.group !== 'computed') continue;
    const vol = VOLATILITY.exec(def.id);
    const from = vol ? closesSince(today, Number(vol[1]) + 1) : yearsBefore(today, 3);
    if (since === null || from < since) since = from;
  }
  return since;
}

/** A computed value with the window of closes it was measured over (the last date is its asOf). */
export interface ComputedValue {
  value: number;
  window: { from: string; to: string };
  /** Set when closes in the window were repaired: which, and why. */
  repaired?: string;
  /** Where the closes came from. */
  source: string;
}

type Measured = ComputedValue | FieldError;

/**
 * Values measured on a series, by the series: a provider answers the same array until its data changes, so a
 * value is measured once per series and load, not once a call.
 */
const measuredOn = keptPerOwner<readonly Bar[], Measured>();
const seriesIds = new WeakMap<readonly Bar[], number>();
let nextSeriesId = 1;

function seriesId(series: readonly Bar[]): number {
  let id = seriesIds.get(series);
  if (id === undefined) {
    id = nextSeriesId++;
    seriesIds.set(series, id);
  }
  return id;
}

/** A computed field's value; `since` is the earliest date it needs bars from (`barsSince`). */
export async function computed(
  provider: MarketProvider,
  def: FieldDef,
  resolved: Resolved,
  since: string,
): Promise<Measured> {
  const vol = VOLATILITY.exec(def.id);
  if (vol) {
    const { bars: series, repairs, source = STORED } = await provider.listing(resolved, since);
    return withRepairs(
      measuredOn(series, def.id, () => volatilityOf(series, Number(vol[1]), source)),
      repairs,
    );
  }
  if (resolved.mic !== null || !['equity', 'fund'].includes(resolved.assetType)) {
    return { code: 'not_applicable', message: `${def.id} is served for US listings only` };
  }
  const [{ bars: series, repairs, source = STORED }, benchmark] = await Promise.all([
    provider.listing(resolved, since),
    provider.series(BETA_BENCHMARK, since),
  ]);
  return withRepairs(
    measuredOn(series, `${def.id} ${seriesId(benchmark)}`, () =>
      betaOf(def.id, resolved.symbol, series, benchmark, source),
    ),
    repairs,
  );
}

/** A measured value that says which closes in its window were repaired, and why. */
function withRepairs(measured: Measured, repairs: readonly Repair[]): Measured {
  if (repairs.length === 0 || 'code' in measured) return measured;
  const { from, to } = measured.window;
  const closes = repairs.filter((r) => r.field === 'close' && r.date >= from && r.date <= to);
  if (closes.length === 0) return measured;
  const dates = closes.map((r) => r.date);
  const shown =
    dates.length > 3 ? `${dates.slice(0, 3).join(', ')} and ${dates.length - 3} more` : dates.join(', ');
  return {
    ...measured,
    repaired: `measured over closes repaired on ${shown}: ${(closes[0] as Repair).reason}`,
  };
}

function volatilityOf(series: readonly Bar[], days: number, source: string): Measured {
  const bars = series.slice(-(days + 1));
  const value = volatility(
    bars.map((b) => b.close),
    days,
  );
  return value === null
    ? { code: 'not_found', message: `fewer than ${days + 1} daily closes stored` }
    : {
        value: Math.round(value * 1e4) / 1e4,
        window: { from: bars[0]!.date, to: bars[bars.length - 1]!.date },
        source,
      };
}

function betaOf(
  id: string,
  symbol: string,
  series: readonly Bar[],
  benchmark: readonly Bar[],
  source: string,
): Measured {
  const beta = betaRaw(rollUp(series, 'weekly'), rollUp(benchmark, 'weekly'));
  if (beta === null)
    return {
      code: 'not_found',
      message: `105 weeks held by both ${symbol} and ${BETA_INDEX} are needed`,
    };
  const value = id === 'betaRaw' ? beta.raw : betaAdjusted(beta.raw);
  return { value: Math.round(value * 1e6) / 1e6, window: { from: beta.from, to: beta.to }, source };
}

/** Price over the current-year EPS estimate, the estimate converted from the reporting currency first. */
export async function peCurrentYear(
  provider: MarketProvider,
  quote: ProviderQuote,
): Promise<Value | FieldError> {
  const price = quote.fields.price;
  const eps = quote.fields.epsEstimateCurrentYear;
  if (typeof price !== 'number' || typeof eps !== 'number' || eps === 0)
    return { code: 'not_found', message: 'no price or current-year EPS estimate stored' };
  const reporting = quote.fields.financialCurrency;
  const rate = typeof reporting === 'string' ? await fxRate(provider, reporting, quote.currency) : 1;
  if (rate === null)
    return {
      code: 'not_found',
      message: `no ${reporting}/${quote.currency} rate stored to convert the estimate`,
    };
  return Math.round((price / (eps * rate)) * 1e6) / 1e6;
}
