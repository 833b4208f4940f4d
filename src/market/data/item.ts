// One /v1/data item: each field asked, read from the quote, computed from the bars, taken from the statements,
// the FIGIs or SEC's exchange file, or an error on that field; the item old when its oldest value is.
import type {
  InstrumentIdentifiers,
  MarketProvider,
  ProviderQuote,
  StatementFact,
} from '../../kernel/market-provider.js';
import { factsKnownOn, statementSeries } from '../compute/statements.js';
import { FIGI_FIELDS, type FieldDef, type lookupField } from '../fields/dictionary.js';
import { type Looked, notHeld } from '../instrument/lookup.js';
import { inPriceCurrency } from '../instrument/price-units.js';
import { type Resolved, shown } from '../symbology/resolve.js';
import { barClose, staleReason } from '../symbology/sessions.js';
import { mainUnit } from '../symbology/tables.js';
import { fieldSource, STORED } from '../verb/sources.js';
import { computed, type FieldError, peCurrentYear, type Value } from './computed-fields.js';

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

export interface DataItem {
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
  /** Values computed from repaired closes: which, and why. */
  repaired?: Record<string, string>;
  /** Where the item's values came from, and (by field as sent) those that came from elsewhere. */
  source?: string;
  /** A stored quote: the file its price was loaded from. */
  file?: string;
  sources?: Record<string, string>;
  /** Set when a value is older than its market's last session, or came from an old copy (the upstream down). */
  stale?: boolean;
  staleReason?: string;
  error?: { code: string; message: string };
}

export type FieldAsked = { input: string; found: ReturnType<typeof lookupField> };

/** What an item's identifier fields read: its FIGIs, or why there are none. */
export type Identified = { ids: InstrumentIdentifiers } | { error: string };

/** What an item's fields read from, and what they add beside their values as they are read. */
interface Reading {
  provider: MarketProvider;
  input: string;
  resolved: Resolved;
  quote: ProviderQuote;
  /** Whether a quote was found (else `quote` is an empty one and says nothing of where values came from). */
  quoted: boolean;
  period: 'annual' | 'quarterly';
  knownOn: string | null;
  since: string;
  statements: Map<string, StatementFact[]>;
  identified: Promise<Identified> | null;
  /** When each answered price or quote value was true, for the staleness of the item. */
  timed: string[];
  asOf: Record<string, string>;
  windows: Record<string, { from: string; to: string }>;
  repaired: Record<string, string>;
  /** The quote's source, the item's; values from elsewhere are named in `sources`. */
  source: string;
  sources: Record<string, string>;
  periods: Record<string, string>;
  currencies: Record<string, string>;
  derived: string[];
  stale: boolean;
}

export async function dataItem(
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
  const reading: Reading = {
    provider,
    input: result.input,
    resolved,
    quote,
    quoted,
    period,
    knownOn,
    since,
    statements,
    identified,
    timed: [],
    asOf: {},
    windows: {},
    repaired: {},
    source: quote.source ?? STORED,
    sources: {},
    periods: {},
    currencies: {},
    derived: [],
    stale: quote.stale === true,
  };
  const values: Record<string, Value> = {};
  const errors: Record<string, FieldError> = {};
  for (const asked of fields) {
    // Most fields are read from the quote at hand: only those that wait for a read are awaited.
    const read = fieldValue(reading, asked);
    const value = read instanceof Promise ? await read : read;
    if (value !== null && typeof value === 'object') errors[asked.input] = value;
    values[asked.input] = value !== null && typeof value === 'object' ? null : value;
  }
  return answered(reading, values, errors, now);
}

/** The item from its values and errors, and what its reading added beside them. */
function answered(
  r: Reading,
  values: Record<string, Value>,
  errors: Record<string, FieldError>,
  now: Date,
): DataItem {
  // The oldest value answered says whether the item is old; an upstream that could not be reached does too.
  const oldest = r.timed.sort()[0];
  const reason =
    (oldest ? staleReason(r.resolved, oldest, now, 'oldest value') : null) ??
    (r.stale ? 'the upstream could not be reached: the last copy held is served' : null);
  const erred = Object.keys(errors).length;
  const some = (record: object) => Object.keys(record).length > 0;
  const { source, sources } = r.quoted ? r : sourcesOf(r, values);
  return {
    input: r.input,
    status: erred === 0 ? 'ok' : 'partial',
    resolved: shown(r.resolved),
    values,
    ...(some(r.periods) ? { periods: r.periods } : {}),
    ...(erred ? { errors } : {}),
    ...(some(r.currencies) ? { currencies: r.currencies } : {}),
    ...(r.derived.length ? { derived: r.derived } : {}),
    ...(some(r.asOf) ? { asOf: r.asOf } : {}),
    ...(some(r.windows) ? { windows: r.windows } : {}),
    ...(some(r.repaired) ? { repaired: r.repaired } : {}),
    source,
    ...(r.quoted && source === STORED && r.quote.file ? { file: r.quote.file } : {}),
    ...(some(sources) ? { sources } : {}),
    ...(reason ? { stale: true, staleReason: reason } : {}),
  };
}

type Answered = Value | FieldError;

/** One field's value as answered (in the price currency, in millions under an [m] alias), or its error. */
function fieldValue(r: Reading, { input, found }: FieldAsked): Answered | Promise<Answered> {
  if (found.kind === 'unknown') return { code: 'not_found', message: `no field "${input}"` };
  if (found.kind === 'not_served')
    return { code: 'not_applicable', message: `${found.name}: ${found.reason}` };
  const def = found.field;
  if (!def.appliesTo.includes(r.resolved.assetType as never))
    return { code: 'not_applicable', message: `${def.id} does not apply to ${r.resolved.assetType}` };
  const read = readValue(r, input, def, found.alias);
  const { millions } = found;
  return read instanceof Promise
    ? read.then((value) => shownValue(r, input, def, millions, value))
    : shownValue(r, input, def, millions, read);
}

/**
 * Where an item with no quote took its values from: the first answered value's source, and the values from
 * elsewhere (a statement-only item of EDGAR's filings says edgar, not the empty quote's stored).
 */
function sourcesOf(
  r: Reading,
  values: Record<string, Value>,
): { source: string; sources: Record<string, string> } {
  const sourceOf = (input: string) => r.sources[input] ?? r.source;
  const first = Object.keys(values).find((input) => values[input] !== null);
  const source = first === undefined ? r.source : sourceOf(first);
  const sources: Record<string, string> = {};
  for (const input of Object.keys(values))
    if (values[input] !== null && sourceOf(input) !== source) sources[input] = sourceOf(input);
  return { source, sources };
}

/** A value read, as answered: scaled to the price currency and to millions, its time kept beside it. */
function shownValue(
  r: Reading,
  input: string,
  def: FieldDef,
  millions: boolean | undefined,
  read: Answered,
): Answered {
  let value = read;
  if (value !== null && typeof value === 'object') return value;
  if (typeof value === 'number') {
    if (PRICE_CURRENCY.has(def.id)) value = inPriceCurrency(value, r.resolved);
    if (millions && typeof value === 'number') value /= 1e6;
  }
  if (def.id === 'marketCap' && (r.resolved.priceFactor ?? 1) !== 1) r.currencies[input] = r.quote.currency;
  if (def.group !== 'statement' && def.group !== 'computed') {
    const from = FIGI_FIELDS.has(def.id)
      ? 'openfigi'
      : def.group === 'identifier'
        ? STORED
        : fieldSource(r.quote, def.id);
    if (from !== r.source) r.sources[input] = from;
  }
  const at = r.quote.fieldsAsOf?.[def.id] ?? r.quote.asOf;
  if (!(input in r.asOf) && def.group !== 'statement' && def.group !== 'identifier' && at) {
    r.asOf[input] = at;
    r.timed.push(at);
  }
  return value;
}

/** A field's value where its group or id reads it from: at once from the quote, or once a read is in. */
function readValue(
  r: Reading,
  input: string,
  def: FieldDef,
  alias: string | null,
): Answered | Promise<Answered> {
  if (def.group === 'computed') return computedValue(r, input, def);
  if (def.group === 'statement') return statementValue(r, input, def);
  if (FIGI_FIELDS.has(def.id)) return figiValue(r, def);
  if (def.group === 'identifier') return identifierValue(r, input, def);
  const { quote, resolved } = r;
  switch (def.id) {
    case 'name':
      return resolved.name;
    // In the main unit whatever the form (GBP for BARC LN Equity, priced in pence, and for BARC.L alike).
    case 'currency':
      return mainUnit(quote.currency || resolved.currency);
    case 'exchange':
      return resolved.exchange || quote.exchange;
    case 'asOf':
      return quote.asOf;
    case 'peCurrentYear':
      return peCurrentYear(r.provider, quote);
    case 'totalReturnIndex':
      return {
        code: 'not_applicable',
        message: `${def.id} is a series: ask /v1/history for it (its newest value is the close)`,
      };
  }
  if (def.group === 'bulk')
    return {
      code: 'not_applicable',
      message: `${alias ?? def.id} is a list of rows: ask /v1/actions (market.actions, bds in the Python client)`,
    };
  const stored = quote.fields[def.id];
  return stored === undefined || stored === null
    ? { code: 'not_found', message: `no ${def.id} stored for ${r.input}` }
    : stored;
}

/** A value computed from the bars, as of the last close of its window (for beta, the last week both hold). */
async function computedValue(r: Reading, input: string, def: FieldDef): Promise<Value | FieldError> {
  const measured = await computed(r.provider, def, r.resolved, r.since);
  if (r.provider.staleBars?.(r.resolved)) r.stale = true;
  if ('code' in measured) return measured;
  r.windows[input] = measured.window;
  if (measured.repaired) r.repaired[input] = measured.repaired;
  if (measured.source !== r.source) r.sources[input] = measured.source;
  r.asOf[input] = measured.window.to;
  r.timed.push(barClose(r.resolved, measured.window.to));
  return measured.value;
}

/** The latest statement value of the period asked, as known on asOf, with its period end and filing date. */
function statementValue(r: Reading, input: string, def: FieldDef): Value | FieldError {
  if (r.provider.staleStatements?.(r.resolved)) r.stale = true;
  const held = r.statements.get(def.id) ?? [];
  const facts = r.knownOn ? factsKnownOn(held, r.knownOn) : held;
  const latest = statementSeries(def.id, facts, r.period).at(-1);
  if (!latest) return { code: 'not_found', message: `no ${r.period} ${def.id} stored for ${r.input}` };
  r.periods[input] = latest.end;
  const filed = facts
    .flatMap((f) => (f.end === latest.end && f.filed ? [f.filed] : []))
    .sort()
    .at(-1);
  if (filed) r.asOf[input] = filed;
  const from = facts[0]?.source ?? STORED;
  if (from !== r.source) r.sources[input] = from;
  if (latest.derived) r.derived.push(input);
  const currency = facts[0]?.currency;
  if (currency && !/per share|shares/.test(def.unit) && currency !== r.resolved.currency)
    r.currencies[input] = currency;
  return latest.value;
}

/** A FIGI of the listing, from OpenFIGI's answer for the request. */
async function figiValue(r: Reading, def: FieldDef): Promise<Value | FieldError> {
  const found = (await r.identified) ?? { error: 'not asked' };
  if ('error' in found) return { code: 'not_found', message: `${def.id}: ${found.error}` };
  const id = def.id in found.ids ? found.ids[def.id as keyof InstrumentIdentifiers] : undefined;
  return id ?? { code: 'not_found', message: `OpenFIGI gives no ${def.id} for ${r.input}` };
}

/**
 * SEC's exchange and CIK: facts of the listing, whether or not a quote is held, as of SEC's snapshot (the one
 * held at the end of asOf's day, when asked).
 */
async function identifierValue(r: Reading, input: string, def: FieldDef): Promise<Value | FieldError> {
  const facts =
    r.knownOn === null && def.id in r.quote.fields
      ? r.quote.fields
      : await r.provider.factsOf?.(r.resolved, r.knownOn ?? undefined);
  const held = facts?.[def.id];
  const snapshot = typeof facts?.exchangeSnapshotAt === 'string' ? facts.exchangeSnapshotAt : null;
  if (held === undefined || held === null)
    return {
      code: 'not_found',
      message: snapshot
        ? `no ${def.id} for ${r.input} in SEC's exchange file of ${snapshot.slice(0, 10)}`
        : `no ${def.id} stored for ${r.input} (SEC's exchange file names it for US listings)`,
    };
  if (snapshot) r.asOf[input] = snapshot;
  return held;
}
