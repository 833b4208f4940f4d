// Revisioned writes: a record is identified by its key columns; loading it again with the same content
// changes nothing, with other content it becomes a new revision and the old one stops being current. Each
// revision says when it became known (its publication time) and when a later one superseded it, so a record
// can be read as known at any instant; a revision published before the current one (a backfill of an older
// vintage) takes its place in that history and does not become current.

import { hash } from 'node:crypto';
import { type Kysely, sql, type Transaction } from 'kysely';
import { canonicalJson } from '../kernel/canonical-json.js';
import { chunks } from '../kernel/lists.js';
import type { Database } from './schema.js';

export type WriteOutcome = 'inserted' | 'revised' | 'unchanged';

/** SHA-256 of a value's canonical JSON (object keys sorted), so equal content hashes equally. */
export function contentHash(value: unknown): string {
  return hash('sha256', canonicalJson(value), 'hex');
}

/** Writes one record as a revision, at once: a batch of one. */
export async function writeRevision(
  db: Kysely<Database> | Transaction<Database>,
  write: RevisionWrite,
  meta: RevisionMeta,
): Promise<WriteOutcome> {
  const batch = new RevisionBatch(db);
  batch.add(write, meta);
  const [outcome] = await batch.flush();
  return outcome as WriteOutcome;
}

/**
 * One record written as a revision: its table (a dataset's revisioned table, with the revision columns), its
 * key columns and the row (key columns included, revision columns not).
 */
export interface RevisionWrite {
  table: string;
  key: Record<string, string>;
  row: Record<string, unknown>;
  /** The column naming each stored row: `id`, or `row_id` where `id` is the record's own key (an accession). */
  rowId?: 'id' | 'row_id';
}

/**
 * Where a revision's known time came from: a publication time given with its file (`published`), the
 * agency's release calendar (`calendar`), an EDGAR acceptance (`filing`), a date the record itself states
 * (`record`), or the load, when nothing better is known (`load`).
 */
export type KnownFrom = 'published' | 'calendar' | 'filing' | 'record' | 'load';

export interface RevisionMeta {
  hash: string;
  source: string;
  loadedAt: string;
  /** When the content was published (ISO instant, given for the whole file); the load time when not given. */
  knownAt?: string;
  /** When the record's figures were first published: the known time of a record not held before. */
  firstPublishedAt?: string;
  /** Where firstPublishedAt came from. */
  publishedFrom?: KnownFrom;
}

/** When a revision became known, and from where: given, first published (a new record), else its load. */
export function knownOf(meta: RevisionMeta, held: boolean): { knownAt: string; knownFrom: KnownFrom } {
  if (meta.knownAt) return { knownAt: meta.knownAt, knownFrom: 'published' };
  if (!held && meta.firstPublishedAt)
    return { knownAt: meta.firstPublishedAt, knownFrom: meta.publishedFrom ?? 'record' };
  return { knownAt: meta.loadedAt, knownFrom: 'load' };
}

/** Keys per read of current rows, and bound values per INSERT: well inside both engines' limits. */
const CHUNK = 500;
const VALUES_PER_INSERT = 5000;

type Dynamic = Kysely<Record<string, Record<string, unknown>>>;

interface KeyState {
  hash: string;
  revision: number;
  knownAt: string;
  /** The stored current row, or the row of this batch that is current so far. */
  id: number | null;
  pending: Record<string, unknown> | null;
}

/**
 * Revisioned writes of one transaction, written a batch at a time: per table one read of the current rows
 * of the batch's keys, one update of the rows replaced and inserts of many rows per statement. Outcomes are
 * those of writing the records one by one in order: a key twice in a batch gives two revisions.
 */
export class RevisionBatch {
  private queue: { write: RevisionWrite; meta: RevisionMeta }[] = [];

  constructor(private readonly db: Kysely<Database> | Transaction<Database>) {}

  get size(): number {
    return this.queue.length;
  }

  add(write: RevisionWrite, meta: RevisionMeta): void {
    this.queue.push({ write, meta });
  }

  /** Writes what was added since the last flush; the outcomes in the order added. */
  async flush(): Promise<WriteOutcome[]> {
    const queue = this.queue;
    this.queue = [];
    const outcomes = new Array<WriteOutcome>(queue.length);
    const byTable = new Map<string, number[]>();
    queue.forEach(({ write }, i) => {
      const indices = byTable.get(write.table) ?? [];
      indices.push(i);
      byTable.set(write.table, indices);
    });
    for (const [table, indices] of byTable) {
      const written = await this.writeTable(
        table,
        indices.map((i) => queue[i]!),
      );
      indices.forEach((queueIndex, i) => {
        outcomes[queueIndex] = written[i]!;
      });
    }
    return outcomes;
  }

  /** The current revision of each record's key held in `table`, by the key's text. */
  private async currentStates(
    table: string,
    entries: { write: RevisionWrite }[],
    columns: string[],
    rowIdColumn: string,
    keyText: (key: Record<string, unknown>) => string,
  ): Promise<Map<string, KeyState>> {
    const keys = new Map(entries.map(({ write }) => [keyText(write.key), write.key]));
    const states = new Map<string, KeyState>();
    const rowId = sql.ref(rowIdColumn);
    for (const chunk of chunks([...keys.values()], CHUNK)) {
      const refs = sql.join(columns.map((c) => sql.ref(c)));
      const tuples = sql.join(chunk.map((key) => sql`(${sql.join(columns.map((c) => key[c]))})`));
      const { rows } = await sql<
        Record<string, unknown> & {
          stored_row: number;
          content_hash: string;
          revision: number;
          known_at: string;
        }
      >`
        SELECT ${rowId} AS stored_row, content_hash, revision, known_at, ${refs} FROM ${sql.table(table)}
        WHERE is_current = 1 AND (${refs}) IN (VALUES ${tuples})`.execute(this.db);
      for (const row of rows) {
        states.set(keyText(row), {
          hash: row.content_hash,
          revision: Number(row.revision),
          knownAt: row.known_at,
          id: Number(row.stored_row),
          pending: null,
        });
      }
    }
    return states;
  }

  private async writeTable(
    table: string,
    entries: { write: RevisionWrite; meta: RevisionMeta }[],
  ): Promise<WriteOutcome[]> {
    const first = entries[0]!.write;
    const columns = Object.keys(first.key);
    const rowIdColumn = first.rowId ?? 'id';
    const keyText = (key: Record<string, unknown>) => JSON.stringify(columns.map((c) => key[c]));
    const states = await this.currentStates(table, entries, columns, rowIdColumn, keyText);
    /** Rows that stop being current, by the time the revision replacing them became known. */
    const retired = new Map<string, number[]>();
    const inserts: Record<string, unknown>[] = [];
    const backfills: { index: number; write: RevisionWrite; meta: RevisionMeta }[] = [];
    const outcomes = entries.map(({ write, meta }, index): WriteOutcome => {
      const text = keyText(write.key);
      const state = states.get(text);
      const { knownAt, knownFrom } = knownOf(meta, state !== undefined);
      if (state && knownAt < state.knownAt) {
        backfills.push({ index, write, meta });
        return 'unchanged';
      }
      if (state && state.hash === meta.hash) return 'unchanged';
      if (state?.id != null) retire(retired, knownAt, state.id);
      if (state?.pending) {
        state.pending.is_current = 0;
        state.pending.superseded_at = knownAt;
      }
      const row = {
        ...write.row,
        content_hash: meta.hash,
        revision: (state?.revision ?? 0) + 1,
        is_current: 1,
        source: meta.source,
        loaded_at: meta.loadedAt,
        known_at: knownAt,
        known_from: knownFrom,
        superseded_at: null,
      };
      inserts.push(row);
      states.set(text, { hash: meta.hash, revision: row.revision, knownAt, id: null, pending: row });
      return state ? 'revised' : 'inserted';
    });
    const dyn = this.db as unknown as Dynamic;
    for (const [knownAt, ids] of retired) {
      for (const chunk of chunks(ids, CHUNK)) {
        await dyn
          .updateTable(table)
          .set({ is_current: 0, superseded_at: knownAt })
          .where(rowIdColumn, 'in', chunk)
          .execute();
      }
    }
    const perInsert = Math.floor(VALUES_PER_INSERT / Object.keys(inserts[0] ?? { one: 1 }).length);
    for (const rows of chunks(inserts, perInsert)) await dyn.insertInto(table).values(rows).execute();
    for (const { index, write, meta } of backfills) outcomes[index] = await this.backfill(write, meta);
    return outcomes;
  }

  /** A revision published before its record's current one, placed in the record's history. */
  private backfill(write: RevisionWrite, meta: RevisionMeta): Promise<WriteOutcome> {
    const { knownAt, knownFrom } = knownOf(meta, true);
    return placeInHistory(this.db, {
      table: write.table,
      rowId: write.rowId ?? 'id',
      hashColumn: 'content_hash',
      key: write.key,
      hash: meta.hash,
      knownAt,
      knownFrom,
      row: (revision, supersededAt) => ({
        ...write.row,
        content_hash: meta.hash,
        revision,
        is_current: 0,
        source: meta.source,
        loaded_at: meta.loadedAt,
        known_at: knownAt,
        known_from: knownFrom,
        superseded_at: supersededAt,
      }),
    });
  }
}

/** A revision known before its record's current one, as `placeInHistory` takes it. */
export interface EarlierRevision {
  table: string;
  /** The column naming each stored row. */
  rowId: string;
  /** The column holding each revision's content hash. */
  hashColumn: string;
  key: Record<string, unknown>;
  hash: string;
  knownAt: string;
  knownFrom: KnownFrom;
  /** The row to insert, given its revision number and when the next revision known superseded it. */
  row(revision: number, supersededAt: string | null): Record<string, unknown>;
}

/**
 * Places a revision published before its record's current one (a backfill of an older vintage) in the
 * record's history: it supersedes, from its publication, the revision known before it, and is superseded by
 * the one known after it. When that later revision says the same, it was known from this earlier publication.
 */
export async function placeInHistory(
  db: Kysely<Database> | Transaction<Database>,
  earlier: EarlierRevision,
): Promise<WriteOutcome> {
  const { table, rowId, hashColumn, knownAt } = earlier;
  const dyn = db as unknown as Dynamic;
  let query = dyn
    .selectFrom(table)
    .select([`${rowId} as stored_row`, `${hashColumn} as hash`, 'revision', 'known_at'])
    .orderBy('known_at');
  for (const [column, value] of Object.entries(earlier.key)) query = query.where(column, '=', value);
  const history = (await query.execute()).map((r) => ({
    id: Number(r.stored_row),
    hash: String(r.hash),
    revision: Number(r.revision),
    knownAt: String(r.known_at),
  }));
  const before = history.filter((r) => r.knownAt <= knownAt).at(-1);
  const after = history.find((r) => r.knownAt > knownAt);
  if (before?.hash === earlier.hash) return 'unchanged';
  const set = async (id: number, values: Record<string, unknown>) => {
    await dyn.updateTable(table).set(values).where(rowId, '=', id).execute();
  };
  if (before) await set(before.id, { superseded_at: knownAt });
  if (after?.hash === earlier.hash) {
    await set(after.id, { known_at: knownAt, known_from: earlier.knownFrom });
    return 'revised';
  }
  const revision = Math.max(0, ...history.map((r) => r.revision)) + 1;
  await dyn
    .insertInto(table)
    .values(earlier.row(revision, after?.knownAt ?? null))
    .execute();
  return before ? 'revised' : 'inserted';
}

/** Notes a row that stops being current, under the time the revision replacing it became known. */
export function retire(retired: Map<string, number[]>, knownAt: string, rowId: number): void {
  const rows = retired.get(knownAt);
  if (rows) rows.push(rowId);
  else retired.set(knownAt, [rowId]);
}

/** Marks a dataset changed, inside the load's transaction, so that read caches drop what they hold. */
export async function bumpVersion(db: Kysely<Database> | Transaction<Database>, dataset: string, at: string) {
  await db
    .insertInto('dataset_versions')
    .values({ dataset, version: 1, updated_at: at })
    .onConflict((oc) =>
      oc.column('dataset').doUpdateSet((eb) => ({
        version: eb('dataset_versions.version', '+', 1),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
}
