// Price and volume rows from a listing's daily bars: the first of its forms holding bars in the window, under
// the adjustment asked, with what was held, stale or repaired.
import type {
  Bar,
  CorporateAction,
  Dispute,
  HeldActions,
  LoadedFile,
  MarketProvider,
  Repair,
} from '../../kernel/market-provider.js';
import { type BarColumn, type BarColumnName, BarRows } from '../bars/rows.js';
import { type Adjustment, keptAdjusted, knownSpans, knownThrough, spansText } from '../compute/adjust.js';
import { type BarPeriod, barRange, rollUp } from '../compute/periods.js';
import type { Resolved } from '../symbology/resolve.js';
import { barClose, staleReason } from '../symbology/sessions.js';
import { STORED } from '../verb/sources.js';
import type { FieldError, HistoryItem, ServedField } from './item.js';
import type { ReadHistory } from './request.js';

const BAR_FIELDS: Record<string, BarColumnName> = {
  price: 'close',
  totalReturnIndex: 'totalReturn',
  open: 'open',
  high: 'high',
  low: 'low',
  volume: 'volume',
};

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
  repairs: readonly Repair[];
  source: string;
  files: readonly LoadedFile[];
  disputes: readonly Dispute[];
  unknown?: { type: CorporateAction['type']; message: string };
} | null> {
  const factor = resolved.priceFactor ?? 1;
  const withIndex = columns.some((c) => c.column === 'totalReturn');
  for (const listing of chain) {
    const held = await provider.listing(listing);
    const { bars: own, actions, repairs, source = STORED, files = [], disputes = [] } = held;
    // An adjusted series has the held one's dates: a form with no bars in the range is passed over.
    const [first, end] = barRange(own, range.from, range.end);
    if (first === end) continue;
    const known = range.adjust === 'split' && !withIndex ? NO_ACTIONS : actions;
    const series = keptAdjusted(own, known.actions, range.adjust, withIndex);
    const span = { start: series[first]!.date, end: series[end - 1]!.date };
    const needed = [
      ...(range.adjust === 'split' ? [] : [NEEDS[range.adjust]]),
      ...(withIndex ? (['dividend'] as const) : []),
    ];
    const lastHeld = (own.at(-1) as Bar).date;
    const type = needed.find((t) => !knownThrough(known.known, t, span.start, lastHeld));
    const unknown = type && {
      type,
      message:
        `${type === 'split' ? 'Splits' : 'Dividends'} of ${listing.symbol} are known only ${spansText(knownSpans(known.known, type))}; ` +
        `${type === 'split' ? 'prices as traded' : 'total return'} from ${span.start} needs them up to the last bar held, ${lastHeld}. ` +
        'An operator loads them from a Yahoo chart with "quarry ingest yahoo FILE".',
    };
    if (range.period === 'daily')
      return {
        rows: new BarRows(series, first, end, columns, factor, true),
        listing,
        held: span,
        repairs,
        source,
        files,
        disputes,
        ...(unknown ? { unknown } : {}),
      };
    const rolled = rollUp(series.slice(first, end), range.period);
    return {
      rows: new BarRows(rolled, 0, rolled.length, columns, factor, false),
      listing,
      held: span,
      repairs,
      source,
      files,
      disputes,
      ...(unknown ? { unknown } : {}),
    };
  }
  return null;
}

/** Why an item has no rows: the bars held (outside the window) under the first form that has any, or none. */
export async function barsHeld(
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

const later = (a: string, b: string) => (a > b ? a : b);
const earlier = (a: string, b: string) => (a < b ? a : b);

/** Days a held range may fall short of the asked one (weekends, holidays) before the item says so. */
const SHORT_BY_DAYS = 7;

function shortOf(asked: { from: string; end: string }, held: { start: string; end: string }): boolean {
  const days = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 86_400_000;
  return days(asked.from, held.start) > SHORT_BY_DAYS || days(held.end, asked.end) > SHORT_BY_DAYS;
}

/** Price and volume fields from the daily bars in the window, with what was held, stale or repaired. */
export async function barHistory(
  provider: MarketProvider,
  resolved: Resolved,
  chain: readonly Resolved[],
  served: ServedField[],
  r: ReadHistory,
  now: Date,
): Promise<
  | (Pick<
      HistoryItem,
      'rows' | 'held' | 'stale' | 'staleReason' | 'repaired' | 'source' | 'files' | 'disputed'
    > & {
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
  const repaired = found.repairs.filter((p) => p.date >= r.from && p.date <= r.end);
  const disputed = found.disputes
    .filter((d) => d.date >= r.from && d.date <= r.end)
    .map((d) => ({ date: d.date, field: 'close', source: d.source, value: d.close }));
  // The files that brought the window's bars, each with the days of the window it brought.
  const files = found.files.flatMap((f) =>
    f.end < found.held.start || f.start > found.held.end
      ? []
      : [{ file: f.file, start: later(f.start, found.held.start), end: earlier(f.end, found.held.end) }],
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
    ...(disputed.length ? { disputed } : {}),
    source: found.source,
    ...(files.length ? { files } : {}),
    ...(Object.keys(fieldErrors).length ? { fieldErrors } : {}),
  };
}
