// Current values by ticker and field: from the stored quote, computed from stored bars (volatility, beta), or
// an error on that field. Values come back keyed as sent; [m] aliases in millions; minor units for terminal
// London, Johannesburg and Tel Aviv listings.
import { AppError } from '../app/errors.js';
import { rollUp } from './compute/periods.js';
import { betaAdjusted, betaRaw, volatility } from './compute/risk.js';
import { statementSeries } from './compute/statements.js';
import { type FieldDef, lookupField } from './fields/dictionary.js';
import { fxRate } from './fx.js';
import type { MarketProvider, ProviderQuote } from './providers/provider.js';
import { inPriceCurrency, lookup, uniqueInputs } from './quotes.js';
import type { Resolved } from './symbology/resolve.js';

export const MAX_DATA_TICKERS = 50;
export const MAX_DATA_FIELDS = 25;
/** The broad US equity index betas are measured against. */
export const BETA_INDEX = '^GSPC';

/** Fields quoted in the price currency (scaled to minor units where the terminal form asks for them). */
const PRICE_CURRENCY = new Set([
  'price',
  'open',
  'high',
  'low',
  'previousClose',
  'change',
  'bid',
  'ask',
  'high52w',
  'low52w',
  'dividendRate',
  'targetPrice',
  'targetPriceMedian',
  'targetPriceHigh',
  'targetPriceLow',
]);

export interface DataRequest {
  tickers: string[];
  fields: string[];
  period?: 'annual' | 'quarterly';
}

export function normaliseData(request: DataRequest) {
  const tickers = uniqueInputs(request.tickers);
  const fields = uniqueInputs(request.fields);
  if (tickers.length === 0 || fields.length === 0)
    throw new AppError('invalid_params', 'give at least one ticker and one field');
  if (tickers.length > MAX_DATA_TICKERS)
    throw new AppError(
      'invalid_params',
      `up to ${MAX_DATA_TICKERS} tickers a data request; ${tickers.length} given`,
    );
  if (fields.length > MAX_DATA_FIELDS)
    throw new AppError(
      'invalid_params',
      `up to ${MAX_DATA_FIELDS} fields a data request; ${fields.length} given`,
    );
  const period = request.period ?? 'annual';
  if (period !== 'annual' && period !== 'quarterly')
    throw new AppError('invalid_params', 'period must be annual or quarterly');
  return { tickers, fields, period };
}

/** 1 unit per 20 tickers when every field comes from the quote, otherwise 1 per 5 tickers. */
export function dataUnits(request: ReturnType<typeof normaliseData>): number {
  const quoteOnly = request.fields.every((f) => {
    const found = lookupField(f);
    return found.kind === 'field' && found.field.group === 'quote';
  });
  return Math.max(1, Math.ceil(request.tickers.length / (quoteOnly ? 20 : 5)));
}

type Value = number | string | null;
type FieldError = { code: string; message: string };

async function weeklyCloses(provider: MarketProvider, symbol: string) {
  return rollUp(await provider.bars(symbol), 'weekly').map((b) => b.close);
}

async function computed(
  provider: MarketProvider,
  def: FieldDef,
  resolved: Resolved,
): Promise<Value | FieldError> {
  const vol = /^volatility(\d+)d$/.exec(def.id);
  if (vol) {
    const days = Number(vol[1]);
    const value = volatility(await provider.lastCloses(resolved.symbol, days + 1), days);
    return value === null
      ? { code: 'not_found', message: `fewer than ${days + 1} daily closes stored` }
      : Math.round(value * 1e4) / 1e4;
  }
  if (resolved.mic !== null || !['equity', 'fund'].includes(resolved.assetType)) {
    return { code: 'not_applicable', message: `${def.id} is served for US listings only` };
  }
  const raw = betaRaw(
    await weeklyCloses(provider, resolved.symbol),
    await weeklyCloses(provider, BETA_INDEX),
  );
  if (raw === null)
    return {
      code: 'not_found',
      message: `105 weeks of ${resolved.symbol} and ${BETA_INDEX} closes are needed`,
    };
  const value = def.id === 'betaRaw' ? raw : (betaAdjusted(raw) as number);
  return Math.round(value * 1e6) / 1e6;
}

/** Price over the current-year EPS estimate, the estimate converted from the reporting currency first. */
async function peCurrentYear(provider: MarketProvider, quote: ProviderQuote): Promise<Value | FieldError> {
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

export async function data(provider: MarketProvider, request: DataRequest) {
  const r = normaliseData(request);
  const fields = r.fields.map((input) => ({ input, found: lookupField(input) }));
  const results = await lookup(provider, r.tickers, false);
  const items = await Promise.all(
    results.map(async (result) => {
      if (result.status === 'error') return { input: result.input, status: 'error', error: result.error };
      const { resolved, quote } = result.found;
      const values: Record<string, Value> = {};
      const errors: Record<string, FieldError> = {};
      const currencies: Record<string, string> = {};
      const periods: Record<string, string> = {};
      const derived: string[] = [];
      const statements = fields.some((f) => f.found.kind === 'field' && f.found.field.group === 'statement')
        ? await provider.statements(resolved.ticker)
        : new Map();
      const minor = (resolved.priceFactor ?? 1) !== 1;
      for (const { input, found } of fields) {
        values[input] = null;
        if (found.kind === 'unknown') {
          errors[input] = { code: 'not_found', message: `no field "${input}"` };
          continue;
        }
        if (found.kind === 'not_served') {
          errors[input] = { code: 'not_applicable', message: `${found.name}: ${found.reason}` };
          continue;
        }
        const def = found.field;
        if (!def.appliesTo.includes(resolved.assetType as never)) {
          errors[input] = {
            code: 'not_applicable',
            message: `${def.id} does not apply to ${resolved.assetType}`,
          };
          continue;
        }
        let value: Value | FieldError;
        if (def.group === 'computed') value = await computed(provider, def, resolved);
        else if (def.group === 'statement') {
          const facts = statements.get(def.id) ?? [];
          const latest = statementSeries(def.id, facts, r.period).at(-1);
          if (!latest)
            value = { code: 'not_found', message: `no ${r.period} ${def.id} stored for ${result.input}` };
          else {
            value = latest.value;
            periods[input] = latest.end;
            if (latest.derived) derived.push(input);
            const currency = facts[0]?.currency;
            if (currency && !/per share|shares/.test(def.unit) && currency !== resolved.currency)
              currencies[input] = currency;
          }
        } else if (def.id === 'name') value = resolved.name;
        else if (def.id === 'currency') value = quote.currency || resolved.currency;
        else if (def.id === 'exchange') value = resolved.exchange || quote.exchange;
        else if (def.id === 'asOf') value = quote.asOf;
        else if (def.id === 'peCurrentYear') value = await peCurrentYear(provider, quote);
        else {
          const stored = quote.fields[def.id];
          value =
            stored === undefined || stored === null
              ? { code: 'not_found', message: `no ${def.id} stored for ${result.input}` }
              : stored;
        }
        if (value !== null && typeof value === 'object') {
          errors[input] = value;
          continue;
        }
        if (typeof value === 'number') {
          if (PRICE_CURRENCY.has(def.id)) value = inPriceCurrency(value, resolved);
          if (found.millions) value = (value as number) / 1e6;
        }
        if (def.id === 'marketCap' && minor) currencies[input] = quote.currency;
        values[input] = value;
      }
      const erred = Object.keys(errors).length;
      return {
        input: result.input,
        status: erred === 0 ? 'ok' : 'partial',
        resolved,
        values,
        ...(Object.keys(periods).length ? { periods } : {}),
        ...(erred ? { errors } : {}),
        ...(Object.keys(currencies).length ? { currencies } : {}),
        ...(derived.length ? { derived } : {}),
      };
    }),
  );
  return {
    access: 'market-data',
    period: r.period,
    fields: fields.map(({ input, found }) =>
      found.kind === 'field'
        ? {
            input,
            id: found.field.id,
            alias: found.alias,
            unit: found.millions ? `${found.field.unit}, millions` : found.field.unit,
          }
        : { input, id: null, alias: found.kind === 'not_served' ? found.name : null, unit: null },
    ),
    items,
  };
}
