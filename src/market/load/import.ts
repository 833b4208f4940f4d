// Market-data records by provider symbol, prices in main units: a quote (latest values by field id), facts
// (fields recorded without a quote), a statement fact, a daily bar, a corporate action or a listing's name. Loaded through the same
// import path as the datasets; a bar loaded again with other values is a revision of its year's block
// (bar-blocks.ts), the version it replaces kept.

import type { Transaction } from 'kysely';
import { type Static, Type } from 'typebox';
import type { BatchEntry, Importer } from '../../ingest/import.js';
import type { Bar } from '../../kernel/market-provider.js';
import { contentHash, type WriteOutcome } from '../../store/revisions.js';
import type { Database, MarketBarBlocksTable } from '../../store/schema.js';
import { type KnownMark, knownMarks, packBars, sameBar, unpackBars, yearOf } from '../bar-blocks.js';

const Num = Type.Union([Type.Number(), Type.Null()]);

export const MarketRecord = Type.Union([
  // Bars first: a load is mostly bars, and a record is tried against each kind in turn.
  Type.Object(
    {
      type: Type.Literal('bar'),
      symbol: Type.String({ minLength: 1, maxLength: 40 }),
      date: Type.String({ format: 'date' }),
      open: Num,
      high: Num,
      low: Num,
      close: Type.Number(),
      volume: Num,
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('quote'),
      symbol: Type.String({ minLength: 1, maxLength: 40 }),
      name: Type.String(),
      currency: Type.String({ pattern: '^[A-Z]{3}$' }),
      exchange: Type.String(),
      assetType: Type.Enum(['equity', 'fund', 'index', 'future', 'currency', 'crypto']),
      asOf: Type.String({ format: 'date-time' }),
      fields: Type.Record(Type.String(), Type.Union([Type.Number(), Type.String(), Type.Null()])),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('statement'),
      symbol: Type.String({ minLength: 1, maxLength: 40 }),
      field: Type.String({ minLength: 1, maxLength: 60 }),
      kind: Type.Enum(['duration', 'instant']),
      start: Type.String(),
      end: Type.String({ format: 'date' }),
      value: Type.Number(),
      currency: Type.String({ pattern: '^[A-Z]{3}$' }),
      fp: Type.String(),
      form: Type.String(),
      filed: Type.String(),
      concept: Type.Optional(Type.String({ maxLength: 200 })),
      /**
       * Where a later filing restated the period: each value it was reported at, oldest first, with the first
       * filing that reported it (the last is `value`).
       */
      reports: Type.Optional(
        Type.Array(
          Type.Object({ value: Type.Number(), filed: Type.String() }, { additionalProperties: false }),
          { minItems: 2 },
        ),
      ),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('facts'),
      symbol: Type.String({ minLength: 1, maxLength: 40 }),
      asOf: Type.String({ format: 'date-time' }),
      fields: Type.Record(Type.String(), Type.Union([Type.Number(), Type.String(), Type.Null()])),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('action'),
      symbol: Type.String({ minLength: 1, maxLength: 40 }),
      /** The ex-date. */
      date: Type.String({ format: 'date' }),
      action: Type.Enum(['dividend', 'split', 'capitalGain']),
      /** Per share, main units, in the shares of the bars (dividends and capital gains). */
      amount: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
      numerator: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
      denominator: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('actionsKnown'),
      symbol: Type.String({ minLength: 1, maxLength: 40 }),
      /** The days the source answered the listing's actions of these types for. */
      start: Type.String({ format: 'date' }),
      end: Type.String({ format: 'date' }),
      actions: Type.Array(Type.Enum(['dividend', 'split', 'capitalGain']), {
        minItems: 1,
        uniqueItems: true,
      }),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('listing'),
      symbol: Type.String({ minLength: 1, maxLength: 40 }),
      name: Type.String({ minLength: 1, maxLength: 200 }),
    },
    { additionalProperties: false },
  ),
]);

export type MarketRecordValue = Static<typeof MarketRecord>;

export const marketImporter: Importer<MarketRecordValue> = {
  dataset: 'market',
  record: MarketRecord,
  dateOf: (record) =>
    record.type === 'bar' || record.type === 'action'
      ? record.date
      : record.type === 'actionsKnown'
        ? record.end
        : record.type === 'statement'
          ? record.end
          : record.type === 'listing'
            ? undefined
            : record.asOf.slice(0, 10),
  // A listing's records stand on their own: a universe of prices commits a slice at a time (ADR 035).
  commitEvery: 5000,
  /**
   * Daily bars a batch at a time (the blocks held for the batch's listing-years read in one query, the changed
   * ones written in multi-row statements); every other record as it comes, in order.
   */
  async writeBatch(tx, entries): Promise<WriteOutcome[]> {
    const outcomes: WriteOutcome[] = [];
    const bars: { index: number; entry: BatchEntry<BarRecord> }[] = [];
    for (const [index, entry] of entries.entries()) {
      if (entry.record.type === 'bar') bars.push({ index, entry: entry as BatchEntry<BarRecord> });
      else outcomes[index] = await writeOne(tx, entry.record, entry.meta);
    }
    for (const [index, outcome] of (
      await writeBars(
        tx,
        bars.map((b) => b.entry),
      )
    ).entries())
      outcomes[bars[index]!.index] = outcome;
    return outcomes;
  },
};

type BarRecord = Extract<MarketRecordValue, { type: 'bar' }>;
type Meta = BatchEntry<MarketRecordValue>['meta'];

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
async function writeBars(
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

/** One record other than a bar, as loaded before this one. */
async function writeOne(
  tx: Transaction<Database>,
  record: Exclude<MarketRecordValue, BarRecord>,
  meta: Meta,
): Promise<WriteOutcome> {
  if (record.type === 'action') return writeAction(tx, record, meta);
  if (record.type === 'actionsKnown') {
    const rows = record.actions.map((type) => ({
      symbol: record.symbol,
      type,
      start: record.start,
      end: record.end,
      known_at: meta.knownAt ?? meta.loadedAt,
      source: meta.source,
    }));
    const written = await tx
      .insertInto('market_action_spans')
      .values(rows)
      .onConflict((oc) => oc.columns(['symbol', 'type', 'start', 'end']).doNothing())
      .executeTakeFirst();
    return Number(written.numInsertedOrUpdatedRows ?? 0) > 0 ? 'inserted' : 'unchanged';
  }
  if (record.type === 'listing') {
    const existing = await tx
      .selectFrom('market_listings')
      .select('name')
      .where('symbol', '=', record.symbol)
      .executeTakeFirst();
    if (existing?.name === record.name) return 'unchanged';
    const row = { symbol: record.symbol, name: record.name, source: meta.source, loaded_at: meta.loadedAt };
    await tx
      .insertInto('market_listings')
      .values(row)
      .onConflict((oc) => oc.column('symbol').doUpdateSet(row))
      .execute();
    return existing ? 'revised' : 'inserted';
  }
  if (record.type === 'facts') {
    const existing = await tx
      .selectFrom('market_facts')
      .select(['content_hash', 'fields', 'as_of'])
      .where('symbol', '=', record.symbol)
      .executeTakeFirst();
    const fields = merged(existing, record);
    const hash = contentHash({ ...record, fields });
    if (existing?.content_hash === hash) return 'unchanged';
    const row = {
      symbol: record.symbol,
      fields: JSON.stringify(fields),
      as_of: existing && existing.as_of > record.asOf ? existing.as_of : record.asOf,
      content_hash: hash,
      source: meta.source,
      loaded_at: meta.loadedAt,
    };
    await tx
      .insertInto('market_facts')
      .values(row)
      .onConflict((oc) => oc.column('symbol').doUpdateSet(row))
      .execute();
    return existing ? 'revised' : 'inserted';
  }
  if (record.type === 'statement') {
    const key = {
      symbol: record.symbol,
      field: record.field,
      kind: record.kind,
      start: record.start,
      end: record.end,
    };
    const existing = await tx
      .selectFrom('market_statements')
      .select(['value', 'filed', 'concept', 'reports'])
      .where('symbol', '=', key.symbol)
      .where('field', '=', key.field)
      .where('kind', '=', key.kind)
      .where('start', '=', key.start)
      .where('end', '=', key.end)
      .executeTakeFirst();
    const reports = record.reports ? JSON.stringify(record.reports) : null;
    if (
      existing &&
      existing.value === record.value &&
      existing.filed === record.filed &&
      existing.concept === (record.concept ?? '') &&
      existing.reports === reports
    )
      return 'unchanged';
    const row = {
      ...key,
      value: record.value,
      currency: record.currency,
      fp: record.fp,
      form: record.form,
      filed: record.filed,
      concept: record.concept ?? '',
      reports,
      source: meta.source,
      loaded_at: meta.loadedAt,
    };
    await tx
      .insertInto('market_statements')
      .values(row)
      .onConflict((oc) => oc.columns(['symbol', 'field', 'kind', 'start', 'end']).doUpdateSet(row))
      .execute();
    return existing ? 'revised' : 'inserted';
  }
  // What is left is a quote.
  const existing = await tx
    .selectFrom('market_quotes')
    .select(['content_hash', 'fields', 'as_of'])
    .where('symbol', '=', record.symbol)
    .executeTakeFirst();
  const newer = !existing || record.asOf >= existing.as_of;
  const fields = merged(existing, record);
  const hash = contentHash({ ...record, fields });
  if (existing?.content_hash === hash) return 'unchanged';
  const row = {
    symbol: record.symbol,
    name: record.name,
    currency: record.currency,
    exchange: record.exchange,
    asset_type: record.assetType,
    fields: JSON.stringify(fields),
    as_of: newer ? record.asOf : (existing?.as_of as string),
    content_hash: hash,
    source: meta.source,
    loaded_at: meta.loadedAt,
  };
  await tx
    .insertInto('market_quotes')
    .values(row)
    .onConflict((oc) => oc.column('symbol').doUpdateSet(row))
    .execute();
  return existing ? 'revised' : 'inserted';
}

/**
 * A corporate action: the same as the one held is unchanged; another replaces it as a new version known from
 * the load (or the publication time given), the one it replaces kept with the time it was superseded.
 */
async function writeAction(
  tx: Transaction<Database>,
  record: Extract<MarketRecordValue, { type: 'action' }>,
  meta: Meta,
): Promise<WriteOutcome> {
  const key = { symbol: record.symbol, date: record.date, type: record.action };
  const current = tx
    .updateTable('market_actions')
    .where((eb) => eb.and(key))
    .where('superseded_at', 'is', null);
  const held = await tx
    .selectFrom('market_actions')
    .select(['amount', 'numerator', 'denominator', 'loaded_at'])
    .where((eb) => eb.and(key))
    .where('superseded_at', 'is', null)
    .executeTakeFirst();
  const values = {
    amount: record.amount ?? null,
    numerator: record.numerator ?? null,
    denominator: record.denominator ?? null,
  };
  if (
    held &&
    held.amount === values.amount &&
    held.numerator === values.numerator &&
    held.denominator === values.denominator
  )
    return 'unchanged';
  // Written twice by one load: the later record stands, as one version.
  if (held?.loaded_at === meta.loadedAt) {
    await current.set({ ...values, source: meta.source }).execute();
    return 'revised';
  }
  const knownAt = meta.knownAt ?? meta.loadedAt;
  if (held) await current.set({ superseded_at: knownAt }).execute();
  await tx
    .insertInto('market_actions')
    .values({
      ...key,
      ...values,
      known_at: knownAt,
      superseded_at: null,
      source: meta.source,
      loaded_at: meta.loadedAt,
    })
    .execute();
  return held ? 'revised' : 'inserted';
}

type Fields = Record<string, number | string | null>;

/** Recordings of different endpoints for one symbol add up: the newer one wins where both have a value. */
function merged(
  existing: { fields: string; as_of: string } | undefined,
  record: { asOf: string; fields: Fields },
) {
  const before = existing ? (JSON.parse(existing.fields) as Fields) : {};
  const newer = !existing || record.asOf >= existing.as_of;
  return newer ? { ...before, ...record.fields } : { ...record.fields, ...before };
}
