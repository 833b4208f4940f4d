// Market-data records loaded through the same import path as the datasets (record.ts: what they hold): daily
// bars a batch at a time into their years' blocks (bar-writes.ts), every other record as it comes. A record
// loaded again with other values is a new version, the one it replaces kept.

import type { Transaction } from 'kysely';
import type { BatchEntry, Importer } from '../../ingest/import.js';
import { chunks } from '../../kernel/lists.js';
import { contentHash, type WriteOutcome } from '../../store/revisions.js';
import type { Database } from '../../store/schema.js';
import { type BarRecord, writeBars } from './bar-writes.js';
import { MarketRecord, type MarketRecordValue } from './record.js';
import { EXCHANGE_SNAPSHOT_AT } from './sec-exchanges.js';

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
   * ones written in multi-row statements), and so listings' facts (a snapshot of ten thousand listings); every
   * other record as it comes, in order.
   */
  async writeBatch(tx, entries): Promise<WriteOutcome[]> {
    const outcomes: WriteOutcome[] = [];
    const bars: { index: number; entry: BatchEntry<BarRecord> }[] = [];
    const facts: { index: number; record: FactsRecord; meta: Meta }[] = [];
    for (const [index, entry] of entries.entries()) {
      const { record, meta } = entry;
      if (record.type === 'bar') bars.push({ index, entry: entry as BatchEntry<BarRecord> });
      else if (record.type === 'facts') facts.push({ index, record, meta });
      else outcomes[index] = await writeOne(tx, record, meta);
    }
    await writeFactsBatch(tx, facts, outcomes);
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

/** The same records, a file in one transaction: for a file that is one snapshot, never to be kept in part. */
export const wholeFileImporter: Importer<MarketRecordValue> = { ...marketImporter, commitEvery: undefined };

type Meta = BatchEntry<MarketRecordValue>['meta'];

/** One record other than a bar, as loaded before this one. */
async function writeOne(
  tx: Transaction<Database>,
  record: Exclude<MarketRecordValue, BarRecord>,
  meta: Meta,
): Promise<WriteOutcome> {
  switch (record.type) {
    case 'action':
      return writeAction(tx, record, meta);
    case 'actionsKnown':
      return writeActionSpans(tx, record, meta);
    case 'listing':
      return writeListing(tx, record, meta);
    case 'facts':
      return writeFacts(tx, record, meta);
    case 'statement':
      return writeStatement(tx, record, meta);
    default:
      return writeQuote(tx, record, meta);
  }
}

/** The days over which a listing's actions of some types are known. */
async function writeActionSpans(
  tx: Transaction<Database>,
  record: Extract<MarketRecordValue, { type: 'actionsKnown' }>,
  meta: Meta,
): Promise<WriteOutcome> {
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

/** A listing's name, where the file gives one. */
async function writeListing(
  tx: Transaction<Database>,
  record: Extract<MarketRecordValue, { type: 'listing' }>,
  meta: Meta,
): Promise<WriteOutcome> {
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

/** Facts of a listing (SEC's exchange and CIK), merged into those held. */
type FactsRecord = Extract<MarketRecordValue, { type: 'facts' }>;

/** Rows a multi-row statement of market facts or snapshots holds (within both engines' parameter limits). */
const FACT_ROWS = 500;

/**
 * Listings' facts, many at once: their snapshots kept, the facts held read, and the changed ones written, each
 * in multi-row statements. A listing met twice in the batch has its later records written after, one at a
 * time, so each merges with what came before it as it would alone.
 */
async function writeFactsBatch(
  tx: Transaction<Database>,
  facts: { index: number; record: FactsRecord; meta: Meta }[],
  outcomes: WriteOutcome[],
): Promise<void> {
  const seen = new Set<string>();
  const once: typeof facts = [];
  const again: typeof facts = [];
  for (const fact of facts) {
    (seen.has(fact.record.symbol) ? again : once).push(fact);
    seen.add(fact.record.symbol);
  }
  const snapshots = once.flatMap(({ record, meta }) => snapshotRow(record, meta) ?? []);
  for (const rows of chunks(snapshots, FACT_ROWS))
    await tx
      .insertInto('market_exchange_snapshots')
      .values(rows)
      .onConflict((oc) => oc.columns(['symbol', 'snapshot_at']).doNothing())
      .execute();
  const held = new Map<string, { content_hash: string; fields: string; as_of: string }>();
  for (const symbols of chunks([...seen], FACT_ROWS)) {
    const rows = await tx
      .selectFrom('market_facts')
      .select(['symbol', 'content_hash', 'fields', 'as_of'])
      .where('symbol', 'in', symbols)
      .execute();
    for (const row of rows) held.set(row.symbol, row);
  }
  const writes = once.flatMap(({ index, record, meta }) => {
    const existing = held.get(record.symbol);
    const row = factsRow(existing, record, meta);
    outcomes[index] = row === null ? 'unchanged' : existing ? 'revised' : 'inserted';
    return row ?? [];
  });
  for (const rows of chunks(writes, FACT_ROWS))
    await tx
      .insertInto('market_facts')
      .values(rows)
      .onConflict((oc) =>
        oc.column('symbol').doUpdateSet((eb) => ({
          fields: eb.ref('excluded.fields'),
          as_of: eb.ref('excluded.as_of'),
          content_hash: eb.ref('excluded.content_hash'),
          source: eb.ref('excluded.source'),
          loaded_at: eb.ref('excluded.loaded_at'),
        })),
      )
      .execute();
  for (const { index, record, meta } of again) outcomes[index] = await writeFacts(tx, record, meta);
}

/** The facts row a record makes, merged into those held; null when it changes nothing. */
function factsRow(
  existing: { content_hash: string; fields: string; as_of: string } | undefined,
  record: FactsRecord,
  meta: Meta,
) {
  const fields = merged(existing, record);
  const hash = contentHash({ ...record, fields });
  if (existing?.content_hash === hash) return null;
  return {
    symbol: record.symbol,
    fields: JSON.stringify(fields),
    as_of: existing && existing.as_of > record.asOf ? existing.as_of : record.asOf,
    content_hash: hash,
    source: meta.source,
    loaded_at: meta.loadedAt,
  };
}

async function writeFacts(
  tx: Transaction<Database>,
  record: Extract<MarketRecordValue, { type: 'facts' }>,
  meta: Meta,
): Promise<WriteOutcome> {
  const snapshot = snapshotRow(record, meta);
  if (snapshot)
    await tx
      .insertInto('market_exchange_snapshots')
      .values(snapshot)
      .onConflict((oc) => oc.columns(['symbol', 'snapshot_at']).doNothing())
      .execute();
  const existing = await tx
    .selectFrom('market_facts')
    .select(['content_hash', 'fields', 'as_of'])
    .where('symbol', '=', record.symbol)
    .executeTakeFirst();
  const row = factsRow(existing, record, meta);
  if (row === null) return 'unchanged';
  await tx
    .insertInto('market_facts')
    .values(row)
    .onConflict((oc) => oc.column('symbol').doUpdateSet(row))
    .execute();
  return existing ? 'revised' : 'inserted';
}

/** A statement value of a fiscal period, as filed. */
async function writeStatement(
  tx: Transaction<Database>,
  record: Extract<MarketRecordValue, { type: 'statement' }>,
  meta: Meta,
): Promise<WriteOutcome> {
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

/** A quote, merged into the one held; its time the newer of the two. */
async function writeQuote(
  tx: Transaction<Database>,
  record: Extract<MarketRecordValue, { type: 'quote' }>,
  meta: Meta,
): Promise<WriteOutcome> {
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
/** The exchange snapshot a listing's facts were read from (SEC's exchange file), where they name one. */
function snapshotRow(record: FactsRecord, meta: Meta) {
  const at = record.fields[EXCHANGE_SNAPSHOT_AT];
  if (typeof at !== 'string') return null;
  const { cik, exchangeCode } = record.fields;
  return {
    symbol: record.symbol,
    snapshot_at: at,
    cik: typeof cik === 'string' ? cik : null,
    exchange_code: typeof exchangeCode === 'string' ? exchangeCode : null,
    source: meta.source,
  };
}

function merged(
  existing: { fields: string; as_of: string } | undefined,
  record: { asOf: string; fields: Fields },
) {
  const before = existing ? (JSON.parse(existing.fields) as Fields) : {};
  const newer = !existing || record.asOf >= existing.as_of;
  return newer ? { ...before, ...record.fields } : { ...record.fields, ...before };
}
