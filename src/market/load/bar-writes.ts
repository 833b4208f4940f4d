// Daily bars written a listing-year's block at a time (bar-blocks.ts): a changed year a new version, the
// one it replaces kept; days after the last one held appended in place with the time they became known.
import type { Transaction } from 'kysely';
import type { BatchEntry } from '../../ingest/import.js';
import type { Bar } from '../../kernel/market-provider.js';
import type { WriteOutcome } from '../../store/revisions.js';
import type { Database, MarketBarBlocksTable } from '../../store/schema.js';
import { type KnownMark, knownMarks, packBars, sameBar, unpackBars, yearOf } from '../bars/blocks.js';
import type { MarketRecordValue } from './record.js';

export type BarRecord = Extract<MarketRecordValue, { type: 'bar' }>;

/** Blocks a multi-row statement writes at most (seven values each, well inside SQLite's 32,766). */
const BLOCKS_A_STATEMENT = 200;

interface HeldBlock {
  bars: Map<string, Bar>;
  loadedAt: string;
  /** The last day held before this batch ('' for a block not held), and the marks of the days appended. */
  last: string;
  count: number;
  marks: KnownMark[];
  /** Whether this batch changes a day held (or adds one before the last): the block is then a new version. */
  revises: boolean;
}

/**
 * Bars as one-by-one writes would leave them, a listing-year's block at a time: a bar the same as the one held
 * is unchanged, a new one inserted, another revised (a bar twice in the batch: its second against its first).
 * A block that changed is written as a new version known from the load (or the publication time given), the
 * one it replaces kept with the time it was superseded; a block this load wrote already is rewritten in place.
 * Days after the last one held, and nothing else, are appended to the block in place, marked as known from
 * this load: a daily file adds its day without copying the year (ADR 035).
 */
export async function writeBars(
  tx: Transaction<Database>,
  entries: BatchEntry<BarRecord>[],
): Promise<WriteOutcome[]> {
  if (entries.length === 0) return [];
  const held = await heldBlocks(tx, entries);
  const changed = new Map<string, { symbol: string; year: number; block: HeldBlock }>();
  const outcomes = entries.map(({ record }): WriteOutcome => {
    const year = yearOf(record.date);
    const key = `${record.symbol}|${year}`;
    let block = held.get(key);
    if (!block) {
      block = { bars: new Map(), loadedAt: '', last: '', count: 0, marks: [], revises: false };
      held.set(key, block);
    }
    const before = block.bars.get(record.date);
    const bar: Bar = {
      date: record.date,
      open: record.open,
      high: record.high,
      low: record.low,
      close: record.close,
      volume: record.volume,
    };
    if (before && sameBar(before, bar)) return 'unchanged';
    // A held day changed, or a day added before the last held: not an append.
    if (record.date <= block.last) block.revises = true;
    block.bars.set(record.date, bar);
    changed.set(key, { symbol: record.symbol, year, block });
    return before ? 'revised' : 'inserted';
  });
  const { meta } = entries[0]!;
  const knownAt = meta.knownAt ?? meta.loadedAt;
  const knownMs = Date.parse(knownAt);
  const inserts: MarketBarBlocksTable[] = [];
  for (const { symbol, year, block } of changed.values()) {
    const sorted = [...block.bars.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
    const updateCurrent = (set: Partial<MarketBarBlocksTable>) =>
      tx
        .updateTable('market_bar_blocks')
        .set(set)
        .where('symbol', '=', symbol)
        .where('year', '=', year)
        .where('superseded_at', 'is', null)
        .execute();
    if (block.loadedAt === meta.loadedAt) {
      await updateCurrent({ bars: packBars(sorted, block.marks), source: meta.source });
      continue;
    }
    if (block.loadedAt !== '' && !block.revises) {
      // Days appended: known from this load, the days before from when they were.
      const marks =
        block.marks.at(-1)?.at === knownMs
          ? block.marks
          : [...block.marks, { first: block.count, at: knownMs }];
      await updateCurrent({ bars: packBars(sorted, marks) });
      continue;
    }
    if (block.loadedAt !== '') await updateCurrent({ superseded_at: knownAt });
    block.loadedAt = meta.loadedAt;
    inserts.push({
      symbol,
      year,
      bars: packBars(sorted),
      known_at: knownAt,
      superseded_at: null,
      source: meta.source,
      loaded_at: meta.loadedAt,
    });
  }
  for (let i = 0; i < inserts.length; i += BLOCKS_A_STATEMENT)
    await tx
      .insertInto('market_bar_blocks')
      .values(inserts.slice(i, i + BLOCKS_A_STATEMENT))
      .execute();
  return outcomes;
}

/** The current blocks of the listing-years the entries fall in, by `symbol|year`. */
async function heldBlocks(
  tx: Transaction<Database>,
  entries: BatchEntry<BarRecord>[],
): Promise<Map<string, HeldBlock>> {
  const symbols = [...new Set(entries.map((e) => e.record.symbol))];
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const { record } of entries) {
    const year = yearOf(record.date);
    if (year < first) first = year;
    if (year > last) last = year;
  }
  const rows = await tx
    .selectFrom('market_bar_blocks')
    .select(['symbol', 'year', 'bars', 'loaded_at'])
    .where('symbol', 'in', symbols)
    .where('year', '>=', first)
    .where('year', '<=', last)
    .where('superseded_at', 'is', null)
    .execute();
  return new Map(
    rows.map((r) => {
      const bars = unpackBars(r.year, r.bars);
      const block: HeldBlock = {
        bars: new Map(bars.map((b) => [b.date, b])),
        loadedAt: r.loaded_at,
        last: bars.at(-1)?.date ?? '',
        count: bars.length,
        marks: knownMarks(r.year, r.bars),
        revises: false,
      };
      return [`${r.symbol}|${r.year}`, block];
    }),
  );
}
