// The listing's summaries over the whole filtered set, in one pass over the award columns (columns.ts):
// counts and exact sums per currency by agency, sector, recipient, fiscal year and source; coverage by
// source and jurisdiction; and the rows worth an alert. Amounts of different currencies are never added.
import { type AwardColumns, indexOfRow, postingsOf, SPLIT } from './columns.js';
import { amountKey } from './derive.js';

export interface SummaryFilters {
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
}

export interface GroupSummary {
  key: string;
  awards: number;
  amounts: { currency: string; obligatedAmount: string }[];
}

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
    private readonly groups: number,
    private readonly currencies: number,
  ) {
    const cells = Math.max(1, groups * currencies);
    this.slots = cells > DENSE_CELLS ? new Map() : null;
    const size = this.slots ? 1024 : cells;
    this.count = new Float64Array(size);
    this.hi = new Float64Array(size);
    this.lo = new Float64Array(size);
  }

  add(group: number, currency: number, hi: number, lo: number): void {
    let at = group * this.currencies + currency;
    if (this.slots) at = this.slotOf(at);
    const count = (this.count[at] as number) + 1;
    this.count[at] = count;
    this.hi[at] = (this.hi[at] as number) + hi;
    this.lo[at] = (this.lo[at] as number) + lo;
    // Each lo is below 10^12 in size, so 8,192 of them stay below 2^53: exact until carried.
    if (count % 8192 === 0) this.carry(at);
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
    const rest = this.lo[at] as number;
    const carried = Math.trunc(rest / SPLIT);
    this.hi[at] = (this.hi[at] as number) + carried;
    this.lo[at] = rest - carried * SPLIT;
  }

  /** Each occupied (cell, place in the arrays). */
  private *occupied(): Generator<[number, number]> {
    if (this.slots) {
      for (let slot = 0; slot < this.cellOfSlot.length; slot += 1)
        yield [this.cellOfSlot[slot] as number, slot];
      return;
    }
    for (let cell = 0; cell < this.count.length; cell += 1)
      if ((this.count[cell] as number) > 0) yield [cell, cell];
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
    for (const [cell, at] of this.occupied()) {
      const group = Math.floor(cell / this.currencies);
      awards.set(group, (awards.get(group) ?? 0) + (this.count[at] as number));
      const list = places.get(group) ?? [];
      list.push([cell % this.currencies, at]);
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
            currency: currencyNames[currency] as string,
            obligatedAmount: exact(this.hi[at] as number, this.lo[at] as number),
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

type Test = (i: number) => boolean;

/** The filters as tests on an award's columns; a name never held matches nothing. */
function testsOf(cols: AwardColumns, f: SummaryFilters): Test[] {
  const tests: Test[] = [];
  const equal = (column: Int32Array, code: number) => tests.push((i) => column[i] === code);
  if (f.ticker) equal(cols.ticker, cols.dict.ticker.find(f.ticker));
  if (f.jurisdiction) equal(cols.jurisdiction, cols.dict.jurisdiction.find(f.jurisdiction));
  if (f.currency) equal(cols.currency, cols.dict.currency.find(f.currency));
  if (f.agency) equal(cols.agency, cols.dict.agency.find(f.agency));
  if (f.sector) equal(cols.sector, cols.dict.sector.find(f.sector));
  if (f.source) equal(cols.source, cols.dict.source.find(f.source));
  if (f.parentId) equal(cols.parent, cols.dict.parent.find(f.parentId));
  if (f.awardType) equal(cols.awardType, cols.dict.awardType.find(f.awardType));
  if (f.fiscalYear !== undefined) equal(cols.fiscalYear, f.fiscalYear);
  if (f.from) {
    const from = Number(f.from.replaceAll('-', ''));
    tests.push((i) => (cols.date[i] as number) >= from);
  }
  if (f.to) {
    const to = Number(f.to.replaceAll('-', ''));
    tests.push((i) => (cols.date[i] as number) <= to);
  }
  if (f.minAmount) {
    const [hi, lo] = splitKey(f.minAmount);
    tests.push((i) => {
      const h = cols.hi[i] as number;
      return h > hi || (h === hi && (cols.lo[i] as number) >= lo);
    });
  }
  return tests;
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
      from: postings.offsets[code] as number,
      to: postings.offsets[code + 1] as number,
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

/** A day's place in a histogram of dates: 372 slots a year. */
const slotOf = (yyyymmdd: number) =>
  Math.floor(yyyymmdd / 10000) * 372 + (Math.floor(yyyymmdd / 100) % 100) * 31 + (yyyymmdd % 100);

export function summarize(
  cols: AwardColumns,
  f: SummaryFilters,
  matches: number[] | null,
  page: PageAsk | null = null,
) {
  const tests = testsOf(cols, f);
  const currencies = cols.dict.currency.names.length;
  const tallies = {
    agency: new Tally(cols.dict.agency.names.length, currencies),
    sector: new Tally(cols.dict.sector.names.length, currencies),
    recipient: new Tally(cols.dict.recipient.names.length, currencies),
    source: new Tally(cols.dict.source.names.length, currencies),
  };
  const years = new Tally(cols.lastFiscalYear - cols.firstFiscalYear + 1, currencies);
  // Coverage by (source, jurisdiction): counts and first and last dates, in flat arrays.
  const places = cols.dict.source.names.length * cols.dict.jurisdiction.names.length;
  const jurisdictions = cols.dict.jurisdiction.names.length;
  const placeAwards = new Float64Array(places);
  const placeFirst = new Int32Array(places).fill(99_999_999);
  const placeLast = new Int32Array(places);
  const negatives: number[] = [];
  const flagged: number[] = [];
  // The page's candidates: every award in range, and how many fall on each day.
  const inRange = page ? new Int32Array(matches ? matches.length : cols.size) : new Int32Array(0);
  let ranged = 0;
  const baseSlot = slotOf(cols.firstFiscalYear * 10000 - 20000 + 101);
  const days = page ? new Int32Array(slotOf((cols.lastFiscalYear + 1) * 10000 + 1231) - baseSlot + 1) : null;

  const visit = (i: number) => {
    for (const test of tests) if (!test(i)) return;
    const c = cols.currency[i] as number;
    const hi = cols.hi[i] as number;
    const lo = cols.lo[i] as number;
    tallies.agency.add(cols.agency[i] as number, c, hi, lo);
    const sector = cols.sector[i] as number;
    if (sector >= 0) tallies.sector.add(sector, c, hi, lo);
    tallies.recipient.add(cols.recipient[i] as number, c, hi, lo);
    tallies.source.add(cols.source[i] as number, c, hi, lo);
    years.add((cols.fiscalYear[i] as number) - cols.firstFiscalYear, c, hi, lo);
    const date = cols.date[i] as number;
    const place = (cols.source[i] as number) * jurisdictions + (cols.jurisdiction[i] as number);
    placeAwards[place] = (placeAwards[place] as number) + 1;
    if (date < (placeFirst[place] as number)) placeFirst[place] = date;
    if (date > (placeLast[place] as number)) placeLast[place] = date;
    if (hi < 0 || lo < 0) negatives.push(i);
    if (cols.flagged[i] === 1) flagged.push(i);
    if (days && (page?.before === null || date <= (page?.before as number))) {
      inRange[ranged] = i;
      ranged += 1;
      const slot = slotOf(date) - baseSlot;
      days[slot] = (days[slot] as number) + 1;
    }
  };
  const narrowest = narrowestPostings(cols, f);
  if (matches) {
    for (const rowId of matches) {
      const i = indexOfRow(cols, rowId);
      if (i >= 0) visit(i);
    }
  } else if (narrowest) {
    for (let k = narrowest.from; k < narrowest.to; k += 1) visit(narrowest.items[k] as number);
  } else {
    for (let i = 0; i < cols.size; i += 1) visit(i);
  }
  const coverage: { source: string; jurisdiction: string; awards: number; first: number; last: number }[] =
    [];
  for (let place = 0; place < places; place += 1) {
    const awards = placeAwards[place] as number;
    if (awards === 0) continue;
    coverage.push({
      source: cols.dict.source.names[Math.floor(place / jurisdictions)] as string,
      jurisdiction: cols.dict.jurisdiction.names[place % jurisdictions] as string,
      awards,
      first: placeFirst[place] as number,
      last: placeLast[place] as number,
    });
  }
  const total = coverage.reduce((n, c) => n + c.awards, 0);
  const first = Math.min(...coverage.map((c) => c.first));
  const last = Math.max(...coverage.map((c) => c.last));

  const names = (dict: keyof AwardColumns['dict']) => (g: number) => cols.dict[dict].names[g] as string;
  const currencyNames = cols.dict.currency.names;
  // The most negative first; enough of them that ties at the tenth are all kept for the caller to order.
  negatives.sort(
    (a, b) =>
      (cols.hi[a] as number) - (cols.hi[b] as number) || (cols.lo[a] as number) - (cols.lo[b] as number),
  );
  const cut = negatives[ALERTS - 1];
  const deobligations =
    cut === undefined
      ? negatives
      : negatives.filter(
          (i, k) => k < ALERTS || (cols.hi[i] === cols.hi[cut] && cols.lo[i] === cols.lo[cut]),
        );
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
    pageRows: page && days ? pageRows(cols, inRange.subarray(0, ranged), days, baseSlot, page.rows) : null,
    /** Row ids: the largest de-obligations (ties at the tenth included), and the first ten rows the loader flagged. */
    deobligationRows: deobligations.map((i) => cols.rowIds[i] as number),
    flaggedRows: flagged.slice(0, ALERTS).map((i) => cols.rowIds[i] as number),
  };
}

function pageRows(cols: AwardColumns, inRange: Int32Array, days: Int32Array, baseSlot: number, rows: number) {
  let held = 0;
  let first = 0;
  for (let slot = days.length - 1; slot >= 0; slot -= 1) {
    held += days[slot] as number;
    first = slot;
    if (held >= rows) break;
  }
  const out: number[] = [];
  for (const i of inRange) {
    if (slotOf(cols.date[i] as number) - baseSlot >= first) out.push(cols.rowIds[i] as number);
  }
  return out;
}

export type Summary = ReturnType<typeof summarize>;

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
