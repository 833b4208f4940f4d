// What a price file must show before its rows are stored as a listing's daily bars (docs/adr/038):
// - that they are daily: a file of weekly, monthly or quarterly bars (yfinance's 1wk, 1mo, 3mo downloads) is
//   refused, for a weekly close read as a day's would serve look-ahead and a volatility several times the
//   listing's. Its first rows tell: nine rows a week or more apart, all on one weekday (weekly) or four weeks
//   or more apart (monthly, quarterly). A listing that trades now and then has rows days apart on any weekday,
//   and is read as it is;
// - that its dividends and its prices are in one unit, on a listing quoted in minor units read without
//   --unit: a dividend the repairs would take as a hundred times too large (compute/repair/dividends.ts: a
//   tenth of the close before it or more, that the price did not fall by a quarter of) is in the other unit (yfinance's London tables hold prices in pounds and such dividends in pence); when the
//   first two dividends both are, the file is refused with the --unit that reads it (one slip among dividends
//   in the prices' unit is left to the repairs);
// - that its level is the store's, on a listing quoted in minor units named with --ticker: closes a hundred
//   times (or a hundredth of) the ones held for the same days (three of them), or the median of the last five
//   held when the file continues them within a month, mean the file is read in the other unit: refused, naming
//   the --unit that reads it.
import type { Kysely } from 'kysely';
import { SourceError } from '../../ingest/source.js';
import type { Database } from '../../store/schema.js';
import { storedBars } from '../bars/stored.js';
import { hundredfoldLarge, percent } from '../compute/repair/dividends.js';
import { resolveInput } from '../instrument/instrument.js';
import { VENUES } from '../symbology/tables.js';

/** Rows judged before a listing's bars are taken as daily, and the gaps that make them weekly or monthly. */
const JUDGED_ROWS = 9;
const WEEK_DAYS = 6;
const MONTH_DAYS = 28;

const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

/** A listing's first rows, until they show whether its bars are daily. */
export class Cadence {
  private dates: string[] | null = [];

  constructor(
    private readonly file: string,
    private readonly symbol: string,
  ) {}

  /** Takes a row's date; throws when the rows taken are weekly or longer bars. */
  take(date: string, line: number): void {
    if (!this.dates) return;
    this.dates.push(date);
    if (this.dates.length >= JUDGED_ROWS) this.judge(line);
  }

  /** At the file's end: a listing with fewer rows is judged on those it has (three or more). */
  end(line: number): void {
    if (this.dates && this.dates.length >= 3) this.judge(line);
  }

  private judge(line: number): void {
    const days = (this.dates ?? []).map(dayNumber).sort((a, b) => a - b);
    this.dates = null;
    const gaps = days.slice(1).map((day, i) => day - (days[i] as number));
    if (!gaps.every((gap) => gap >= WEEK_DAYS)) return;
    const weekdays = new Set(days.map((day) => (day + 4) % 7));
    const kind =
      weekdays.size === 1 ? 'weekly' : gaps.every((gap) => gap >= MONTH_DAYS) ? 'monthly or longer' : null;
    if (!kind) return;
    const median = [...gaps].sort((a, b) => a - b)[gaps.length >> 1];
    throw new SourceError(
      this.file,
      line,
      `${this.symbol}'s rows are ${median} days apart${weekdays.size === 1 ? ', all on one weekday' : ''}: these are ${kind} bars, and a listing's bars are stored daily; load its daily prices (yfinance interval 1d)`,
    );
  }
}

/** Dividends judged before a file's unit is: two in the other unit, and none in the prices', refuse it. */
const UNIT_JUDGED_AFTER = 2;

/** A listing's dividends against the closes before them, to tell a file whose dividends are in another unit. */
export class DividendUnits {
  private lastClose: number | null = null;
  private judged = 0;
  private readonly other: string[] = [];

  constructor(
    private readonly file: string,
    private readonly symbol: string,
    /** The unit judged only on a listing quoted in minor units read without --unit. */
    private readonly judging: boolean,
    /** The most a dividend may be of the close before it, in any unit it could be in (100 where pence may be pounds). */
    private readonly most: number,
  ) {}

  /**
   * Takes a row (as read, in the unit the file is read in); throws once two dividends have been read and every
   * one was in another unit than the prices. A single slip among dividends in the prices' unit is left to the
   * repairs, which scale it back when it is served.
   */
  take(
    row: { date: string; open: number | null; close: number; dividend: number | null },
    line: number,
  ): void {
    const before = this.lastClose;
    this.lastClose = row.close;
    if (before === null || before <= 0 || !row.dividend) return;
    const share = row.dividend / before;
    if (share >= this.most)
      throw new SourceError(
        this.file,
        line,
        `${this.symbol}'s dividend of ${row.dividend} on ${row.date} is ${percent(share)} of the close before it, ${before}: no dividend is worth the share${this.most > 1 ? ', in either unit' : ''}, and none is repaired into one; the file is refused`,
      );
    if (!this.judging) return;
    const fall = Math.max(1 - row.close / before, 1 - (row.open ?? row.close) / before);
    this.judged += 1;
    if (hundredfoldLarge(share, fall))
      this.other.push(
        `${row.dividend} on ${row.date} (${percent(share)} of the close before it, which fell ${percent(Math.max(fall, 0))})`,
      );
    if (this.judged < UNIT_JUDGED_AFTER || this.other.length < this.judged) return;
    throw new SourceError(
      this.file,
      line,
      `${this.symbol}'s dividends are in another unit than its prices: ${this.other.join(', ')}. ` +
        'Prices in the main unit (pounds, rand, shekels), as yfinance writes London tables: pass --unit main (the dividends are then judged against them and repaired); ' +
        'prices in the quoted unit (pence, cents, agorot): pass --unit quoted',
    );
  }
}

/** What the store holds of the listing a file names with --ticker, when it is quoted in minor units. */
export interface HeldLevel {
  symbol: string;
  closes: Map<string, number>;
  last: string;
  /** The median of the last five closes held. */
  recent: number;
}

/** The prepare step of price files: the held closes of the --ticker listing, when it is quoted in minor units. */
export async function heldLevel(
  db: Kysely<Database>,
  options: Readonly<Record<string, string>>,
): Promise<HeldLevel | null> {
  if (!options.ticker) return null;
  const resolution = resolveInput(options.ticker);
  if (resolution.status !== 'ok') return null;
  const { symbol, mic } = resolution.resolved;
  if (!mic || !VENUES[mic]?.minor) return null;
  const { bars } = await storedBars(db, symbol);
  const last = bars.at(-1);
  if (!last) return null;
  const recent = bars
    .slice(-5)
    .map((b) => b.close)
    .sort((a, b) => a - b);
  return {
    symbol,
    closes: new Map(bars.map((b) => [b.date, b.close])),
    last: last.date,
    recent: recent[recent.length >> 1] ?? last.close,
  };
}

/** Days compared with the store before a file's level is taken as its own. */
const LEVEL_COMPARED = 3;
const CONTINUES_WITHIN_DAYS = 31;

/** A file's closes of the --ticker listing against those the store holds. */
export class StoredLevel {
  private compared = 0;
  private off = 0;
  private done: boolean;

  constructor(
    private readonly file: string,
    private readonly held: HeldLevel | null,
  ) {
    this.done = held === null;
  }

  /** Takes a row's close (in main units, as read); throws when the file's level is a hundredfold off. */
  take(symbol: string, date: string, close: number, line: number): void {
    const held = this.held;
    if (this.done || !held || symbol !== held.symbol) return;
    const stored = held.closes.get(date);
    const continues =
      stored === undefined &&
      this.compared === 0 &&
      date > held.last &&
      dayNumber(date) - dayNumber(held.last) <= CONTINUES_WITHIN_DAYS;
    const against = stored ?? (continues ? held.recent : undefined);
    if (against === undefined || against <= 0) return;
    const ratio = close / against;
    this.compared += 1;
    if ((ratio > 50 && ratio < 200) || (ratio > 1 / 200 && ratio < 1 / 50)) this.off += 1;
    if (this.off < this.compared) {
      this.done = true;
      return;
    }
    if (!continues && this.compared < LEVEL_COMPARED) return;
    this.done = true;
    const option =
      ratio < 1
        ? '--unit main (its prices are in the main unit: pounds, rand, shekels)'
        : '--unit quoted, or no --unit (its prices are in the quoted unit: pence, cents, agorot)';
    throw new SourceError(
      this.file,
      line,
      `${symbol}'s close of ${close} on ${date} is ${ratio < 1 ? 'a hundredth of' : 'a hundred times'} the ${continues ? 'median of the last closes held' : 'close held for that day'}, ${against}: the file is read in the other unit; pass ${option}`,
    );
  }
}
