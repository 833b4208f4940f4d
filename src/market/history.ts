// History rows by ticker and field: prices and volume daily, weekly or monthly from stored daily bars, oldest
// first; statement fields quarterly or annually. Each field that cannot be served is an error on its item.
import { AppError } from '../app/errors.js';
import { type BarColumn, type BarColumnName, BarRows } from './bar-rows.js';
import { type BarPeriod, barRange, rollUp } from './compute/periods.js';
import { statementSeries } from './compute/statements.js';
import { type FieldDef, lookupField } from './fields/dictionary.js';
import type { MarketProvider } from './providers/provider.js';
import { uniqueInputs } from './quotes.js';
import { type Resolved, resolveTicker } from './symbology/resolve.js';

export const MAX_HISTORY_TICKERS = 10;
export const MAX_HISTORY_FIELDS = 5;
export const PERIODS = ['daily', 'weekly', 'monthly', 'quarterly', 'annual'] as const;
export type HistoryPeriod = (typeof PERIODS)[number];
const DAILY_YEARS = 20;

export interface HistoryRequest {
  tickers: string[];
  fields: string[];
  start?: string;
  end?: string;
  period?: HistoryPeriod;
}

const BAR_FIELDS: Record<string, BarColumnName> = {
  price: 'close',
  open: 'open',
  high: 'high',
  low: 'low',
  volume: 'volume',
};

function shiftYears(date: string, years: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCFullYear(d.getUTCFullYear() + years);
  return d.toISOString().slice(0, 10);
}

const isStatementPeriod = (p: HistoryPeriod) => p === 'quarterly' || p === 'annual';

/** The request with its defaults, checked: the limits, the dates, the period. */
export function normalise(request: HistoryRequest, today: string) {
  const tickers = uniqueInputs(request.tickers);
  const fields = uniqueInputs(request.fields);
  const period = request.period ?? 'daily';
  if (!PERIODS.includes(period))
    throw new AppError('invalid_params', `period must be one of ${PERIODS.join(', ')}`);
  if (tickers.length === 0 || fields.length === 0)
    throw new AppError('invalid_params', 'give at least one ticker and one field');
  if (tickers.length > MAX_HISTORY_TICKERS) {
    throw new AppError(
      'invalid_params',
      `up to ${MAX_HISTORY_TICKERS} tickers a history request; ${tickers.length} given`,
    );
  }
  if (fields.length > MAX_HISTORY_FIELDS) {
    throw new AppError(
      'invalid_params',
      `up to ${MAX_HISTORY_FIELDS} fields a history request; ${fields.length} given`,
    );
  }
  for (const [name, value] of [
    ['start', request.start],
    ['end', request.end],
  ] as const) {
    if (
      value !== undefined &&
      (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`)))
    ) {
      throw new AppError('invalid_params', `${name} "${value}" is not a date YYYY-MM-DD`);
    }
  }
  const end = request.end ?? today;
  const start = request.start ?? shiftYears(end, isStatementPeriod(period) ? -5 : -1);
  if (start > end) throw new AppError('invalid_params', `start (${start}) is after end (${end})`);
  return { tickers, fields, period, start, end };
}

/** Units: one per ticker for each five years of range; statement periods one per five tickers. */
export function historyUnits(request: ReturnType<typeof normalise>): number {
  if (isStatementPeriod(request.period)) return Math.max(1, Math.ceil(request.tickers.length / 5));
  const years = (Date.parse(request.end) - Date.parse(request.start)) / (365.25 * 86_400_000);
  return request.tickers.length * Math.max(1, Math.ceil(years / 5));
}

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

/** Price rows of the first of a listing's symbols that has bars in the range; null when none has. */
async function barRows(
  provider: MarketProvider,
  resolved: Resolved,
  range: { from: string; end: string; period: BarPeriod },
  columns: BarColumn[],
): Promise<BarRows | null> {
  const factor = resolved.priceFactor ?? 1;
  for (const candidate of [resolved.symbol, ...(resolved.fallbacks ?? [])]) {
    const symbol = candidate.includes(':')
      ? (resolveTicker(candidate) as { resolved: Resolved }).resolved.symbol
      : candidate;
    const series = await provider.series(symbol);
    const [first, end] = barRange(series, range.from, range.end);
    if (first === end) continue;
    if (range.period === 'daily') return new BarRows(series, first, end, columns, factor, true);
    const rolled = rollUp(series.slice(first, end), range.period);
    return new BarRows(rolled, 0, rolled.length, columns, factor, false);
  }
  return null;
}

export async function history(provider: MarketProvider, request: HistoryRequest, today: string) {
  const r = normalise(request, today);
  const fields = r.fields.map((f) => fieldFor(f, r.period));
  const dailyFloor = shiftYears(r.end, -DAILY_YEARS);
  const truncated = !isStatementPeriod(r.period) && r.start < dailyFloor;
  const from = truncated ? dailyFloor : r.start;

  const items = await Promise.all(
    r.tickers.map(async (input) => {
      const resolution = resolveTicker(input);
      if (resolution.status !== 'ok') return { input, status: 'error', error: resolution.error };
      const resolved = resolution.resolved;
      const errors: Record<string, { code: string; message: string }> = {};
      for (const f of fields) {
        if (f.error) errors[f.input] = f.error;
        else if (f.def && !f.def.appliesTo.includes(resolved.assetType)) {
          errors[f.input] = {
            code: 'not_applicable',
            message: `${f.def.id} does not apply to ${resolved.assetType}`,
          };
        }
      }
      const served = fields.filter((f) => !errors[f.input]);
      let rows: Record<string, string | number | null>[] | BarRows = [];
      const derivedDates: string[] = [];
      if (served.length && isStatementPeriod(r.period)) {
        const statements = await provider.statements(resolved.ticker);
        const byDate = new Map<string, Record<string, string | number | null>>();
        for (const f of served) {
          const def = f.def as FieldDef;
          const series = statementSeries(
            def.id,
            statements.get(def.id) ?? [],
            r.period === 'annual' ? 'annual' : 'quarterly',
          );
          const inRange = series.filter((p) => p.end >= r.start && p.end <= r.end);
          if (inRange.length === 0)
            errors[f.input] = { code: 'not_found', message: `no ${r.period} ${def.id} stored for ${input}` };
          for (const p of inRange) {
            const row = byDate.get(p.end) ?? { date: p.end };
            row[f.input] = f.millions ? p.value / 1e6 : p.value;
            byDate.set(p.end, row);
            if (p.derived && !derivedDates.includes(p.end)) derivedDates.push(p.end);
          }
        }
        rows = [...byDate.values()].sort((a, b) => String(a.date).localeCompare(String(b.date)));
        for (const f of served) for (const row of rows) if (!(f.input in row)) row[f.input] = null;
      } else if (served.length) {
        const columns = served.map((f) => {
          const column = BAR_FIELDS[(f.def as FieldDef).id] as BarColumnName;
          return { input: f.input, column, scaled: column !== 'volume' };
        });
        const range = { from, end: r.end, period: r.period as BarPeriod };
        const found = await barRows(provider, resolved, range, columns);
        if (!found)
          return {
            input,
            status: 'error',
            resolved,
            error: { code: 'not_found', message: `No history for ${input}.` },
          };
        rows = found;
      }
      const status = Object.keys(errors).length ? 'partial' : 'ok';
      return {
        input,
        status,
        resolved,
        rows,
        ...(Object.keys(errors).length ? { errors } : {}),
        ...(derivedDates.length ? { derived: derivedDates.sort() } : {}),
        ...(truncated ? { truncated: { requestedStart: r.start, start: from } } : {}),
      };
    }),
  );
  return {
    access: 'market-data',
    period: r.period,
    start: from,
    end: r.end,
    fields: fields.map((f) => ({
      input: f.input,
      id: f.def?.id ?? null,
      alias: f.alias,
      unit: f.def?.unit ?? null,
    })),
    items,
  };
}
