// Current values by ticker and field: from the stored quote, computed from stored bars (volatility, beta), or
// an error on that field. Values come back keyed as sent; [m] aliases in millions; minor units for terminal
// London, Johannesburg and Tel Aviv listings.

import type { Deps } from '../../kernel/deps.js';
import { AppError } from '../../kernel/errors.js';
import type { InstrumentIdentifiers, MarketProvider, StatementFact } from '../../kernel/market-provider.js';
import { factsKnownOn, statementSeries } from '../compute/statements.js';
import { barsSince, computed, type FieldError, peCurrentYear, type Value } from './computed-fields.js';
import { ANSWER_WITHIN_MS, Deadline } from '../verb/deadline.js';
import { FIGI_FIELDS, lookupField } from '../fields/dictionary.js';
import { type Resolving, resolveInput } from '../instrument/instrument.js';
import { type Looked, lookupMany, notHeld } from '../instrument/lookup.js';
import { inPriceCurrency } from '../instrument/price-units.js';
import { checkedAsOf, uniqueInputs } from '../verb/request.js';
import { type Resolved, shown } from '../symbology/resolve.js';
import { barClose, staleReason } from '../symbology/sessions.js';
import { mainUnit } from '../symbology/tables.js';

export const MAX_DATA_TICKERS = 50;
export const MAX_DATA_FIELDS = 25;

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

interface DataItem {
  input: string;
  status: 'ok' | 'partial' | 'error';
  resolved?: Resolved;
  values?: Record<string, Value>;
  periods?: Record<string, string>;
  errors?: Record<string, FieldError>;
  currencies?: Record<string, string>;
  derived?: string[];
  /** How old each value is, keyed by field as sent: quote time, last bar date or filing date. */
  asOf?: Record<string, string>;
  /** The dates of the first and last closes each computed value was measured over. */
  windows?: Record<string, { from: string; to: string }>;
  /** Set when a value is older than its market's last session, or came from an old copy (the upstream down). */
  stale?: boolean;
  staleReason?: string;
  error?: { code: string; message: string };
}
type FieldAsked = { input: string; found: ReturnType<typeof lookupField> };

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

/** What an item's identifier fields read: its FIGIs, or why there are none. */
type Identified = { ids: InstrumentIdentifiers } | { error: string };

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

async function dataItem(
  provider: MarketProvider,
  result: Looked,
  fields: FieldAsked[],
  { period, asOf: knownOn }: { period: 'annual' | 'quarterly'; asOf: string | null },
  since: string,
  now: Date,
  identified: Promise<Identified> | null,
): Promise<DataItem> {
  if (result.status === 'error') return { input: result.input, status: 'error', error: result.error };
  const { resolved, quote, quoted } = result.found;
  /** When each answered price or quote value was true, for the staleness of the item. */
  const timed: string[] = [];
  const values: Record<string, Value> = {};
  const errors: Record<string, FieldError> = {};
  const currencies: Record<string, string> = {};
  const periods: Record<string, string> = {};
  const asOf: Record<string, string> = {};
  const windows: Record<string, { from: string; to: string }> = {};
  let stale = quote.stale === true;
  const derived: string[] = [];
  const statements = fields.some((f) => f.found.kind === 'field' && f.found.field.group === 'statement')
    ? await provider.statements(resolved)
    : new Map<string, StatementFact[]>();
  // A ticker with no quote, facts, bars or statements held is not found: nothing is answered for it, not even
  // a currency the resolution could only guess.
  if (
    !quoted &&
    statements.size === 0 &&
    !(identified && 'ids' in (await identified)) &&
    !(await provider.hasFacts?.(resolved)) &&
    (await provider.series(resolved, since)).length === 0
  )
    return { input: result.input, status: 'error', error: notHeld(result.input, resolved) };
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
    if (def.group === 'computed') {
      const measured = await computed(provider, def, resolved, since);
      if ('code' in measured) value = measured;
      else {
        // A computed value is as of the last close of its window (for beta, the last week both series hold).
        value = measured.value;
        windows[input] = measured.window;
        asOf[input] = measured.window.to;
        timed.push(barClose(resolved, measured.window.to));
      }
      if (provider.staleBars?.(resolved)) stale = true;
    } else if (def.group === 'statement') {
      if (provider.staleStatements?.(resolved)) stale = true;
      const held = statements.get(def.id) ?? [];
      const facts = knownOn ? factsKnownOn(held, knownOn) : held;
      const latest = statementSeries(def.id, facts, period).at(-1);
      if (!latest)
        value = { code: 'not_found', message: `no ${period} ${def.id} stored for ${result.input}` };
      else {
        value = latest.value;
        periods[input] = latest.end;
        const filed = facts
          .filter((f) => f.end === latest.end && f.filed)
          .map((f) => f.filed as string)
          .sort()
          .at(-1);
        if (filed) asOf[input] = filed;
        if (latest.derived) derived.push(input);
        const currency = facts[0]?.currency;
        if (currency && !/per share|shares/.test(def.unit) && currency !== resolved.currency)
          currencies[input] = currency;
      }
    } else if (FIGI_FIELDS.has(def.id)) {
      const found = (await identified) ?? { error: 'not asked' };
      value =
        'error' in found
          ? { code: 'not_found', message: `${def.id}: ${found.error}` }
          : (found.ids[def.id as keyof InstrumentIdentifiers] ?? {
              code: 'not_found',
              message: `OpenFIGI gives no ${def.id} for ${result.input}`,
            });
    } else if (def.id === 'name') value = resolved.name;
    // In the main unit whatever the form (GBP for BARC LN Equity, priced in pence, and for BARC.L alike).
    else if (def.id === 'currency') value = mainUnit(quote.currency || resolved.currency);
    else if (def.id === 'exchange') value = resolved.exchange || quote.exchange;
    else if (def.id === 'asOf') value = quote.asOf;
    else if (def.id === 'peCurrentYear') value = await peCurrentYear(provider, quote);
    else if (def.group === 'bulk')
      value = {
        code: 'not_applicable',
        message: `${found.alias ?? def.id} is a list of rows: ask /v1/actions (market.actions, bds in the Python client)`,
      };
    else if (def.group === 'identifier') {
      // SEC's exchange and CIK: facts of the listing, whether or not a quote is held, as of SEC's snapshot (the
      // one held at the end of asOf's day, when asked).
      const facts =
        knownOn === null && def.id in quote.fields
          ? quote.fields
          : await provider.factsOf?.(resolved, knownOn ?? undefined);
      const held = facts?.[def.id];
      const snapshot = typeof facts?.exchangeSnapshotAt === 'string' ? facts.exchangeSnapshotAt : null;
      if (held !== undefined && held !== null && snapshot) asOf[input] = snapshot;
      value =
        held === undefined || held === null
          ? {
              code: 'not_found',
              message: snapshot
                ? `no ${def.id} for ${result.input} in SEC's exchange file of ${snapshot.slice(0, 10)}`
                : `no ${def.id} stored for ${result.input} (SEC's exchange file names it for US listings)`,
            }
          : held;
    } else if (def.id === 'totalReturnIndex')
      value = {
        code: 'not_applicable',
        message: `${def.id} is a series: ask /v1/history for it (its newest value is the close)`,
      };
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
    const at = quote.fieldsAsOf?.[def.id] ?? quote.asOf;
    if (!(input in asOf) && def.group !== 'statement' && def.group !== 'identifier' && at) {
      asOf[input] = at;
      timed.push(at);
    }
  }
  // The oldest value answered says whether the item is old; an upstream that could not be reached does too.
  const oldest = timed.sort()[0];
  const reason =
    (oldest ? staleReason(resolved, oldest, now, 'oldest value') : null) ??
    (stale ? 'the upstream could not be reached: the last copy held is served' : null);
  const erred = Object.keys(errors).length;
  return {
    input: result.input,
    status: erred === 0 ? 'ok' : 'partial',
    resolved: shown(resolved),
    values,
    ...(Object.keys(periods).length ? { periods } : {}),
    ...(erred ? { errors } : {}),
    ...(Object.keys(currencies).length ? { currencies } : {}),
    ...(derived.length ? { derived } : {}),
    ...(Object.keys(asOf).length ? { asOf } : {}),
    ...(Object.keys(windows).length ? { windows } : {}),
    ...(reason ? { stale: true, staleReason: reason } : {}),
  };
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
