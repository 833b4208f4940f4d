// Every award revision as columns in memory, for the listing's summaries: each text dictionary-coded, each
// amount split exactly into whole millions (hi) and the rest in millionths (lo), both of the amount's sign
// (amount in micros = hi x 10^12 + lo), so that sums are exact in plain numbers; and when each revision was
// known, so that one set of columns answers both the current listing and the listing as known on a date.
// Built once per version of the dataset (a load anywhere changes it), about 60 bytes a revision: 60 MB for a
// million.
import { type Kysely, sql } from 'kysely';
import { ownTurn } from '../../kernel/turns.js';
import type { Database } from '../../store/schema.js';
import { emptyTitleWords, type TitleWords, TitleWordsBuilder } from './words.js';

export const SPLIT = 1e12;
/**
 * Rows per read while building: small enough that a page, read and coded, holds the event loop for a few
 * milliseconds (an embedded store reads synchronously), after which other requests are answered.
 */
const PAGE = 500;

export class Dictionary {
  readonly names: string[] = [];
  private readonly codes = new Map<string, number>();

  code(name: string | null): number {
    if (name === null) return -1;
    let code = this.codes.get(name);
    if (code === undefined) {
      code = this.names.length;
      this.names.push(name);
      this.codes.set(name, code);
    }
    return code;
  }

  /** The code of a name held, or -2 (matches no row, not even a null's -1). */
  find(name: string): number {
    return this.codes.get(name) ?? -2;
  }
}

export interface AwardColumns {
  size: number;
  /** Store row ids, ascending. */
  rowIds: Float64Array;
  agency: Int32Array;
  sector: Int32Array;
  recipient: Int32Array;
  ticker: Int32Array;
  source: Int32Array;
  jurisdiction: Int32Array;
  currency: Int32Array;
  awardType: Int32Array;
  parent: Int32Array;
  fiscalYear: Int32Array;
  /** YYYYMMDD. */
  date: Int32Array;
  hi: Float64Array;
  lo: Float64Array;
  /** 1 where the loader put alerts in the row's details. */
  flagged: Uint8Array;
  /** The notice a row is a lot of, where the notice publishes its own total: an index of `notices`, else -1. */
  notice: Int32Array;
  /** Each such notice's own total: its currency's code and the amount as (hi, lo). */
  notices: { currency: number; hi: number; lo: number }[];
  /** When each revision became known, and when a later one superseded it (Infinity while current), in ms. */
  knownAt: Float64Array;
  supersededAt: Float64Array;
  /** The awards holding each word of the titles (words.ts). */
  titleWords: TitleWords;
  /** The range of fiscal years held (both 0 when nothing is). */
  firstFiscalYear: number;
  lastFiscalYear: number;
  dict: Record<
    | 'agency'
    | 'sector'
    | 'recipient'
    | 'ticker'
    | 'source'
    | 'jurisdiction'
    | 'currency'
    | 'awardType'
    | 'parent',
    Dictionary
  >;
}

const AMOUNT = /^(-)?([0-9]{1,24})(?:\.([0-9]{1,6}))?$/;

/** An exact decimal as (hi, lo): hi whole millions of units, lo the rest in micros, both carrying the sign. */
export function splitAmount(text: string): [number, number] {
  const match = AMOUNT.exec(text);
  if (!match) throw new Error(`not a decimal amount: ${text}`);
  const [, minus, whole = '0', fraction = ''] = match;
  const cut = Math.max(0, whole.length - 6);
  const hi = Number(whole.slice(0, cut) || '0');
  const lo = Number(whole.slice(cut)) * 1e6 + Number(fraction.padEnd(6, '0'));
  return minus ? [-hi, -lo] : [hi, lo];
}

/** One empty dictionary for each coded column. */
export function emptyDictionaries(): AwardColumns['dict'] {
  return {
    agency: new Dictionary(),
    sector: new Dictionary(),
    recipient: new Dictionary(),
    ticker: new Dictionary(),
    source: new Dictionary(),
    jurisdiction: new Dictionary(),
    currency: new Dictionary(),
    awardType: new Dictionary(),
    parent: new Dictionary(),
  };
}

export async function buildColumns(db: Kysely<Database>): Promise<AwardColumns> {
  // Row ids are distinct and from 1 up, and no award row is ever deleted, so the last row id bounds the
  // count: read from the primary key's end at once, where counting a million rows held the loop 80 ms.
  const newest = await db
    .selectFrom('awards')
    .select((eb) => eb.fn.max('row_id').as('last'))
    .executeTakeFirstOrThrow();
  const n = Number(newest.last ?? 0);
  const cols = emptyColumns(n);
  const { dict } = cols;
  const titleWords = new TitleWordsBuilder();
  const notices = new Notices(cols);
  let i = 0;
  let after = 0;
  // Pages by row id: a keyset walk that both engines answer from the primary key.
  for (;;) {
    const rows = await columnPage(db, after, n);
    for (const r of rows) {
      cols.rowIds[i] = Number(r.row_id);
      cols.agency[i] = dict.agency.code(r.agency_name);
      cols.sector[i] = dict.sector.code(r.sector);
      cols.recipient[i] = dict.recipient.code(r.recipient_name);
      cols.ticker[i] = dict.ticker.code(r.ticker);
      cols.source[i] = dict.source.code(r.source);
      cols.jurisdiction[i] = dict.jurisdiction.code(r.jurisdiction);
      cols.currency[i] = dict.currency.code(r.currency);
      cols.awardType[i] = dict.awardType.code(r.award_type);
      cols.parent[i] = dict.parent.code(r.parent_id);
      cols.fiscalYear[i] = Number(r.fiscal_year);
      cols.date[i] = Number(r.award_date.replaceAll('-', ''));
      const [hi, lo] = splitAmount(r.obligated_amount);
      cols.hi[i] = hi;
      cols.lo[i] = lo;
      cols.flagged[i] = Number(r.flagged);
      if (r.notice_details !== null && r.notice_award !== null)
        cols.notice[i] = notices.of(r.source, r.notice_award, r.notice_details);
      cols.knownAt[i] = Date.parse(r.known_at);
      cols.supersededAt[i] =
        r.superseded_at === null ? Number.POSITIVE_INFINITY : Date.parse(r.superseded_at);
      titleWords.add(i, r.title);
      i += 1;
    }
    const last = rows.at(-1);
    if (!last || rows.length < PAGE) break;
    after = Number(last.row_id);
    // Requests that arrived meanwhile are answered before the next page.
    await ownTurn();
  }
  cols.size = i;
  cols.titleWords = await titleWords.build();
  const years = cols.fiscalYear.subarray(0, i);
  cols.firstFiscalYear = i === 0 ? 0 : years.reduce((a, b) => Math.min(a, b));
  cols.lastFiscalYear = i === 0 ? 0 : years.reduce((a, b) => Math.max(a, b));
  // The caller's first pass over the columns (a summary of every award) starts in a turn of its own.
  await ownTurn();
  return cols;
}

/** Columns for `n` awards, empty. */
function emptyColumns(n: number): AwardColumns {
  return {
    size: 0,
    rowIds: new Float64Array(n),
    agency: new Int32Array(n),
    sector: new Int32Array(n),
    recipient: new Int32Array(n),
    ticker: new Int32Array(n),
    source: new Int32Array(n),
    jurisdiction: new Int32Array(n),
    currency: new Int32Array(n),
    awardType: new Int32Array(n),
    parent: new Int32Array(n),
    fiscalYear: new Int32Array(n),
    date: new Int32Array(n),
    hi: new Float64Array(n),
    lo: new Float64Array(n),
    flagged: new Uint8Array(n),
    notice: new Int32Array(n).fill(-1),
    notices: [],
    knownAt: new Float64Array(n),
    supersededAt: new Float64Array(n),
    titleWords: emptyTitleWords(),
    firstFiscalYear: 0,
    lastFiscalYear: 0,
    dict: emptyDictionaries(),
  };
}

/** The award rows after row id `after` (up to `last`), a page of them, as the columns read them. */
function columnPage(db: Kysely<Database>, after: number, last: number) {
  return (
    db
      .selectFrom('awards')
      .select([
        'row_id',
        'agency_name',
        'sector',
        'recipient_name',
        'ticker',
        'source',
        'jurisdiction',
        'currency',
        'award_type',
        'parent_id',
        'fiscal_year',
        'award_date',
        'obligated_amount',
        'title',
        sql<number>`CASE WHEN details LIKE '%"alerts":%' THEN 1 ELSE 0 END`.as('flagged'),
        // Read only for the rows of notices that publish their own total (a few; TED's and eForms' lots).
        sql<string | null>`CASE WHEN details LIKE '%"noticeTotal":%' THEN details END`.as('notice_details'),
        sql<string | null>`CASE WHEN details LIKE '%"noticeTotal":%' THEN source_award_id END`.as(
          'notice_award',
        ),
        'known_at',
        'superseded_at',
      ])
      .where('row_id', '>', after)
      // A load committed meanwhile adds rows the next version will hold.
      .where('row_id', '<=', last)
      .orderBy('row_id')
      .limit(PAGE)
      .execute()
  );
}

/**
 * The notices whose lots the store holds with the notice's own total, numbered as met: a notice is its source
 * and its publication number, the part of a lot's source award id before `#`.
 */
class Notices {
  private readonly numbers = new Map<string, number>();

  constructor(private readonly cols: AwardColumns) {}

  of(source: string, sourceAwardId: string, details: string): number {
    const key = `${source}:${sourceAwardId.split('#')[0]}`;
    let index = this.numbers.get(key);
    if (index === undefined) {
      const total = (JSON.parse(details) as { noticeTotal: { amount: string; currency: string } })
        .noticeTotal;
      const [hi, lo] = splitAmount(total.amount);
      index = this.cols.notices.length;
      this.cols.notices.push({ currency: this.cols.dict.currency.code(total.currency), hi, lo });
      this.numbers.set(key, index);
    }
    return index;
  }
}

const earliest = new WeakMap<AwardColumns, number>();

/** When the first revision held became known, in ms (Infinity when none is held); found once per columns. */
export function earliestKnown(cols: AwardColumns): number {
  let first = earliest.get(cols);
  if (first === undefined) {
    first = Number.POSITIVE_INFINITY;
    for (let i = 0; i < cols.size; i += 1) first = Math.min(first, cols.knownAt[i]!);
    earliest.set(cols, first);
  }
  return first;
}

/** The awards of each code of one column: `items` from `offsets[code]` to `offsets[code + 1]`, ascending. */
export interface Postings {
  offsets: Int32Array;
  items: Int32Array;
}

const postingsHeld = new WeakMap<Int32Array, Postings>();

/** The awards by code of `column` (codes from 0 to `codes` - 1; others are left out), made once. */
export function postingsOf(cols: AwardColumns, column: Int32Array, codes: number, base = 0): Postings {
  let held = postingsHeld.get(column);
  if (held) return held;
  const offsets = new Int32Array(codes + 1);
  for (let i = 0; i < cols.size; i += 1) {
    const code = column[i]! - base;
    if (code >= 0 && code < codes) offsets[code + 1] = offsets[code + 1]! + 1;
  }
  for (let c = 0; c < codes; c += 1) offsets[c + 1] = offsets[c + 1]! + offsets[c]!;
  const items = new Int32Array(offsets[codes]!);
  const next = offsets.slice(0, codes);
  for (let i = 0; i < cols.size; i += 1) {
    const code = column[i]! - base;
    if (code >= 0 && code < codes) {
      items[next[code]!] = i;
      next[code] = next[code]! + 1;
    }
  }
  held = { offsets, items };
  postingsHeld.set(column, held);
  return held;
}
