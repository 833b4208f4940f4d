// A listing's daily bars of one calendar year, packed into one stored value: a year is one row rather than
// about 252, so a universe of listings takes ~45 bytes a bar rather than ~128 and loads as fast as the rows
// can be packed. Column by column, little-endian:
//   u8 format (1, or 2 with marks) · u8 unused · u16 count · u16 day of the year[count] (0 = 1 January) ·
//   zeros to a multiple of eight bytes · f64 open[count] · f64 high · f64 low · f64 close · f64 volume
//   and in format 2: u16 marks · (u16 first bar · f64 known from, ms since 1970)[marks]
// A missing open, high, low or volume is NaN (a close is never missing); prices are kept as exact doubles.
// A mark says the bars from its first on became known later than the block (days appended to the current
// year by a later load: ADR 035); bars before the first mark are known from the block's own time.
import type { Bar } from '../../kernel/market-provider.js';

/** Bars of a block known from a later time than the block's: those from `first` on, from `at` (ms). */
export interface KnownMark {
  first: number;
  at: number;
}

const PLAIN = 1;
const MARKED = 2;
const HEAD = 4;
const COLUMNS = ['open', 'high', 'low', 'close', 'volume'] as const;
const DAY_MS = 86_400_000;

/** The year a bar's date falls in, the key of its block. */
export const yearOf = (date: string): number => Number(date.slice(0, 4));

/**
 * The bytes of one year's bars, in date order (the caller's order: they must be of one year, ascending), with
 * the marks of the bars known later than the block, first bars ascending.
 */
export function packBars(bars: readonly Bar[], marks: readonly KnownMark[] = []): Buffer {
  const count = bars.length;
  const columnsAt = columnsOffset(count);
  const marksAt = columnsAt + COLUMNS.length * 8 * count;
  const memory = new ArrayBuffer(marksAt + (marks.length ? 2 + MARK_BYTES * marks.length : 0));
  const head = new DataView(memory);
  head.setUint8(0, marks.length ? MARKED : PLAIN);
  head.setUint16(2, count, true);
  if (marks.length) {
    head.setUint16(marksAt, marks.length, true);
    for (const [i, mark] of marks.entries()) {
      head.setUint16(marksAt + 2 + MARK_BYTES * i, mark.first, true);
      head.setFloat64(marksAt + 4 + MARK_BYTES * i, mark.at, true);
    }
  }
  if (count === 0) return Buffer.from(memory);
  const year = yearOf(bars[0]!.date);
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = new Uint16Array(memory, HEAD, count);
  const values = new Float64Array(memory, columnsAt, COLUMNS.length * count);
  for (let i = 0; i < count; i += 1) {
    const bar = bars[i]!;
    days[i] = dayOfYear(bar.date, leap);
    values[i] = bar.open ?? Number.NaN;
    values[count + i] = bar.high ?? Number.NaN;
    values[2 * count + i] = bar.low ?? Number.NaN;
    values[3 * count + i] = bar.close;
    values[4 * count + i] = bar.volume ?? Number.NaN;
  }
  if (!LITTLE_ENDIAN) throw new Error('bar blocks are written on little-endian machines only');
  return Buffer.from(memory);
}

/** Days before each month's first, in a common year. */
const BEFORE_MONTH = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];

/** A YYYY-MM-DD date's day of its year, 0 for 1 January. */
function dayOfYear(date: string, leap: boolean): number {
  const month = (date.charCodeAt(5) - 48) * 10 + date.charCodeAt(6) - 49;
  const day = (date.charCodeAt(8) - 48) * 10 + date.charCodeAt(9) - 48;
  return BEFORE_MONTH[month]! + (leap && month > 1 ? 1 : 0) + day - 1;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

const MARK_BYTES = 10;

/** Where the price columns start: after the days, at a multiple of eight bytes. */
const columnsOffset = (count: number) => Math.ceil((HEAD + 2 * count) / 8) * 8;

/** Dates of a year by day of the year, written once each. */
const dayNames = new Map<number, string[]>();

function datesOf(year: number): string[] {
  let names = dayNames.get(year);
  if (!names) {
    const january = Date.UTC(year, 0, 1);
    names = Array.from({ length: 366 }, (_, d) => new Date(january + d * DAY_MS).toISOString().slice(0, 10));
    dayNames.set(year, names);
  }
  return names;
}

/** The bars of a block of `year`, appended to `into`. */
export function unpackBars(year: number, bytes: Uint8Array, into: Bar[] = []): Bar[] {
  const view = bytesOf(year, bytes);
  const count = view.readUInt16LE(2);
  const columnsAt = columnsOffset(count);
  const dates = datesOf(year);
  const value = (c: number, i: number) => {
    const v = view.readDoubleLE(columnsAt + 8 * (c * count + i));
    return Number.isNaN(v) ? null : v;
  };
  for (let i = 0; i < count; i += 1) {
    into.push({
      date: dates[view.readUInt16LE(HEAD + 2 * i)]!,
      open: value(0, i),
      high: value(1, i),
      low: value(2, i),
      close: value(3, i) as number,
      volume: value(4, i),
    });
  }
  return into;
}

function bytesOf(year: number, bytes: Uint8Array): Buffer {
  const view = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const format = view.readUInt8(0);
  if (format !== PLAIN && format !== MARKED)
    throw new Error(`bar block of ${year}: unknown format ${format}`);
  return view;
}

/** The marks of a block: which of its bars became known after the block did, and when. */
export function knownMarks(year: number, bytes: Uint8Array): KnownMark[] {
  const view = bytesOf(year, bytes);
  if (view.readUInt8(0) === PLAIN) return [];
  const count = view.readUInt16LE(2);
  const marksAt = columnsOffset(count) + COLUMNS.length * 8 * count;
  return Array.from({ length: view.readUInt16LE(marksAt) }, (_, i) => ({
    first: view.readUInt16LE(marksAt + 2 + MARK_BYTES * i),
    at: view.readDoubleLE(marksAt + 4 + MARK_BYTES * i),
  }));
}

/** Whether two bars say the same (their dates aside). */
export function sameBar(a: Bar, b: Bar): boolean {
  return (
    a.open === b.open && a.high === b.high && a.low === b.low && a.close === b.close && a.volume === b.volume
  );
}
