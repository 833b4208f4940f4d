// A notice's lots are summed no further than the notice's own total. A framework notice gives each lot its
// ceiling (Highways England's twelve lots: six of GBP 250 million and six of 50 million, GBP 1.8 billion in
// all, under a notice total of GBP 300 million): adding them would report money the notice never committed.
// In every group of a summary, the lots of one notice count at most its total, in its currency; the awards
// are still counted one by one, and an amount cut to a notice's total says so.

import { SPLIT } from './columns.js';

/** What the summary's tallies take: an amount added to a cell without counting an award, and a cut cell. */
export interface AmountSink {
  addAmount(group: number, currency: number, hi: number, lo: number): void;
  markCapped(group: number, currency: number): void;
}

export interface NoticeRows {
  /** The notice of each row (an index of `notices`), -1 for a row of none. */
  notice: Int32Array;
  notices: readonly { currency: number; hi: number; lo: number }[];
  currency: Int32Array;
  hi: Float64Array;
  lo: Float64Array;
}

const micros = (hi: number, lo: number) => BigInt(hi) * BigInt(SPLIT) + BigInt(lo);

/**
 * Adds the amounts of notice lots `rows` (positions in the columns) to `sink`, grouped by `groupOf`: per
 * (group, currency, notice) the lots' sum, or the notice's total where the sum passes it in the total's
 * currency.
 */
export function addNoticeLots(
  cols: NoticeRows,
  rows: readonly number[],
  groupOf: (row: number) => number,
  sink: AmountSink,
): void {
  const sums = new Map<string, { group: number; currency: number; notice: number; sum: bigint }>();
  for (const i of rows) {
    const group = groupOf(i);
    if (group < 0) continue;
    const currency = cols.currency[i]!;
    const notice = cols.notice[i]!;
    const key = `${group}:${currency}:${notice}`;
    const cell = sums.get(key) ?? { group, currency, notice, sum: 0n };
    cell.sum += micros(cols.hi[i]!, cols.lo[i]!);
    sums.set(key, cell);
  }
  for (const { group, currency, notice, sum } of sums.values()) {
    const total = cols.notices[notice]!;
    const cap = micros(total.hi, total.lo);
    const capped = total.currency === currency && sum > cap;
    const amount = capped ? cap : sum;
    const hi = amount / BigInt(SPLIT);
    sink.addAmount(group, currency, Number(hi), Number(amount - hi * BigInt(SPLIT)));
    if (capped) sink.markCapped(group, currency);
  }
}
