// Current values by ticker and field: from the stored quote, computed from stored bars (volatility, beta), or
// an error on that field. Values come back keyed as sent; [m] aliases in millions; minor units for terminal
// London, Johannesburg and Tel Aviv listings.

import type { Deps } from '../../kernel/deps.js';
import { AppError } from '../../kernel/errors.js';
import type { InstrumentIdentifiers, MarketProvider } from '../../kernel/market-provider.js';
import { FIGI_FIELDS, lookupField } from '../fields/dictionary.js';
import { type Resolving, resolveInput } from '../instrument/instrument.js';
import { type Looked, lookupMany } from '../instrument/lookup.js';
import { type Resolved, shown } from '../symbology/resolve.js';
import { ANSWER_WITHIN_MS, Deadline } from '../verb/deadline.js';
import { checkedAsOf, uniqueInputs } from '../verb/request.js';
import { barsSince } from './computed-fields.js';
import { type DataItem, dataItem, type FieldAsked, type Identified } from './item.js';

export const MAX_DATA_TICKERS = 50;
export const MAX_DATA_FIELDS = 25;

export interface DataRequest {
  tickers: string[];
  fields: string[];
  period?: 'annual' | 'quarterly';
  /** Statement fields as known at the end of this day (YYYY-MM-DD). */
  asOf?: string;
}

/** The request checked, each ticker and field once, with its defaults. */
export function readData(request: DataRequest, today: string) {
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
  return { tickers, fields, period, asOf: checkedAsOf(request.asOf, today) };
}

/** 1 unit per 20 tickers when every field comes from the quote, otherwise 1 per 5 tickers. */
export function dataUnits(request: ReadData): number {
  const quoteOnly = request.fields.every((f) => {
    const found = lookupField(f);
    return found.kind === 'field' && found.field.group === 'quote';
  });
  return Math.max(1, Math.ceil(request.tickers.length / (quoteOnly ? 20 : 5)));
}

type ReadData = ReturnType<typeof readData>;

/** /v1/data and market.data: current values for tickers x fields, each item answered on its own. */
export async function data(
  deps: Pick<Deps, 'market' | 'clock'>,
  r: ReadData,
  answerWithinMs = ANSWER_WITHIN_MS,
) {
  const provider = deps.market;
  const fields = r.fields.map((input) => ({ input, found: lookupField(input) }));
  const deadline = new Deadline(answerWithinMs);
  // Quote-like fields a provider may need more than a plain quote for (profile, estimates, key statistics).
  const quoteFieldIds = fields.flatMap(({ found }) =>
    found.kind === 'field' && !['computed', 'statement', 'identifier', 'bulk'].includes(found.field.group)
      ? [found.field.id]
      : [],
  );
  const today = deps.clock().toISOString().slice(0, 10);
  const since = barsSince(
    fields.flatMap(({ found }) => (found.kind === 'field' ? [found.field] : [])),
    today,
  );
  try {
    const resolvings = r.tickers.map((input) => resolveInput(input));
    if (since) for (const resolving of resolvings) readBarsEarly(provider, resolving, since);
    // The request's quotes are read at once: a live upstream is asked once for them all; so are its FIGIs.
    const looked = lookupMany(provider, resolvings, false, quoteFieldIds);
    const figis = fields.some((f) => f.found.kind === 'field' && FIGI_FIELDS.has(f.found.field.id))
      ? provider.identifiers(resolvings.flatMap((c) => (c.status === 'ok' ? [c.resolved] : [])))
      : null;
    figis?.catch(() => {});
    looked.catch(() => {});
    const items = await Promise.all(
      r.tickers.map((input, i) => {
        let resolved: Resolved | undefined;
        const work = looked.then((all) => {
          const result = all[i] as Looked;
          if (result.status === 'ok') resolved = result.found.resolved;
          const resolving = resolvings[i] as Resolving;
          const identified =
            figis && resolving.status === 'ok'
              ? identifiersOf(figis, resolving.resolved.symbol, input)
              : null;
          return dataItem(provider, result, fields, r, since ?? today, deps.clock(), identified);
        });
        return deadline.race(
          work,
          (): DataItem => ({
            input,
            status: 'error',
            ...(resolved ? { resolved: shown(resolved) } : {}),
            error: deadline.error,
          }),
        );
      }),
    );
    return { access: 'market-data', period: r.period, fields: fieldsAnswered(fields), items };
  } finally {
    deadline.clear();
  }
}

/** A listing's FIGIs among those read for the request, or why there are none. */
async function identifiersOf(
  read: Promise<Map<string, InstrumentIdentifiers | null | 'unreachable'>>,
  symbol: string,
  input: string,
): Promise<Identified> {
  const found = await read.then(
    (all) => all.get(symbol),
    () => 'unreachable' as const,
  );
  if (found === 'unreachable') return { error: 'OpenFIGI could not be reached; ask again later' };
  return found
    ? { ids: found }
    : { error: `OpenFIGI finds no listing of ${input} (or identifiers are not looked up here)` };
}

/**
 * Starts reading a ticker's bars beside its quote rather than after it: from a live upstream both then arrive
 * in one round trip. The item reads them again when it computes (the provider holds one read in flight).
 */
function readBarsEarly(provider: MarketProvider, resolving: Resolving, since: string): void {
  if (resolving.status === 'ok') provider.series(resolving.resolved, since).catch(() => {});
}

function fieldsAnswered(fields: FieldAsked[]) {
  return fields.map(({ input, found }) =>
    found.kind === 'field'
      ? {
          input,
          id: found.field.id,
          alias: found.alias,
          unit: found.millions ? `${found.field.unit}, millions` : found.field.unit,
        }
      : { input, id: null, alias: found.kind === 'not_served' ? found.name : null, unit: null },
  );
}
