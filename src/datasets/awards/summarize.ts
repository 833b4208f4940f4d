// The listing's summaries over the whole filtered set, in one pass over the award columns (columns.ts):
// counts and exact sums per currency by agency, sector, recipient, fiscal year and source; coverage by
// source and jurisdiction; and the rows worth an alert. Amounts of different currencies are never added.

import { canonicalJson } from '../../kernel/canonical-json.js';
import { type AwardColumns, postingsOf, SPLIT } from './columns.js';
import { amountKey } from './derive.js';
import { addNoticeLots } from './notices.js';

export type SummaryFilters = {
  ticker?: string;
  jurisdiction?: string;
  currency?: string;
  agency?: string;
  sector?: string;
  source?: string;
  parentId?: string;
  awardType?: string;
  from?: string;
  to?: string;
  fiscalYear?: number;
  minAmount?: string;
  /** The awards as known at this instant (ISO); the current ones when not given. */
  knownAt?: string;
};

export interface GroupSummary {
  key: string;
  awards: number;
  amounts: { currency: string; obligatedAmount: string }[];
}

/** Past this size a cell's sum of millionths is carried into its millions (2^52: exact with room for a lo). */
const CARRY_AT = 2 ** 52;

/** Cells past this many are held sparsely (many recipients times many currencies). */
const DENSE_CELLS = 1 << 20;

/**
 * Counts and sums per (group, currency) cell, exact: hi in millions, lo in micros below a million. Small
 * tallies are flat arrays indexed by cell; large ones give each cell met a slot of growing arrays.
 */
class Tally {
  private count: Float64Array;
  private hi: Float64Array;
  private lo: Float64Array;
  /** Sparse tallies: cell -> slot. */
  private readonly slots: Map<number, number> | null;
  private readonly cellOfSlot: number[] = [];

  constructor(
    groups: number,
    private readonly currencies: number,
  ) {
    const cells = Math.max(1, groups * currencies);
    this.slots = cells > DENSE_CELLS ? new Map() : null;
    const size = this.slots ? 1024 : cells;
    this.count = new Float64Array(size);
    this.hi = new Float64Array(size);
    this.lo = new Float64Array(size);
  }

  /** Cells whose amount counts a notice's total in place of its lots' sum (notices.ts). */
  private readonly capped = new Set<number>();

  add(group: number, currency: number, hi: number, lo: number): void {
    let at = group * this.currencies + currency;
    if (this.slots) at = this.slotOf(at);
    this.count[at] = this.count[at]! + 1;
    this.sum(at, hi, lo);
  }

  /** An amount added to a cell without counting an award (notices.ts adds lots' amounts so). */
  addAmount(group: number, currency: number, hi: number, lo: number): void {
    let at = group * this.currencies + currency;
    if (this.slots) at = this.slotOf(at);
    this.sum(at, hi, lo);
  }

  markCapped(group: number, currency: number): void {
    this.capped.add(group * this.currencies + currency);
  }

  private sum(at: number, hi: number, lo: number): void {
    this.hi[at] = this.hi[at]! + hi;
    const sum = this.lo[at]! + lo;
    this.lo[at] = sum;
    // Each lo is below 10^12 in size: a sum carried before it passes 2^52 stays exact.
    if (sum > CARRY_AT || sum < -CARRY_AT) this.carry(at);
  }

  private slotOf(cell: number): number {
    const slots = this.slots as Map<number, number>;
    let slot = slots.get(cell);
    if (slot === undefined) {
      slot = slots.size;
      slots.set(cell, slot);
      this.cellOfSlot.push(cell);
      if (slot >= this.count.length) {
        const grow = (old: Float64Array) => {
          const next = new Float64Array(old.length * 2);
          next.set(old);
          return next;
        };
        this.count = grow(this.count);
        this.hi = grow(this.hi);
        this.lo = grow(this.lo);
      }
    }
    return slot;
  }

  private carry(at: number): void {
    const rest = this.lo[at]!;
    const carried = Math.trunc(rest / SPLIT);
    this.hi[at] = this.hi[at]! + carried;
    this.lo[at] = rest - carried * SPLIT;
  }

  /** Each occupied (cell, place in the arrays). */
  private *occupied(): Generator<[number, number]> {
    if (this.slots) {
      for (let slot = 0; slot < this.cellOfSlot.length; slot += 1) yield [this.cellOfSlot[slot]!, slot];
      return;
    }
    for (let cell = 0; cell < this.count.length; cell += 1) if (this.count[cell]! > 0) yield [cell, cell];
  }

  /**
   * The groups with awards, each with its amounts by currency; with `top`, only the `top` groups with the
   * most awards (ties by name), so that amounts are written out for those alone.
   */
  groupsOf(
    names: (group: number) => string,
    currencyNames: string[],
    top = Number.POSITIVE_INFINITY,
  ): GroupSummary[] {
    const awards = new Map<number, number>();
    const places = new Map<number, [currency: number, at: number][]>();
    const capped = new Set<number>();
    for (const [cell, at] of this.occupied()) {
      const group = Math.floor(cell / this.currencies);
      awards.set(group, (awards.get(group) ?? 0) + this.count[at]!);
      const list = places.get(group) ?? [];
      list.push([cell % this.currencies, at]);
      if (this.capped.has(cell)) capped.add(at);
      places.set(group, list);
    }
    let chosen = [...awards.keys()];
    if (Number.isFinite(top)) {
      chosen = chosen
        .sort(
          (a, b) => (awards.get(b) as number) - (awards.get(a) as number) || names(a).localeCompare(names(b)),
        )
        .slice(0, top);
    } else chosen.sort((a, b) => a - b);
    return chosen.map((group) => ({
      key: names(group),
      awards: awards.get(group) as number,
      amounts: (places.get(group) ?? [])
        .map(([currency, at]) => {
          this.carry(at);
          return {
            currency: currencyNames[currency]!,
            obligatedAmount: exact(this.hi[at]!, this.lo[at]!),
            ...(capped.has(at) ? { capped: true } : {}),
          };
        })
        .sort((a, b) => a.currency.localeCompare(b.currency)),
    }));
  }
}

/** hi millions and lo micros back to decimal text with two to six decimals. */
function exact(hi: number, lo: number): string {
  const micros = BigInt(hi) * BigInt(SPLIT) + BigInt(lo);
  const negative = micros < 0n;
  const abs = negative ? -micros : micros;
  let fraction = (abs % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  if (fraction.length < 2) fraction = fraction.padEnd(2, '0');
  return `${negative ? '-' : ''}${abs / 1_000_000n}.${fraction}`;
}

/** The filters as plain data for the summary's loop: equalities on coded columns, a date range, a least amount. */
interface Filter {
  equal: [column: Int32Array, code: number][];
  from: number;
  to: number;
  /** The least amount as (hi, lo), or null. */
  least: [number, number] | null;
  /** The instant the revisions are read at, in ms: the largest finite number for the current ones. */
  at: number;
}

/** The filters on an award's columns; a name never held matches nothing. */
function filterOf(cols: AwardColumns, f: SummaryFilters): Filter {
  const equal: Filter['equal'] = [];
  const d = cols.dict;
  if (f.ticker) equal.push([cols.ticker, d.ticker.find(f.ticker)]);
  if (f.jurisdiction) equal.push([cols.jurisdiction, d.jurisdiction.find(f.jurisdiction)]);
  if (f.currency) equal.push([cols.currency, d.currency.find(f.currency)]);
  if (f.agency) equal.push([cols.agency, d.agency.find(f.agency)]);
  if (f.sector) equal.push([cols.sector, d.sector.find(f.sector)]);
  if (f.source) equal.push([cols.source, d.source.find(f.source)]);
  if (f.parentId) equal.push([cols.parent, d.parent.find(f.parentId)]);
  if (f.awardType) equal.push([cols.awardType, d.awardType.find(f.awardType)]);
  if (f.fiscalYear !== undefined) equal.push([cols.fiscalYear, f.fiscalYear]);
  return {
    equal,
    from: f.from ? Number(f.from.replaceAll('-', '')) : Number.NEGATIVE_INFINITY,
    to: f.to ? Number(f.to.replaceAll('-', '')) : Number.POSITIVE_INFINITY,
    least: f.minAmount ? splitKey(f.minAmount) : null,
    // A current revision is superseded at Infinity, after any finite instant; a superseded one before it.
    at: f.knownAt ? Date.parse(f.knownAt) : Number.MAX_VALUE,
  };
}

function splitKey(amount: string): [number, number] {
  const key = amountKey(amount);
  const negative = key.startsWith('-');
  const [whole = '0', fraction = '0'] = key.replace('-', '').split('.');
  const hi = Number(whole.slice(0, -6) || '0');
  const lo = Number(whole.slice(-6)) * 1e6 + Number(fraction);
  return negative ? [-hi, -lo] : [hi, lo];
}

const ALERTS = 10;
/** Agencies, sectors and recipients listed: the ten with the most awards. */
const TOP = 10;

/** Of the equality filters given, the one that names the fewest awards, as a run of its postings. */
function narrowestPostings(cols: AwardColumns, f: SummaryFilters) {
  const d = cols.dict;
  const equalities: [Int32Array, number, number, number][] = [];
  const add = (column: Int32Array, codes: number, code: number, base = 0) =>
    equalities.push([column, codes, code, base]);
  if (f.ticker) add(cols.ticker, d.ticker.names.length, d.ticker.find(f.ticker));
  if (f.agency) add(cols.agency, d.agency.names.length, d.agency.find(f.agency));
  if (f.sector) add(cols.sector, d.sector.names.length, d.sector.find(f.sector));
  if (f.source) add(cols.source, d.source.names.length, d.source.find(f.source));
  if (f.parentId) add(cols.parent, d.parent.names.length, d.parent.find(f.parentId));
  if (f.fiscalYear !== undefined) {
    const years = cols.lastFiscalYear - cols.firstFiscalYear + 1;
    add(cols.fiscalYear, years, f.fiscalYear - cols.firstFiscalYear, cols.firstFiscalYear);
  }
  let best: { items: Int32Array; from: number; to: number } | null = null;
  for (const [column, codes, code, base] of equalities) {
    if (code < 0 || code >= codes) return { items: new Int32Array(0), from: 0, to: 0 };
    const postings = postingsOf(cols, column, codes, base);
    const run = {
      items: postings.items,
      from: postings.offsets[code]!,
      to: postings.offsets[code + 1]!,
    };
    if (!best || run.to - run.from < best.to - best.from) best = run;
  }
  return best;
}

/** Which awards a page of the listing can hold: dated on or before `before` (YYYYMMDD), the newest `rows`. */
export interface PageAsk {
  before: number | null;
  rows: number;
}

/** What the pass over the filtered awards adds up: tallies by group and year, coverage, alerts, the page. */
class Summing {
  readonly tallies: { agency: Tally; sector: Tally; recipient: Tally; source: Tally };
  readonly years: Tally;
  // Coverage by (source, jurisdiction): counts and first and last dates, in flat arrays.
  readonly placeAwards: Float64Array;
  readonly placeFirst: Int32Array;
  readonly placeLast: Int32Array;
  readonly negatives: number[] = [];
  readonly flagged: number[] = [];
  /** Lots of notices with their own total: counted in the pass, their amounts added after it. */
  readonly lots: number[] = [];
  // The page's candidates: every award in range, and the dates of the newest `page.rows` of them.
  readonly inRange: Int32Array;
  ranged = 0;
  readonly newest: NewestDates | null;

  constructor(cols: AwardColumns, matches: Int32Array | null, page: PageAsk | null, aggregates: boolean) {
    // Finding only the page, the summaries' tallies are left empty rather than sized for every group.
    const width = (groups: number) => (aggregates ? groups : 0);
    const currencies = cols.dict.currency.names.length;
    this.tallies = {
      agency: new Tally(width(cols.dict.agency.names.length), currencies),
      sector: new Tally(width(cols.dict.sector.names.length), currencies),
      recipient: new Tally(width(cols.dict.recipient.names.length), currencies),
      source: new Tally(width(cols.dict.source.names.length), currencies),
    };
    this.years = new Tally(width(cols.lastFiscalYear - cols.firstFiscalYear + 1), currencies);
    const places = width(cols.dict.source.names.length * cols.dict.jurisdiction.names.length);
    this.placeAwards = new Float64Array(places);
    this.placeFirst = new Int32Array(places).fill(99_999_999);
    this.placeLast = new Int32Array(places);
    this.inRange = page ? new Int32Array(matches ? matches.length : cols.size) : new Int32Array(0);
    this.newest = page ? new NewestDates(page.rows) : null;
  }
}

/**
 * `matches`: the awards (column positions) a query's words leave, or null when there is no query. Without
 * `aggregates` only the page's awards are found (the summaries come back empty).
 */
export function summarize(
  cols: AwardColumns,
  f: SummaryFilters,
  matches: Int32Array | null,
  page: PageAsk | null = null,
  aggregates = true,
) {
  const sum = new Summing(cols, matches, page, aggregates);
  const visit = visitor(cols, filterOf(cols, f), sum, page, aggregates);
  const narrowest = narrowestPostings(cols, f);
  if (matches) {
    for (let k = 0; k < matches.length; k += 1) visit(matches[k]!);
  } else if (narrowest) {
    for (let k = narrowest.from; k < narrowest.to; k += 1) visit(narrowest.items[k]!);
  } else {
    for (let i = 0; i < cols.size; i += 1) visit(i);
  }
  const { tallies, years, lots } = sum;
  if (lots.length) {
    addNoticeLots(cols, lots, (i) => cols.agency[i]!, tallies.agency);
    addNoticeLots(cols, lots, (i) => cols.sector[i]!, tallies.sector);
    addNoticeLots(cols, lots, (i) => cols.recipient[i]!, tallies.recipient);
    addNoticeLots(cols, lots, (i) => cols.source[i]!, tallies.source);
    addNoticeLots(cols, lots, (i) => cols.fiscalYear[i]! - cols.firstFiscalYear, years);
  }
  return summaryOf(cols, sum);
}

/**
 * What the pass does with each award: skipped unless known at the filter's time and within its filters; a
 * candidate of the page; added to the tallies. It runs once per award of the filtered set, so the columns and
 * filters are locals of its closure.
 */
function visitor(
  cols: AwardColumns,
  filter: Filter,
  sum: Summing,
  page: PageAsk | null,
  aggregates: boolean,
) {
  const { equal, from, to, least, at } = filter;
  const [leastHi, leastLo] = least ?? [0, 0];
  const {
    currency,
    hi: his,
    lo: los,
    agency,
    sector: sectors,
    recipient,
    source,
    fiscalYear,
    date: dates,
  } = cols;
  const { jurisdiction, flagged: flags, firstFiscalYear, knownAt, supersededAt, notice } = cols;
  const jurisdictions = cols.dict.jurisdiction.names.length;
  const { tallies, years, placeAwards, placeFirst, placeLast, negatives, flagged, lots, inRange, newest } =
    sum;
  const before = page ? (page.before ?? Number.POSITIVE_INFINITY) : Number.NEGATIVE_INFINITY;
  return (i: number) => {
    if (knownAt[i]! > at || supersededAt[i]! <= at) return;
    for (let k = 0; k < equal.length; k += 1) {
      const [column, code] = equal[k]!;
      if (column[i] !== code) return;
    }
    const date = dates[i]!;
    if (date < from || date > to) return;
    const hi = his[i]!;
    const lo = los[i]!;
    if (least && (hi < leastHi || (hi === leastHi && lo < leastLo))) return;
    if (newest && date <= before) {
      inRange[sum.ranged] = i;
      sum.ranged += 1;
      // The cursor's own day is always read whole (which of its awards were shown is known by id only), so
      // only earlier days count toward how far back the page reaches.
      if (date < before) newest.offer(date);
    }
    if (!aggregates) return;
    const c = currency[i]!;
    const src = source[i]!;
    const lot = notice[i]! >= 0;
    if (lot) lots.push(i);
    // A lot is counted here; its amount is added with its notice's other lots, no further than their total.
    const h = lot ? 0 : hi;
    const l = lot ? 0 : lo;
    tallies.agency.add(agency[i]!, c, h, l);
    const sector = sectors[i]!;
    if (sector >= 0) tallies.sector.add(sector, c, h, l);
    tallies.recipient.add(recipient[i]!, c, h, l);
    tallies.source.add(src, c, h, l);
    years.add(fiscalYear[i]! - firstFiscalYear, c, h, l);
    const place = src * jurisdictions + jurisdiction[i]!;
    placeAwards[place] = placeAwards[place]! + 1;
    if (date < placeFirst[place]!) placeFirst[place] = date;
    if (date > placeLast[place]!) placeLast[place] = date;
    if (hi < 0 || lo < 0) negatives.push(i);
    if (flags[i] === 1) flagged.push(i);
  };
}

/** The summaries, coverage, span and rows the pass found, as the listing answers them. */
function summaryOf(cols: AwardColumns, sum: Summing) {
  const { tallies, years, newest } = sum;
  const coverage = coverageOf(cols, { awards: sum.placeAwards, first: sum.placeFirst, last: sum.placeLast });
  const total = coverage.reduce((n, c) => n + c.awards, 0);
  const first = Math.min(...coverage.map((c) => c.first));
  const last = Math.max(...coverage.map((c) => c.last));
  const names = (dict: keyof AwardColumns['dict']) => (g: number) => cols.dict[dict].names[g]!;
  const currencyNames = cols.dict.currency.names;
  const deobligations = largestNegatives(cols, sum.negatives);
  return {
    agencies: tallies.agency.groupsOf(names('agency'), currencyNames, TOP),
    sectors: tallies.sector.groupsOf(names('sector'), currencyNames, TOP),
    leaders: tallies.recipient.groupsOf(names('recipient'), currencyNames, TOP),
    sources: tallies.source.groupsOf(names('source'), currencyNames),
    history: years
      .groupsOf((g) => String(cols.firstFiscalYear + g), currencyNames)
      .map(({ key, awards, amounts }) => ({ fiscalYear: Number(key), awards, amounts })),
    coverage: coverage
      .sort((a, b) => a.source.localeCompare(b.source) || a.jurisdiction.localeCompare(b.jurisdiction))
      .map((c) => ({ ...c, first: isoDate(c.first), last: isoDate(c.last) })),
    span: total === 0 ? null : { awards: total, first: isoDate(first), last: isoDate(last) },
    /** Row ids of the awards the page can hold (the newest in range, all of the last day taken), when asked. */
    pageRows: newest ? pageRows(cols, sum.inRange.subarray(0, sum.ranged), newest.least()) : null,
    /** Row ids: the largest de-obligations (ties at the tenth included), and the first ten rows the loader flagged. */
    deobligationRows: deobligations.map((i) => cols.rowIds[i]!),
    flaggedRows: sum.flagged.slice(0, ALERTS).map((i) => cols.rowIds[i]!),
  };
}

/** Awards and first and last dates by (source, jurisdiction), from the flat arrays the loop filled. */
function coverageOf(
  cols: AwardColumns,
  places: { awards: Float64Array; first: Int32Array; last: Int32Array },
): { source: string; jurisdiction: string; awards: number; first: number; last: number }[] {
  const jurisdictions = cols.dict.jurisdiction.names.length;
  const out = [];
  for (let place = 0; place < places.awards.length; place += 1) {
    const awards = places.awards[place]!;
    if (awards === 0) continue;
    out.push({
      source: cols.dict.source.names[Math.floor(place / jurisdictions)]!,
      jurisdiction: cols.dict.jurisdiction.names[place % jurisdictions]!,
      awards,
      first: places.first[place]!,
      last: places.last[place]!,
    });
  }
  return out;
}

/**
 * The most negative amounts first (de-obligations): the first ten, and every other tied with the tenth, for
 * the caller to order.
 */
function largestNegatives(cols: AwardColumns, negatives: number[]): number[] {
  negatives.sort((a, b) => cols.hi[a]! - cols.hi[b]! || cols.lo[a]! - cols.lo[b]!);
  const cut = negatives[ALERTS - 1];
  return cut === undefined
    ? negatives
    : negatives.filter((i, k) => k < ALERTS || (cols.hi[i] === cols.hi[cut] && cols.lo[i] === cols.lo[cut]));
}

/** The awards in range dated `since` or later, as row ids. */
function pageRows(cols: AwardColumns, inRange: Int32Array, since: number) {
  const out: number[] = [];
  const { date, rowIds } = cols;
  for (let k = 0; k < inRange.length; k += 1) {
    const i = inRange[k]!;
    if (date[i]! >= since) out.push(rowIds[i]!);
  }
  return out;
}

/**
 * The newest `size` dates offered (a min-heap: its root is the least of them). Its least is the date a page of
 * `size` awards reaches back to; every award of that day is taken with it.
 */
export class NewestDates {
  private readonly heap: Int32Array;
  private held = 0;

  constructor(private readonly size: number) {
    this.heap = new Int32Array(size);
  }

  offer(date: number): void {
    const heap = this.heap;
    if (this.held < this.size) {
      let at = this.held;
      this.held += 1;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (heap[parent]! <= date) break;
        heap[at] = heap[parent]!;
        at = parent;
      }
      heap[at] = date;
      return;
    }
    if (this.size === 0 || date <= heap[0]!) return;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= this.size) break;
      const right = left + 1;
      const child = right < this.size && heap[right]! < heap[left]! ? right : left;
      if (heap[child]! >= date) break;
      heap[at] = heap[child]!;
      at = child;
    }
    heap[at] = date;
  }

  /** The least of the newest dates; when fewer than `size` were offered, every date qualifies. */
  least(): number {
    return this.held < this.size ? Number.NEGATIVE_INFINITY : this.heap[0]!;
  }
}

export type Summary = ReturnType<typeof summarize>;

/** Summaries of recent filter sets per set of columns (with the awards their query matched), least recently used first. */
const recent = new WeakMap<AwardColumns, Map<string, { summary: Summary; matches: Int32Array | null }>>();
const RECENT = 64;

/**
 * The summary of a filter set, kept per version of the data (its columns): the pages of one listing, and a
 * listing asked for again, share the summaries of the whole filtered set, and only the page is found anew.
 */
export function summarizeFiltered(
  cols: AwardColumns,
  f: SummaryFilters,
  matchesOf: (() => Int32Array) | null,
  page: PageAsk,
): Summary {
  let held = recent.get(cols);
  if (!held) {
    held = new Map();
    recent.set(cols, held);
  }
  const key = canonicalJson(f);
  const known = held.get(key);
  if (known) {
    held.delete(key);
    held.set(key, known);
    const pageRows =
      f.knownAt && !known.matches && namesOnlyInstant(f)
        ? newestKnown(cols, Date.parse(f.knownAt), page)
        : summarize(cols, f, known.matches, page, false).pageRows;
    return { ...known.summary, pageRows };
  }
  const matches = matchesOf ? matchesOf() : null;
  const summary = summarize(cols, f, matches, page);
  held.set(key, { summary, matches });
  if (held.size > RECENT) held.delete(held.keys().next().value as string);
  return summary;
}

/** Whether a filter set names nothing but the instant the awards are read at. */
function namesOnlyInstant(f: SummaryFilters & { query?: string }): boolean {
  return Object.entries(f).every(
    ([name, value]) => name === 'knownAt' || value === undefined || value === '',
  );
}

const dateOrders = new WeakMap<AwardColumns, Int32Array>();

/** The awards (column positions) newest first by date; made once per columns. */
function newestFirst(cols: AwardColumns): Int32Array {
  let order = dateOrders.get(cols);
  if (!order) {
    const { date } = cols;
    order = Int32Array.from({ length: cols.size }, (_, i) => i).sort((a, b) => date[b]! - date[a]!);
    dateOrders.set(cols, order);
  }
  return order;
}

/**
 * The page's row ids among all awards known at `at` (ms), as `summarize` finds them, walking the awards newest
 * first from the cursor's day instead of visiting every one: the cursor's own day whole, then days back until
 * `page.rows` awards before it are taken, and the rest of the last day with them.
 */
function newestKnown(cols: AwardColumns, at: number, page: PageAsk): number[] {
  const { date, knownAt, supersededAt, rowIds } = cols;
  const before = page.before ?? Number.POSITIVE_INFINITY;
  const order = newestFirst(cols);
  // The first award dated on or before the cursor's day, by bisection.
  let low = 0;
  let high = order.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (date[order[mid]!]! > before) low = mid + 1;
    else high = mid;
  }
  const out: number[] = [];
  let earlier = 0;
  let lastDay = Number.NEGATIVE_INFINITY;
  for (let k = low; k < order.length; k += 1) {
    const i = order[k]!;
    const day = date[i]!;
    if (day < lastDay) break;
    if (knownAt[i]! > at || supersededAt[i]! <= at) continue;
    out.push(rowIds[i]!);
    if (day < before) {
      earlier += 1;
      if (earlier === page.rows) lastDay = day;
    }
  }
  return out;
}

const everything = new WeakMap<AwardColumns, Summary>();

/** The summary of every award: the same for a whole version of the data, so made once per set of columns. */
export function summarizeAll(cols: AwardColumns): Summary {
  let summary = everything.get(cols);
  if (!summary) {
    summary = summarize(cols, {}, null);
    everything.set(cols, summary);
  }
  return summary;
}

function isoDate(yyyymmdd: number): string {
  const text = String(yyyymmdd);
  return `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}`;
}
