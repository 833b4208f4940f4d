// History rows by ticker and field: prices and volume daily, weekly or monthly from stored daily bars, oldest
// first; statement fields quarterly or annually. Each field that cannot be served is an error on its item.

import type { Deps } from '../../kernel/deps.js';
import type {
  Bar,
  CorporateAction,
  HeldActions,
  MarketProvider,
  Repair,
} from '../../kernel/market-provider.js';
import { type BarColumn, type BarColumnName, BarRows } from '../bars/rows.js';
import { type Adjustment, keptAdjusted, knownSpans, knownThrough, spansText } from '../compute/adjust.js';
import { type BarPeriod, barRange, rollUp } from '../compute/periods.js';
import { factsKnownOn, statementSeries } from '../compute/statements.js';
import { type FieldDef, lookupField } from '../fields/dictionary.js';
import { resolveInput } from '../instrument/instrument.js';
import { type Resolved, shown } from '../symbology/resolve.js';
import { barClose, staleReason } from '../symbology/sessions.js';
import { ANSWER_WITHIN_MS, Deadline } from '../verb/deadline.js';
import {
  DAILY_YEARS,
  type HistoryPeriod,
  type HistoryRequest,
  isoDate,
  isStatementPeriod,
  type ReadHistory,
  shiftYears,
} from './request.js';

const BAR_FIELDS: Record<string, BarColumnName> = {
  price: 'close',
  totalReturnIndex: 'totalReturn',
  open: 'open',
  high: 'high',
  low: 'low',
  volume: 'volume',
};

type FieldAnswer = {
  input: string;
  def: FieldDef | null;
  alias: string | null;
  /** Asked for under an alias that returns millions. */
  millions?: boolean;
  error?: { code: string; message: string };
};

function fieldFor(input: string, period: HistoryPeriod): FieldAnswer {
  const found = lookupField(input);
  if (found.kind === 'not_served')
    return {
      input,
      def: null,
      alias: found.name,
      error: { code: 'not_applicable', message: `${found.name}: ${found.reason}` },
    };
  if (found.kind === 'unknown')
    return { input, def: null, alias: null, error: { code: 'not_found', message: `no field "${input}"` } };
  const def = found.field;
  if (!def.history)
    return {
      input,
      def,
      alias: found.alias,
      error: { code: 'not_applicable', message: `${def.id} is not served in history` },
    };
  if (def.group === 'statement' && !isStatementPeriod(period)) {
    return {
      input,
      def,
      alias: found.alias,
      error: { code: 'not_applicable', message: `${def.id} comes quarterly or annually` },
    };
  }
  if (def.group !== 'statement' && isStatementPeriod(period)) {
    return {
      input,
      def,
      alias: found.alias,
      error: { code: 'not_applicable', message: `${def.id} comes daily, weekly or monthly` },
    };
  }
  return { input, def, alias: found.alias, millions: found.millions };
}

const NO_ACTIONS: HeldActions = { actions: [], known: [] };

/** What an adjustment needs known: splits for prices as traded, dividends for total return. */
const NEEDS: Record<Exclude<Adjustment, 'split'>, CorporateAction['type']> = {
  none: 'split',
  total: 'dividend',
};

/**
 * Price rows of the first of a listing's forms (its own, then its fallbacks) with bars in the range, under the
 * adjustment asked (the total-return index beside them when a column reads it); null when none has. An
 * adjustment needs its actions known from the first row to the last bar held (every later action moves the
 * earlier prices): where they are not, `unknown` says so and no rows are made.
 */
async function barRows(
  provider: MarketProvider,
  resolved: Resolved,
  chain: readonly Resolved[],
  range: { from: string; end: string; period: BarPeriod; adjust: Adjustment },
  columns: BarColumn[],
): Promise<{
  rows: BarRows;
  listing: Resolved;
  held: { start: string; end: string };
  unknown?: { type: CorporateAction['type']; message: string };
} | null> {
  const factor = resolved.priceFactor ?? 1;
  const withIndex = columns.some((c) => c.column === 'totalReturn');
  for (const listing of chain) {
    const own = await provider.series(listing);
    // An adjusted series has the held one's dates: a form with no bars in the range is passed over unread.
    const [first, end] = barRange(own, range.from, range.end);
    if (first === end) continue;
    const held = range.adjust === 'split' && !withIndex ? NO_ACTIONS : await provider.actions(listing);
    const series = keptAdjusted(own, held.actions, range.adjust, withIndex);
    const span = { start: series[first]!.date, end: series[end - 1]!.date };
    const needed = [
      ...(range.adjust === 'split' ? [] : [NEEDS[range.adjust]]),
      ...(withIndex ? (['dividend'] as const) : []),
    ];
    const lastHeld = (own.at(-1) as Bar).date;
    const type = needed.find((t) => !knownThrough(held.known, t, span.start, lastHeld));
    const unknown = type && {
      type,
      message:
        `${type === 'split' ? 'Splits' : 'Dividends'} of ${listing.symbol} are known only ${spansText(knownSpans(held.known, type))}; ` +
        `${type === 'split' ? 'prices as traded' : 'total return'} from ${span.start} needs them up to the last bar held, ${lastHeld}. ` +
        'An operator loads them from a Yahoo chart with "quarry ingest yahoo FILE".',
    };
    if (range.period === 'daily')
      return {
        rows: new BarRows(series, first, end, columns, factor, true),
        listing,
        held: span,
        ...(unknown ? { unknown } : {}),
      };
    const rolled = rollUp(series.slice(first, end), range.period);
    return {
      rows: new BarRows(rolled, 0, rolled.length, columns, factor, false),
      listing,
      held: span,
      ...(unknown ? { unknown } : {}),
    };
  }
  return null;
}

/** Why an item has no rows: the bars held (outside the window) under the first form that has any, or none. */
async function barsHeld(
  provider: MarketProvider,
  chain: readonly Resolved[],
): Promise<{ symbol: string; first: string; last: string } | null> {
  for (const listing of chain) {
    const series = await provider.series(listing);
    if (series.length)
      return { symbol: listing.symbol, first: series[0]!.date, last: (series.at(-1) as Bar).date };
  }
  return null;
}

/** Days a held range may fall short of the asked one (weekends, holidays) before the item says so. */
const SHORT_BY_DAYS = 7;

function shortOf(asked: { from: string; end: string }, held: { start: string; end: string }): boolean {
  const days = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 86_400_000;
  return days(asked.from, held.start) > SHORT_BY_DAYS || days(held.end, asked.end) > SHORT_BY_DAYS;
}

type Row = Record<string, string | number | null>;

interface HistoryItem {
  input: string;
  status: 'ok' | 'partial' | 'error';
  resolved?: Resolved;
  rows?: Row[] | BarRows;
  errors?: Record<string, { code: string; message: string }>;
  error?: { code: string; message: string };
  derived?: string[];
  truncated?: { requestedStart: string; start: string };
  /** The dates actually held, when they cover noticeably less than the window asked for. */
  held?: { start: string; end: string };
  /** Set when the last row is older than the market's last session before the end, or the bars are an old copy. */
  stale?: boolean;
  staleReason?: string;
  /** Prices in the window that arrived in the wrong unit and were scaled back (main units). */
  repaired?: Repair[];
}

/** The normalised request and the first date served: `from` is later than `start` when `truncated`. */
type Window = ReadHistory & { from: string; truncated: boolean };

/** /v1/history and market.history: rows oldest first for tickers x fields between dates. */
export async function history(
  deps: Pick<Deps, 'market' | 'clock'>,
  normalised: ReadHistory,
  answerWithinMs = ANSWER_WITHIN_MS,
) {
  const provider = deps.market;
  const fields = normalised.fields.map((f) => fieldFor(f, normalised.period));
  const dailyFloor = shiftYears(normalised.end, -DAILY_YEARS);
  const truncated = !isStatementPeriod(normalised.period) && normalised.start < dailyFloor;
  const r: Window = { ...normalised, from: truncated ? dailyFloor : normalised.start, truncated };
  const deadline = new Deadline(answerWithinMs);
  try {
    const items = await Promise.all(
      r.tickers.map((input) =>
        deadline.race(
          historyItem(provider, r, fields, input, deps.clock()),
          (): HistoryItem => ({
            input,
            status: 'error',
            error: deadline.error,
          }),
        ),
      ),
    );
    return {
      access: 'market-data',
      period: r.period,
      adjust: r.adjust,
      start: r.from,
      end: r.end,
      fields: fields.map((f) => ({
        input: f.input,
        id: f.def?.id ?? null,
        alias: f.alias,
        unit: f.def?.unit ?? null,
      })),
      items,
    };
  } finally {
    deadline.clear();
  }
}

type FieldError = { code: string; message: string };

/** A field the item serves: known, and applying to the instrument. */
type ServedField = FieldAnswer & { def: FieldDef };

/** Each field the instrument cannot have, by the field as sent: unknown, not served, or not applicable. */
function fieldErrors(fields: FieldAnswer[], resolved: Resolved): Record<string, FieldError> {
  const errors: Record<string, FieldError> = {};
  for (const f of fields) {
    if (f.error) errors[f.input] = f.error;
    else if (f.def && !f.def.appliesTo.includes(resolved.assetType)) {
      errors[f.input] = {
        code: 'not_applicable',
        message: `${f.def.id} does not apply to ${resolved.assetType}`,
      };
    }
  }
  return errors;
}

async function historyItem(
  provider: MarketProvider,
  r: Window,
  fields: FieldAnswer[],
  input: string,
  now: Date,
): Promise<HistoryItem> {
  const resolution = resolveInput(input);
  if (resolution.status !== 'ok') return { input, status: 'error', error: resolution.error };
  const { resolved, chain } = resolution;
  const errors = fieldErrors(fields, resolved);
  const served = fields.filter((f): f is ServedField => f.def !== null && !errors[f.input]);
  let found: Pick<HistoryItem, 'rows' | 'held' | 'stale' | 'repaired' | 'derived'> = { rows: [] };
  if (served.length && isStatementPeriod(r.period)) {
    const { missing, ...statements } = await statementHistory(provider, resolved, served, r);
    found = statements;
    for (const f of missing)
      errors[f.input] = { code: 'not_found', message: `no ${r.period} ${f.def.id} stored for ${input}` };
  } else if (served.length) {
    const bars = await barHistory(provider, resolved, chain, served, r, now);
    if (!bars) {
      const held = await barsHeld(provider, chain);
      const window = `No history for ${input} between ${r.from} and ${r.end}`;
      const message = held
        ? `${window}: the bars held for ${held.symbol} run from ${held.first} to ${held.last}. Ask for a window within them.`
        : `${window} (looked for ${chain.map((l) => l.symbol).join(', ')} in the stored data and the upstream). An operator loads bars with "quarry ingest prices FILE --ticker ${resolved.symbol}".`;
      return { input, status: 'error', resolved: shown(resolved), error: { code: 'not_found', message } };
    }
    if ('unknown' in bars)
      return {
        input,
        status: 'error',
        resolved: shown(resolved),
        error: { code: 'not_found', message: bars.unknown },
      };
    const { fieldErrors: unknownFields, ...fromBars } = bars;
    Object.assign(errors, unknownFields);
    found = fromBars;
  }
  const { rows, derived, ...extra } = found;
  const failed = Object.keys(errors).length > 0;
  return {
    input,
    status: failed ? 'partial' : 'ok',
    resolved: shown(resolved),
    rows,
    ...(failed ? { errors } : {}),
    ...(derived ? { derived } : {}),
    ...(r.truncated ? { truncated: { requestedStart: r.start, start: r.from } } : {}),
    ...extra,
  };
}

/**
 * Statement fields by fiscal period end in the window, a row per period and null where a field has none; the
 * fields with no period in the window are `missing` (each an error of the item).
 */
async function statementHistory(
  provider: MarketProvider,
  resolved: Resolved,
  served: ServedField[],
  r: Window,
): Promise<Pick<HistoryItem, 'rows' | 'stale' | 'derived'> & { missing: ServedField[] }> {
  const missing: ServedField[] = [];
  const statements = await provider.statements(resolved);
  const byDate = new Map<string, Row>();
  const derived = new Set<string>();
  for (const f of served) {
    const period = r.period === 'annual' ? 'annual' : 'quarterly';
    const held = statements.get(f.def.id) ?? [];
    const series = statementSeries(f.def.id, r.asOf ? factsKnownOn(held, r.asOf) : held, period);
    const inRange = series.filter((p) => p.end >= r.start && p.end <= r.end);
    if (inRange.length === 0) missing.push(f);
    for (const p of inRange) {
      const row = byDate.get(p.end) ?? { date: p.end };
      row[f.input] = f.millions ? p.value / 1e6 : p.value;
      byDate.set(p.end, row);
      if (p.derived) derived.add(p.end);
    }
  }
  const rows = [...byDate.values()].sort((a, b) => String(a.date).localeCompare(String(b.date)));
  for (const f of served) for (const row of rows) if (!(f.input in row)) row[f.input] = null;
  return {
    rows,
    missing,
    ...(provider.staleStatements?.(resolved)
      ? { stale: true, staleReason: 'the upstream could not be reached: the last statements held are served' }
      : {}),
    ...(derived.size ? { derived: [...derived].sort() } : {}),
  };
}

/** Price and volume fields from the daily bars in the window, with what was held, stale or repaired. */
async function barHistory(
  provider: MarketProvider,
  resolved: Resolved,
  chain: readonly Resolved[],
  served: ServedField[],
  r: Window,
  now: Date,
): Promise<
  | (Pick<HistoryItem, 'rows' | 'held' | 'stale' | 'staleReason' | 'repaired'> & {
      fieldErrors?: Record<string, FieldError>;
    })
  | { unknown: string }
  | null
> {
  const columns = served.flatMap((f) => {
    const column = BAR_FIELDS[f.def.id];
    return column ? [{ input: f.input, column, scaled: column !== 'volume' }] : [];
  });
  const range = { from: r.from, end: r.end, period: r.period as BarPeriod, adjust: r.adjust };
  let found = await barRows(provider, resolved, chain, range, columns);
  if (!found) return null;
  const fieldErrors: Record<string, FieldError> = {};
  if (found.unknown && r.adjust === 'split') {
    // Only the index lacks its dividends: the prices are served, the index is an error of its own.
    for (const c of columns)
      if (c.column === 'totalReturn')
        fieldErrors[c.input] = { code: 'not_found', message: found.unknown.message };
    found = await barRows(
      provider,
      resolved,
      chain,
      range,
      columns.filter((c) => c.column !== 'totalReturn'),
    );
    if (!found) return null;
  } else if (found.unknown) return { unknown: found.unknown.message };
  const repaired = ((await provider.repairs?.(found.listing)) ?? []).filter(
    (p) => p.date >= r.from && p.date <= r.end,
  );
  // The last row is old when a session of the market opened after it and before the window's end (or now).
  const endClose = barClose(resolved, r.end);
  const until = Date.parse(endClose) < now.getTime() ? new Date(endClose) : now;
  const lastRowOld = staleReason(resolved, barClose(resolved, found.held.end), until, 'last row', r.end);
  const reason =
    lastRowOld ??
    (provider.staleBars?.(found.listing)
      ? 'the upstream could not be reached: the last bars held are served'
      : null);
  return {
    rows: found.rows,
    // What is held, when it falls short of the window: a session of the market opened after the last row and
    // before the window's end, or the first row is more than a week after its start.
    ...(lastRowOld !== null || shortOf(r, found.held) ? { held: found.held } : {}),
    ...(reason ? { stale: true, staleReason: reason } : {}),
    ...(repaired.length ? { repaired } : {}),
    ...(Object.keys(fieldErrors).length ? { fieldErrors } : {}),
  };
}
