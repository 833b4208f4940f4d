// Daily price CSVs in the layouts real exports use:
// - Yahoo's download, Date,Open,High,Low,Close[,Adj Close],Volume in any column order and any capitals;
// - re-labelled exports, date,ticker|symbol,open,…,adj_close (a Ticker column names the instrument of each
//   row: one file may hold many, as bulk end-of-day exports do);
// - the three header rows newer yfinance writes (Price,Adj Close,Close,… / Ticker,AAPL,… / Date,,…);
// - Date,Price (a close only).
// Dates are ISO (2024-07-01), ISO timestamps with an offset (2024-07-01 00:00:00-04:00, the trading day as
// written), or any other day/month/year layout named with --date-format. --through DATE leaves out later
// bars (a partial bar of a day still trading). The instrument is --ticker in any form (the file then holds
// that one alone), or each row's Ticker column; listings priced in minor units (London, Johannesburg, Tel Aviv) are stored in main units.

import type { LoadContext, ReadRecord } from '../../ingest/run.js';
import {
  CutShort,
  csvFields,
  headerWidth,
  SourceError,
  type SourceFile,
  type SourceLine,
} from '../../ingest/source.js';
import { resolveInput } from '../instrument/instrument.js';
import { VENUES } from '../symbology/tables.js';
import { Cadence, DividendUnits, type HeldLevel, StoredLevel } from './price-checks.js';
import type { MarketRecordValue } from './record.js';

/** A provider price in main units, without the float noise a division leaves (1.4566000399999999). */
export function toMain(value: number, factor: number): number {
  return factor === 1 ? value : Math.round((value / factor) * 1e10) / 1e10;
}

/**
 * A price written as a single-precision number read back at the shortest decimal that is the same number:
 * Yahoo keeps prices in single precision, and exports write them out in full (280.1400146484375 for Apple's
 * close of 280.14). A value that is not exactly a single-precision number is kept as written.
 */
export function singlePrecisionPrice(value: number): number {
  if (Math.fround(value) !== value || value === 0 || !Number.isFinite(value)) return value;
  // The value rounded to fewer significant digits (an integer over a power of ten: the double nearest that
  // decimal) reads back as the same single from some count of digits on, nine at most: the fewest is found by
  // halving. Halves round away from zero, as a decimal printed to fewer digits does.
  const size = Math.abs(value);
  const magnitude = Math.floor(Math.log10(size));
  const rounded = (digits: number) => {
    const shift = digits - 1 - magnitude;
    const shorter =
      shift >= 0
        ? Math.round(size * tenTo(shift)) / tenTo(shift)
        : Math.round(size / tenTo(-shift)) * tenTo(-shift);
    return value < 0 ? -shorter : shorter;
  };
  // Nine digits always read back: the fewest of one to eight that do, else nine.
  let low = 1;
  let high = 9;
  let best: number | null = null;
  while (low < high) {
    const middle = (low + high) >> 1;
    const shorter = rounded(middle);
    if (Math.fround(shorter) === value) {
      best = shorter;
      high = middle;
    } else low = middle + 1;
  }
  return best ?? rounded(9);
}

/** Powers of ten as exact doubles, 10^0 to 10^80 (the shifts a single's digits need). */
const POWERS = Array.from({ length: 81 }, (_, i) => Number(`1e${i}`));
const tenTo = (exponent: number) => POWERS[exponent] ?? 10 ** exponent;

/** How many provider units make one main unit for this listing (100 for prices in pence). */
export function providerFactor(mic: string | null): number {
  return mic ? (VENUES[mic]?.minor?.factor ?? 1) : 1;
}

/** A column name as compared: `Adj Close`, `adj_close` and `AdjClose` are one name. */
const columnKey = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

interface Layout {
  columns: Map<string, number>;
  /** The fields every row has: up to the header's last named column. */
  width: number;
  /** The instrument the file names (a Ticker column, or yfinance's ticker row), if it names one. */
  fileTicker: string | null;
}

/** Reads the header rows; undefined until the rows seen so far make a header. */
class HeaderReader {
  private pending: string[] | null = null;
  private pendingTicker: string | null = null;
  layout: Layout | null = null;

  constructor(private readonly file: string) {}

  /** Takes one row; true while it was part of the header. */
  take(fields: string[], line: number): boolean {
    if (this.layout) return false;
    const first = columnKey(fields[0] ?? '');
    if (this.pending) {
      // yfinance's second and third header rows: the ticker of each column, then Date and blanks.
      if (first === 'ticker') {
        const tickers = new Set(fields.slice(1).filter((f) => f !== ''));
        if (tickers.size > 1)
          throw new SourceError(
            this.file,
            line,
            `the file holds ${tickers.size} instruments; load one a file`,
          );
        this.pendingTicker = [...tickers][0] ?? null;
        return true;
      }
      if (first === 'date' && fields.slice(1).every((f) => f === '')) return true;
      this.finish(this.pending, line);
      return false;
    }
    if (first === 'price' && !fields.some((f) => columnKey(f) === 'date')) {
      this.pending = ['date', ...fields.slice(1)];
      return true;
    }
    this.finish(fields, line);
    return true;
  }

  private finish(names: string[], line: number): void {
    const columns = new Map(names.map((name, i) => [columnKey(name), i]));
    // yfinance names its index Datetime (a timestamp with the exchange's offset).
    const datetime = columns.get('datetime');
    if (!columns.has('date') && datetime !== undefined) columns.set('date', datetime);
    if (!columns.has('date') || !(columns.has('close') || columns.has('price'))) {
      const found = names.filter((n) => n !== '').join(', ');
      throw new SourceError(
        this.file,
        line,
        `expected a Date column and a Close (or Price) column; found ${found}`,
      );
    }
    this.layout = { columns, width: headerWidth(names), fileTicker: this.pendingTicker };
  }
}

export async function* priceRecords(
  source: SourceFile,
  context: LoadContext<HeldLevel | null>,
): AsyncGenerator<ReadRecord<MarketRecordValue>[]> {
  const file = new PriceFile(source.name, context.options, context.prepared);
  // A batch of lines at a time, its records given together: a file of millions of rows is not read a row a turn.
  for await (const batch of source.lineBatches()) {
    const records: ReadRecord<MarketRecordValue>[] = [];
    for (const row of batch) file.read(row, records);
    if (records.length) yield records;
  }
  file.endChecks(file.lastLine);
  const known = file.actionsKnown();
  if (known.length) yield known;
  if (!file.first)
    throw new SourceError(source.name, null, 'the file holds no prices: a header and no rows, or nothing');
}

/** A price file being read a row at a time: its header, its listings, and the days and actions it states. */
class PriceFile {
  private readonly readDate: ReturnType<typeof dateReader>;
  private readonly through: string | undefined;
  private readonly name: string | undefined;
  private readonly unit: string | undefined;
  /** --ticker: the instrument of a file whose rows do not name it. */
  private readonly option: string | undefined;
  private readonly header: HeaderReader;
  // The days each listing's bars span, for the actions a file's Dividends and Stock Splits columns state.
  private readonly spans = new Map<string, { start: string; end: string; line: number }>();
  // A file with a Ticker column may hold many instruments (a bulk end-of-day export), each read once.
  private readonly instruments = new Map<string, Listing>();
  first: Listing | null = null;
  lastLine = 0;
  private at: ColumnsAt | null = null;
  private cut: CutShort | null = null;
  private readonly days: DaysRead;

  private readonly level: StoredLevel;

  constructor(
    private readonly file: string,
    options: LoadContext['options'],
    held: HeldLevel | null,
  ) {
    this.level = new StoredLevel(file, held);
    this.readDate = dateReader(file, options['date-format']);
    this.through = options.through;
    if (this.through !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(this.through))
      throw new SourceError(file, null, `--through ${this.through}: give a date as YYYY-MM-DD`);
    this.header = new HeaderReader(file);
    this.name = options.name?.trim();
    this.unit = options.unit;
    if (this.unit !== undefined && this.unit !== 'main' && this.unit !== 'quoted')
      throw new SourceError(file, null, `--unit ${this.unit}: give main or quoted`);
    this.option = options.ticker;
    this.days = new DaysRead(file);
  }

  /** A line of the file: the header, or a day's bar (and the actions its columns state) added to `records`. */
  read(row: SourceLine, records: ReadRecord<MarketRecordValue>[]): void {
    const { line, text } = row;
    this.lastLine = line;
    if (!text.trim()) return;
    // Number() reads a number with spaces around it; only the header, date and ticker are trimmed.
    const fields = csvFields(text);
    const trimmed = this.header.layout ? null : fields.map((f) => f.trim());
    if (trimmed && this.header.take(trimmed, line)) return;
    const { columns, width, fileTicker } = this.header.layout as Layout;
    this.at ??= columnsAt(columns);
    const { at } = this;
    this.cut ??= new CutShort(this.file, width);
    this.cut.check(row, fields);
    const rowTicker = (fields[at.ticker] ?? fields[at.symbol])?.trim() ?? fileTicker ?? undefined;
    const instrument = this.instrumentOf(line, rowTicker, records);
    const get = (column: string, index: number) => numberIn(fields[index], column, this.file, line);
    const date = this.readDate(fields[at.date]?.trim() ?? '', line);
    if (this.through !== undefined && date > this.through) return;
    const close = get('close', at.close) ?? get('price', at.price);
    if (close === null) return; // a day with no trade
    const { symbol } = instrument;
    if (this.days.repeats(symbol, date, text, line, (fields[at.date]?.trim().length ?? 0) > 10)) return;
    const factor = this.unit === 'main' ? 1 : instrument.factor;
    instrument.cadence.take(date, line);
    const mainClose = toMain(singlePrecisionPrice(close), factor);
    this.level.take(symbol, date, mainClose, line);
    if (at.dividends >= 0 || at.splits >= 0 || at.gains >= 0) {
      this.spanned(symbol, date, line);
      const dividend = get('dividends', at.dividends);
      instrument.units.take({ date, open: get('open', at.open), close, dividend }, line);
      const split = get('stock splits', at.splits);
      if (split !== null && split > 0)
        records.push({ line, value: { type: 'action', symbol, date, action: 'split', ...ratio(split) } });
      for (const [action, paid] of [
        ['dividend', dividend],
        ['capitalGain', get('capital gains', at.gains)],
      ] as const)
        if (paid !== null && paid > 0)
          records.push({
            line,
            value: {
              type: 'action',
              symbol,
              date,
              action,
              amount: toMain(Number(paid.toPrecision(10)), factor),
            },
          });
    }
    records.push({
      line,
      value: {
        type: 'bar',
        symbol,
        date,
        open: priceOf(get('open', at.open), factor),
        high: priceOf(get('high', at.high), factor),
        low: priceOf(get('low', at.low), factor),
        close: mainClose,
        volume: get('volume', at.volume),
      },
    });
  }

  /** The listing a row is of: the file's first, or (a file with a Ticker column) the one it names. */
  private instrumentOf(
    line: number,
    rowTicker: string | undefined,
    records: ReadRecord<MarketRecordValue>[],
  ): Listing {
    const { file, option, name } = this;
    if (!this.first) {
      this.first = listingOf(file, line, option, rowTicker, this.unit === undefined);
      this.instruments.set(this.first.named, this.first);
      if (name) records.push({ line, value: { type: 'listing', symbol: this.first.symbol, name } });
    }
    const first = this.first;
    if (rowTicker === undefined || rowTicker === first.named || rowTicker.toUpperCase() === first.named)
      return first;
    if (option !== undefined)
      throw new SourceError(file, line, `ticker ${rowTicker} differs from --ticker ${option}`);
    if (name)
      throw new SourceError(
        file,
        line,
        `--name names one listing; the file holds ${first.named} and ${rowTicker.toUpperCase()}`,
      );
    const named = rowTicker.toUpperCase();
    let held = this.instruments.get(named);
    if (!held) {
      held = listingOf(file, line, undefined, rowTicker, this.unit === undefined);
      this.instruments.set(named, held);
    }
    return held;
  }

  private spanned(symbol: string, date: string, line: number): void {
    const span = this.spans.get(symbol);
    if (!span) this.spans.set(symbol, { start: date, end: date, line });
    else {
      if (date < span.start) span.start = date;
      if (date > span.end) span.end = date;
      span.line = line;
    }
  }

  /** Judges the listings whose rows were too few to judge as they were read (throws for non-daily bars). */
  endChecks(line: number): void {
    for (const listing of this.instruments.values()) listing.cadence.end(line);
  }

  /** A file with Dividends, Stock Splits or Capital Gains columns states every such action of the days it holds, and no other. */
  actionsKnown(): ReadRecord<MarketRecordValue>[] {
    const { at } = this;
    const kinds = [
      ...(at && at.dividends >= 0 ? (['dividend'] as const) : []),
      ...(at && at.splits >= 0 ? (['split'] as const) : []),
      ...(at && at.gains >= 0 ? (['capitalGain'] as const) : []),
    ];
    if (kinds.length === 0) return [];
    return [...this.spans].map(([symbol, span]) => ({
      line: span.line,
      value: { type: 'actionsKnown', symbol, start: span.start, end: span.end, actions: [...kinds] },
    }));
  }
}

/**
 * The days read of each listing, a bit a day, to refuse a file with two rows for one listing's day: the same row
 * twice running is read once; two that differ (or a day met again further on) are refused by line, never the
 * last silently taken (a bit a day: a universe file of millions of bars costs kilobytes a listing).
 */
class DaysRead {
  private readonly held = new Map<string, { years: Map<number, Uint8Array>; last: string; text: string }>();

  constructor(private readonly file: string) {}

  /** True for a row that repeats the one before it word for word; throws for any other second row of a day. */
  repeats(symbol: string, date: string, text: string, line: number, timed: boolean): boolean {
    let listing = this.held.get(symbol);
    if (!listing) {
      listing = { years: new Map(), last: '', text: '' };
      this.held.set(symbol, listing);
    }
    const year = Number(date.slice(0, 4));
    // Days into the year, a day of 31 a month: a bit apart for each date, without parsing it as a time.
    const day = (Number(date.slice(5, 7)) - 1) * 31 + Number(date.slice(8, 10)) - 1;
    let bits = listing.years.get(year);
    if (!bits) {
      bits = new Uint8Array(47);
      listing.years.set(year, bits);
    }
    const mask = 1 << (day & 7);
    const seen = ((bits[day >> 3] ?? 0) & mask) !== 0;
    if (seen) {
      if (listing.last === date && listing.text === text) return true;
      const why = timed
        ? 'its rows carry times of day: intraday bars are not daily bars'
        : 'a file holds one row a listing a day';
      throw new SourceError(
        this.file,
        line,
        `a second row for ${symbol} on ${date}${listing.last === date ? ', with other figures than the line before' : ''}: ${why}`,
      );
    }
    bits[day >> 3] = (bits[day >> 3] ?? 0) | mask;
    listing.last = date;
    listing.text = text;
    return false;
  }
}

/** A field's number; null where the file has none (blank, null, NaN, or `.` as FRED-style files write). */
function numberIn(v: string | undefined, column: string, file: string, line: number): number | null {
  if (v === undefined || v === '') return null;
  const n = Number(v);
  if (Number.isFinite(n)) return n === 0 && v.trim() === '' ? null : n;
  const text = v.trim();
  if (text === 'null' || text === '.' || text.toLowerCase() === 'nan') return null;
  throw new SourceError(file, line, `${column} "${text}" is not a number`);
}

/** A price as read, in main units. */
const priceOf = (value: number | null, factor: number) =>
  value === null ? null : toMain(singlePrecisionPrice(value), factor);

/** A split as yfinance writes it (4.0 for 4-for-1, 0.1 for 1-for-10) as whole shares after for before. */
function ratio(split: number): { numerator: number; denominator: number } {
  if (split >= 1 || !Number.isInteger(Number((1 / split).toPrecision(10))))
    return { numerator: Number(split.toPrecision(10)), denominator: 1 };
  return { numerator: 1, denominator: Number((1 / split).toPrecision(10)) };
}

/** Where each column a bar is read from stands in a row; -1 where the file has none. */
type ColumnsAt = Record<
  | 'date'
  | 'ticker'
  | 'symbol'
  | 'open'
  | 'high'
  | 'low'
  | 'close'
  | 'price'
  | 'volume'
  | 'dividends'
  | 'splits'
  | 'gains',
  number
>;

function columnsAt(columns: Map<string, number>): ColumnsAt {
  const of = (name: string) => columns.get(name) ?? -1;
  return {
    date: of('date'),
    ticker: of('ticker'),
    symbol: of('symbol'),
    open: of('open'),
    high: of('high'),
    low: of('low'),
    close: of('close'),
    price: of('price'),
    volume: of('volume'),
    dividends: of('dividends'),
    splits: of('stocksplits'),
    gains: of('capitalgains'),
  };
}

interface Listing {
  symbol: string;
  factor: number;
  named: string;
  /** Whether its rows are daily bars, and its dividends in its prices' unit. */
  cadence: Cadence;
  units: DividendUnits;
}

/** The instrument: --ticker when given (the file's own ticker must then agree), else the row's or the file's. */
function listingOf(
  file: string,
  line: number,
  option: string | undefined,
  inFile: string | undefined,
  unitUnsaid: boolean,
): Listing {
  const named = option ?? inFile;
  if (!named)
    throw new SourceError(file, null, 'name the instrument with --ticker (the file has no Ticker column)');
  const resolution = resolveInput(option ?? named.toUpperCase());
  if (resolution.status !== 'ok') {
    const where = option ? `--ticker ${named}` : `ticker ${named}`;
    throw new SourceError(file, option ? null : line, `${where}: ${resolution.error.message}`);
  }
  const { symbol, mic } = resolution.resolved;
  if (option && inFile !== undefined) {
    const own = resolveInput(inFile.toUpperCase());
    if (own.status !== 'ok' || own.resolved.symbol !== symbol)
      throw new SourceError(file, line, `the file is of ${inFile}, not of --ticker ${option}`);
  }
  const factor = providerFactor(mic);
  return {
    symbol,
    factor,
    named: (inFile ?? named).toUpperCase(),
    cadence: new Cadence(file, symbol),
    units: new DividendUnits(file, symbol, unitUnsaid && factor !== 1, factor === 1 ? 1 : factor),
  };
}

const DATE_PART = { YYYY: '(\\d{4})', MM: '(\\d{1,2})', DD: '(\\d{1,2})' } as const;
type DatePart = keyof typeof DATE_PART;

/**
 * How a file's dates are read. By default ISO dates and ISO timestamps (the date as written: the trading day
 * in the offset the exporter used); with --date-format, e.g. DD/MM/YYYY, that layout and no other.
 */
export function dateReader(
  file: string,
  format: string | undefined,
): (value: string, line: number) => string {
  if (format === undefined) {
    // A file of many listings repeats its dates: each is read once.
    const read = new Map<string, string>();
    return (value, line) => {
      const known = read.get(value);
      if (known !== undefined) return known;
      const iso =
        /^(\d{4}-\d{2}-\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(value);
      if (iso && isRealDate(iso[1]!)) {
        if (read.size < 100_000) read.set(value, iso[1]!);
        return iso[1]!;
      }
      const hint = /^\d{1,2}[/.-]\d{1,2}[/.-]\d{4}$/.test(value)
        ? '; name its layout with --date-format DD/MM/YYYY or MM/DD/YYYY'
        : '';
      throw new SourceError(file, line, `date "${value}" is not YYYY-MM-DD${hint}`);
    };
  }
  const layout = /^(YYYY|MM|DD)([/.-])(YYYY|MM|DD)\2(YYYY|MM|DD)$/.exec(format);
  const parts = layout ? [layout[1], layout[3], layout[4]] : [];
  if (!layout || new Set(parts).size !== 3)
    throw new SourceError(
      file,
      null,
      `--date-format ${format}: use DD, MM and YYYY once each, e.g. DD/MM/YYYY`,
    );
  const separator = layout[2]!.replace(/[.-]/, '\\$&');
  const pattern = new RegExp(`^${parts.map((p) => DATE_PART[p as DatePart]).join(separator)}$`);
  return (value, line) => {
    const match = pattern.exec(value);
    const at = (part: DatePart) => (match?.[parts.indexOf(part) + 1] ?? '').padStart(2, '0');
    const date = match ? `${at('YYYY')}-${at('MM')}-${at('DD')}` : '';
    if (!match || !isRealDate(date))
      throw new SourceError(file, line, `date "${value}" is not a ${format} date`);
    return date;
  };
}

function isRealDate(date: string): boolean {
  const t = Date.parse(`${date}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === date;
}
