// quarry import DATASET FILE: newline-delimited JSON in the interchange format of docs/interchange.md.
// One transaction per file: a bad line stops the import with its line number and nothing is committed.
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { TSchema } from 'typebox';
import type { Deps } from '../kernel/deps.js';
import { compileStrict, describeError } from '../kernel/validation.js';
import { refreshPlannerStatistics, sqliteHandle } from '../store/engine.js';
import {
  bumpVersion,
  contentHash,
  type KnownFrom,
  RevisionBatch,
  type RevisionMeta,
  type RevisionWrite,
  type WriteOutcome,
} from '../store/revisions.js';
import type { Database } from '../store/schema.js';
import { forget } from './read-cache.js';
import { fileSize, SourceError } from './source.js';

/** What every written record carries: its content hash, the file it came from and when it was loaded. */
export type WriteMeta = RevisionMeta;

interface ImporterBase<R> {
  dataset: string;
  /** The schema of one line. */
  record: TSchema;
  /** The date a record is about, for the date range recorded per source file (none for a record of no date). */
  dateOf?(record: R): string | undefined;
  /**
   * When the record's figures were first published (its period's release on the agency's calendar, a
   * filing's acceptance): the time a record not held before became known. A revision of a held record is
   * known from its load, or from --published.
   */
  publishedAt?(record: R): string | undefined;
  /** Where publishedAt's times come from: the agency's calendar, an EDGAR filing, a date the record states. */
  publishedFrom?: Exclude<KnownFrom, 'published' | 'load'>;
  /** Checks across fields a schema cannot express; a message when the record is refused. */
  check?(record: R): string | null;
}

/**
 * An importer either writes each record itself (records that touch several tables), or describes each as
 * one revisioned row, which the import writes in batches.
 */
export type Importer<R = Record<string, unknown>> = ImporterBase<R> &
  (
    | {
        write(tx: Transaction<Database>, record: R, meta: WriteMeta): Promise<WriteOutcome>;
        revision?: never;
        writeBatch?: never;
      }
    | { revision(record: R): RevisionWrite; write?: never; writeBatch?: never }
    | {
        /**
         * Writes records a batch at a time, with the outcomes of writing them one by one in order (a record
         * twice in a batch gives two revisions).
         */
        writeBatch(
          tx: Transaction<Database>,
          entries: BatchEntry<R>[],
          root: Kysely<Database>,
        ): Promise<WriteOutcome[]>;
        /**
         * For records that each stand on their own (a listing's prices): the records a transaction holds at
         * most, each slice committed as it is written, so a file of millions keeps the store's other writers
         * (a serving process's credits) waiting a slice at most, never the whole file (docs/adr/035).
         */
        commitEvery?: number;
        write?: never;
        revision?: never;
      }
  );

/** A record for a batch writer, which hashes what it needs itself (awards: without the time observed). */
export interface BatchEntry<R> {
  record: R;
  meta: Omit<WriteMeta, 'hash'>;
}

/** The records a failed sliced load had committed before its failure, by its error. */
const keptOf = new WeakMap<Error, number>();

/** How many records of a failed load were committed and stay: 0 for every load but a sliced one. */
export function keptBefore(error: unknown): number {
  return error instanceof Error ? (keptOf.get(error) ?? 0) : 0;
}

/** Rows written by one load past which the planners' statistics are refreshed. */
const STATISTICS_AFTER = 50_000;

/** Records per batch of revisioned writes. */
const BATCH = 2000;

export class ImportError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    reason: string,
  ) {
    super(`${file}:${line}: ${reason}`);
    this.name = 'ImportError';
  }
}

export interface ImportReport {
  dataset: string;
  file: string;
  lines: number;
  inserted: number;
  revised: number;
  unchanged: number;
  /** The range of dates the records are about, where the dataset has one. */
  firstDate: string | null;
  lastDate: string | null;
}

export interface LoadReport extends ImportReport {
  /** What the reader left out and why. */
  notes: string[];
  checksum: string;
  bytes: number;
  loadedAt: string;
  /**
   * When the revisions written became known, and from where: the publication time given (--published); else,
   * where the source has a calendar or filing times, each new record from its first publication and each
   * change from the load ('first publication'); else the load. knownAt is the given time or the load's.
   */
  knownAt: string;
  knownFrom: 'published' | 'first publication' | 'load';
  seconds: number;
  /** What loaders that read the same file beside this one wrote (EDGAR's submissions: the proxies' times). */
  also?: { dataset: string; inserted: number; revised: number; unchanged: number }[];
}

/** A file being read, recorded with its checksum, row count and date range once loaded. */
export interface ReadFile {
  name: string;
  size: number;
  checksum(): string;
}

/** A record of a file as given to importRecords: its line, and the record as read. */
type GivenRecord = { line: number; value: unknown };

/** Imports records given as objects (the loaders of agency files write through here too). */
export async function importRecords<R>(
  db: Kysely<Database>,
  importer: Importer<R>,
  /** The records, one at a time or a batch at a time. */
  records: AsyncIterable<GivenRecord | readonly GivenRecord[]>,
  source: string,
  now: Date,
  file?: ReadFile,
  /** When what the records say was published (ISO instant); the load time when not known. */
  publishedAt?: string,
  /**
   * Whether a file of no records is refused: yes by default; a loader reading a file beside another's may find
   * none in it, and a reader that said why it left every record out (its notes) loaded what the file holds.
   */
  { refuseEmpty = () => true }: { refuseEmpty?: () => boolean } = {},
): Promise<ImportReport> {
  const load = new RecordsLoad(db, importer, source, now, publishedAt);
  const { report } = load;
  if (load.slice) {
    try {
      await load.readAndWrite(records, null);
    } catch (error) {
      // The slices written before the failure stay: each was committed (new, revised or found unchanged).
      const kept = report.inserted + report.revised + report.unchanged;
      if (kept > 0 && error instanceof Error) {
        error.message += ` (${kept} records before it were committed and stay: loading the mended file again reads them unchanged)`;
        keptOf.set(error, kept);
      }
      throw error;
    }
    await db.transaction().execute((tx) => load.recordFile(tx, file, refuseEmpty));
  } else
    await db.transaction().execute(async (tx) => {
      await holdWriteLock(db, tx, importer.dataset);
      await load.readAndWrite(records, tx);
      if (report.inserted + report.revised > 0) await bumpVersion(tx, importer.dataset, load.loadedAt);
      await load.recordFile(tx, file, refuseEmpty);
    });
  forget(db, importer.dataset);
  if (report.inserted + report.revised >= STATISTICS_AFTER) await refreshPlannerStatistics(db);
  return report;
}

/** One file's records being written: what it counts, and how each record is written. */
class RecordsLoad<R> {
  readonly report: ImportReport;
  readonly loadedAt: string;
  /** Records a committed slice holds, for a batch writer that commits as it goes. */
  readonly slice: number | undefined;
  private readonly problemOf: ReturnType<typeof recordJudge>;
  /** The same for every record a batch writer is given: made once. */
  private readonly batchMeta: BatchEntry<R>['meta'];

  constructor(
    private readonly db: Kysely<Database>,
    private readonly importer: Importer<R>,
    private readonly source: string,
    now: Date,
    private readonly publishedAt: string | undefined,
  ) {
    this.report = {
      dataset: importer.dataset,
      file: source,
      lines: 0,
      inserted: 0,
      revised: 0,
      unchanged: 0,
      firstDate: null,
      lastDate: null,
    };
    this.loadedAt = now.toISOString();
    this.slice = importer.writeBatch ? importer.commitEvery : undefined;
    this.problemOf = recordJudge(importer.record);
    this.batchMeta = { source, loadedAt: this.loadedAt, ...(publishedAt ? { knownAt: publishedAt } : {}) };
  }

  private count(outcomes: WriteOutcome[]): void {
    for (const outcome of outcomes) this.report[outcome] += 1;
  }

  private dated(value: R): void {
    const date = this.importer.dateOf?.(value);
    if (date === undefined) return;
    const { report } = this;
    if (report.firstDate === null || date < report.firstDate) report.firstDate = date;
    if (report.lastDate === null || date > report.lastDate) report.lastDate = date;
  }

  /** Reads every record and writes it, in `tx` or (a sliced load) a transaction a slice. */
  async readAndWrite(
    records: AsyncIterable<GivenRecord | readonly GivenRecord[]>,
    tx: Transaction<Database> | null,
  ): Promise<void> {
    const { db, importer, loadedAt } = this;
    // Revisioned rows go in the load's transaction; a sliced load (batch writers only) never adds any.
    const batch = new RevisionBatch(tx ?? db);
    const repeated = new RecordsRead(this.source);
    let pending: BatchEntry<R>[] = [];
    const pendingMost = this.slice ?? BATCH;
    // A batch is written while the next is read: on PostgreSQL the server works as the file is parsed.
    // Batches are still written one after the other, in order.
    const inFlight: { write: Promise<void> | null } = { write: null };
    const writePending = async () => {
      if (!importer.writeBatch || pending.length === 0) return;
      const entries = pending;
      pending = [];
      if (inFlight.write) await inFlight.write;
      const write = (
        tx ? importer.writeBatch(tx, entries, db) : committedSlice(db, importer, entries, loadedAt)
      ).then((outcomes) => this.count(outcomes));
      // Awaited before the next batch and before the commit; a failure is raised there.
      write.catch(() => {});
      inFlight.write = write;
      // On SQLite a slice's statements run on this thread: it is written before more is read, so its
      // transaction holds the write lock only while it writes.
      if (!tx && sqliteHandle(db)) await write;
    };
    try {
      for await (const item of records) {
        for (const { line, value } of Array.isArray(item) ? item : [item]) {
          const record = this.checked(value, line);
          if (importer.writeBatch) {
            pending.push({ record, meta: this.batchMeta });
            if (pending.length >= pendingMost) await writePending();
          } else await this.writeOne(tx, record, value, line, batch, repeated);
          this.report.lines += 1;
          this.dated(record);
        }
      }
    } catch (error) {
      // A write still running would go on after the rollback, on a connection handed back to the pool.
      await inFlight.write?.catch(() => {});
      throw error;
    }
    this.count(await batch.flush());
    await writePending();
    await inFlight.write;
  }

  /** The record, once its schema and the importer's own check find nothing wrong with it. */
  private checked(value: unknown, line: number): R {
    const invalid = this.problemOf(value);
    if (invalid) throw new ImportError(this.source, line, invalid);
    // The importer's record schema has just validated it.
    const record = value as R;
    const problem = this.importer.check?.(record);
    if (problem) throw new ImportError(this.source, line, problem);
    return record;
  }

  /** A record of an importer that writes one at a time: as a revision (batched), or by its own write. */
  private async writeOne(
    tx: Transaction<Database> | null,
    record: R,
    value: unknown,
    line: number,
    batch: RevisionBatch,
    repeated: RecordsRead,
  ): Promise<void> {
    const { importer, publishedAt, loadedAt } = this;
    const meta = {
      hash: contentHash(value),
      source: this.source,
      loadedAt,
      ...(publishedAt ? { knownAt: publishedAt } : {}),
      ...firstPublished(importer.publishedAt?.(record), loadedAt),
      ...(importer.publishedFrom ? { publishedFrom: importer.publishedFrom } : {}),
    };
    if (importer.revision) {
      const write = importer.revision(record);
      // A record the file has given already is read once; one that says otherwise is refused.
      if (repeated.read(write, meta.hash, line)) this.count(['unchanged']);
      else batch.add(write, meta);
      if (batch.size >= BATCH) this.count(await batch.flush());
      return;
    }
    // Only batch writers commit a slice at a time (`slice`): a record-at-a-time writer always has the load's.
    if (!importer.write || !tx)
      throw new Error(`${importer.dataset}: a record writer needs the load's transaction`);
    this.count([await importer.write(tx, record, meta)]);
  }

  /** The file's record in source_files, in the load's last transaction; a file of no records refused. */
  async recordFile(tx: Transaction<Database>, file: ReadFile | undefined, refuseEmpty: () => boolean) {
    const { report } = this;
    if (report.lines === 0 && refuseEmpty())
      throw new SourceError(this.source, null, 'holds no records: an empty file, or a header and no rows');
    if (!file) return;
    await tx
      .insertInto('source_files')
      .values({
        dataset: this.importer.dataset,
        name: file.name,
        checksum: file.checksum(),
        size: file.size,
        rows: report.lines,
        first_date: report.firstDate,
        last_date: report.lastDate,
        inserted: report.inserted,
        revised: report.revised,
        unchanged: report.unchanged,
        loaded_at: this.loadedAt,
      })
      .execute();
  }
}

/**
 * The revisioned records a file has given, by table and key: the same record again is read once (a file of
 * repeated lines loads in time linear in its size); another record for the same key is refused by line, never
 * the last silently taken and the first kept as a superseded revision.
 */
class RecordsRead {
  private readonly held = new Map<string, { hash: string; line: number }>();

  constructor(private readonly file: string) {}

  /** True for a record given before; throws for a second, different record of the same key. */
  read(write: RevisionWrite, hash: string, line: number): boolean {
    const key = `${write.table}\u0000${Object.values(write.key).join('\u0000')}`;
    const held = this.held.get(key);
    if (!held) {
      this.held.set(key, { hash, line });
      return false;
    }
    if (held.hash === hash) return true;
    const named = Object.entries(write.key)
      .map(([column, value]) => `${column} ${value}`)
      .join(', ');
    throw new ImportError(
      this.file,
      line,
      `a second record for ${named} (line ${held.line} gave it otherwise): the file contradicts itself`,
    );
  }
}

/** The non-blank lines of an NDJSON file, parsed, with their line numbers; streamed. */
export async function* ndjsonLines(file: string): AsyncGenerator<{ line: number; value: unknown }> {
  const lines = createInterface({
    input: createReadStream(file, { encoding: 'utf8' }),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let line = 0;
  for await (const text of lines) {
    line += 1;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new ImportError(path.basename(file), line, `not JSON: ${(error as Error).message}`);
    }
    yield { line, value };
  }
}

export async function importFile<R>(
  deps: Pick<Deps, 'store' | 'clock'>,
  importer: Importer<R>,
  file: string,
) {
  fileSize(file);
  return importRecords(deps.store.db, importer, ndjsonLines(file), path.basename(file), deps.clock());
}

/**
 * What is wrong with a record, or null. A schema of several kinds told apart by `type` judges a record as
 * the kind it names, so a malformed date in an observation is reported as that, not as a field some other
 * kind requires.
 */
function recordJudge(schema: object): (value: unknown) => string | null {
  const judge = (validate: ReturnType<typeof compileStrict>) => (value: unknown) => {
    if (validate(value)) return null;
    const first = validate.errors?.[0];
    return first ? describeError(first, 'field') : 'invalid record';
  };
  const branches = (schema as { anyOf?: { properties?: { type?: { const?: unknown } } }[] }).anyOf;
  const kinds = branches?.map((branch) => branch.properties?.type?.const);
  if (!branches || !kinds?.every((kind) => typeof kind === 'string')) return judge(compileStrict(schema));
  const byKind = new Map(branches.map((branch, i) => [kinds[i]!, judge(compileStrict(branch))]));
  return (value) => {
    const kind = (value as { type?: unknown } | null)?.type;
    const named = typeof kind === 'string' ? byKind.get(kind) : undefined;
    if (named) return named(value);
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      return 'a record must be a JSON object';
    return `field "type" must be one of ${[...byKind.keys()].join(', ')}`;
  };
}

/**
 * One slice of a sliced load, written and committed in its own transaction; the dataset's version moves with
 * each slice that changed something, so readers elsewhere see the listings loaded so far.
 */
async function committedSlice<R>(
  db: Kysely<Database>,
  importer: Importer<R> & { writeBatch: NonNullable<Importer<R>['writeBatch']> },
  entries: BatchEntry<R>[],
  loadedAt: string,
): Promise<WriteOutcome[]> {
  const outcomes = await db.transaction().execute(async (tx) => {
    await holdWriteLock(db, tx, importer.dataset);
    const written = await importer.writeBatch(tx, entries, db);
    if (written.some((outcome) => outcome !== 'unchanged')) await bumpVersion(tx, importer.dataset, loadedAt);
    return written;
  });
  forget(db, importer.dataset);
  return outcomes;
}

/** A record's first publication, when known and not after the load (a calendar can name a later day). */
function firstPublished(at: string | undefined, loadedAt: string): { firstPublishedAt?: string } {
  return at && at < loadedAt ? { firstPublishedAt: at } : {};
}

/**
 * The dataset's write lock, held until the load commits: loads of one dataset never overlap, so each table's
 * rows are numbered in commit order and the change feed can follow them by number (datasets/changes.ts). On
 * SQLite every write transaction already excludes the others.
 */
async function holdWriteLock(
  db: Kysely<Database>,
  tx: Transaction<Database>,
  dataset: string,
): Promise<void> {
  if (sqliteHandle(db)) return;
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`quarry-load:${dataset}`}))`.execute(tx);
}
