// Loading one agency file: its records through the importer in one transaction, recorded in source_files.
import type { Kysely } from 'kysely';
import type { Deps } from '../kernel/deps.js';
import { ownTurn } from '../kernel/turns.js';
import type { Database } from '../store/schema.js';
import { type Importer, importRecords, type LoadReport } from './import.js';
import { showProgress } from './progress.js';
import { openSource, SourceError, type SourceFile } from './source.js';

/** A bundled file: the source whose loader reads it, its path under assets/, and the loader's options. */
export type DemoFile = readonly [source: string, file: string, options?: Readonly<Record<string, string>>];

/** What a reader may need besides its file: the store (to match names to codes) and notes for the report. */
export interface LoadContext<P = unknown> {
  /** What the loader's prepare step read from the store before the load's transaction began. */
  prepared: P;
  notes: string[];
  /** Options given on the command line (e.g. --ticker). */
  options: Record<string, string>;
  /** The other files given in the same command (an 8-K's exhibits beside its primary document). */
  companions: readonly string[];
  /** When the load happens, from the caller's clock: when Quarry observed what it reads. */
  now: Date;
}

/** What a load runs on: the store it writes, and the clock that stamps it. */
export type LoadDeps = Pick<Deps, 'store' | 'clock'>;

/** A record read, with its line; a reader of many rows may give them a batch at a time. */
export type ReadRecord<R> = { line: number; value: R };

export type RecordReader<R, P = unknown> = (
  source: SourceFile,
  context: LoadContext<P>,
) => AsyncIterable<ReadRecord<R> | readonly ReadRecord<R>[]>;

export interface Loader<R> {
  importer: Importer<R>;
  read: RecordReader<R>;
  /**
   * Reads what the reader needs from the store (given the command's options). It runs before the transaction:
   * on SQLite the transaction holds the one connection, so a reader must not query the store itself.
   */
  prepare?(db: Kysely<Database>, options: Readonly<Record<string, string>>): Promise<unknown>;
  /**
   * For a source whose files hold different things (EDGAR's): what this loader reads, and whether a file is
   * one, judged from its first bytes.
   */
  kind?: FileKind;
  /**
   * The options `quarry ingest` takes for this loader's files, besides `published`, which every source takes:
   * the option's name → what it sets, as the command's help says it.
   */
  options?: Readonly<Record<string, string>>;
  /**
   * A loader that reads, into its own table, files another loader of its source is chosen for: it runs beside
   * that one in the same load (EDGAR's submissions: 8-K events, and the proxies' acceptance times).
   */
  alongside?: boolean;
}

/** The option every source takes: when the file's facts became known, where the file does not say. */
export const PUBLISHED_OPTION = {
  published: 'TIME: when the facts became known (default: from the file or the calendar, else the load time)',
} as const;

/** Every option a source's loaders take, `published` first. */
export function sourceOptions(loaders: SourceLoaders): Record<string, string> {
  return Object.assign({ ...PUBLISHED_OPTION }, ...loaderList(loaders).map((l) => l.options ?? {}));
}

export interface FileKind {
  /** What the file is, as an error listing what a source reads names it. */
  name: string;
  recognises(head: string): boolean;
}

/** The loaders of one source: one, or several that tell their files apart by content. */
export type SourceLoaders = Loader<never> | readonly Loader<never>[];

/** The loaders of a source as a list. */
export function loaderList(loaders: SourceLoaders): readonly Loader<never>[] {
  return Array.isArray(loaders) ? loaders : [loaders as Loader<never>];
}

/** The loader that reads this file: the only one, or the one whose kind recognises the file's first bytes. */
export function chooseLoader(loaders: SourceLoaders, source: SourceFile): Loader<never> {
  const list = loaderList(loaders).filter((l) => !l.alongside);
  if (list.length === 1) return list[0]!;
  const head = source.head.toString('utf8');
  const chosen = list.find((l) => l.kind?.recognises(head));
  if (chosen) return chosen;
  const kinds = list.map((l) => l.kind?.name ?? l.importer.dataset).join('; ');
  throw new SourceError(source.name, null, `not a file this source reads (it reads: ${kinds})`);
}

/** The loaders that read this file beside the one chosen for it (`alongside`). */
function alongsideLoaders(loaders: SourceLoaders, source: SourceFile): Loader<never>[] {
  const head = source.head.toString('utf8');
  return loaderList(loaders).filter((l) => l.alongside && l.kind?.recognises(head));
}

/**
 * A loader of one source's files into a dataset, its reader checked against the importer's record type and
 * given what its prepare step reads (nothing without one).
 */
export function loader<R>(
  importer: Importer<R>,
  read: RecordReader<R, undefined>,
  options?: { kind?: FileKind; options?: Readonly<Record<string, string>>; alongside?: boolean },
): Loader<never>;
export function loader<R, P>(
  importer: Importer<R>,
  read: RecordReader<R, P>,
  options: {
    prepare: (db: Kysely<Database>, options: Readonly<Record<string, string>>) => Promise<P>;
    kind?: FileKind;
    options?: Readonly<Record<string, string>>;
    alongside?: boolean;
  },
): Loader<never>;
export function loader<R, P>(
  importer: Importer<R>,
  read: RecordReader<R, P>,
  options: {
    prepare?: (db: Kysely<Database>, options: Readonly<Record<string, string>>) => Promise<P>;
    kind?: FileKind;
    options?: Readonly<Record<string, string>>;
    alongside?: boolean;
  } = {},
): Loader<never> {
  // Kept among the loaders of every record type: loadFile hands each reader its own importer and prepare's result.
  return { importer, read, ...options } as unknown as Loader<never>;
}

export async function loadFile(
  deps: LoadDeps,
  loaders: SourceLoaders,
  file: string,
  options: Record<string, string> = {},
  companions: readonly string[] = [],
): Promise<LoadReport> {
  const db = deps.store.db;
  const now = deps.clock();
  const started = performance.now();
  const source = await openSource(file);
  const loader = chooseLoader(loaders, source);
  let count = 0;
  const stop = showProgress(source, loader.importer.dataset, () => count);
  const context: LoadContext = {
    prepared: await loader.prepare?.(db, options),
    notes: [],
    options,
    companions,
    now,
  };
  try {
    const records = counted(loader.read(source, context), (size) => {
      count += size;
    });
    const published = publishedOption(options.published, now);
    const report = await importRecords(db, loader.importer, records, source.name, now, source, published, {
      refuseEmpty: () => context.notes.length === 0,
    });
    const also = [];
    for (const beside of alongsideLoaders(loaders, source)) {
      // Read again from the start: each load of a file reads it whole.
      const again = await openSource(file);
      const read = beside.read(again, { ...context, prepared: await beside.prepare?.(db, options) });
      const { dataset, inserted, revised, unchanged } = await importRecords(
        db,
        beside.importer,
        read,
        again.name,
        now,
        again,
        published,
        { refuseEmpty: () => false },
      );
      also.push({ dataset, inserted, revised, unchanged });
    }
    return {
      ...report,
      ...(also.length ? { also } : {}),
      // When the revisions written became known, and from where: the publication time given, or the load.
      knownAt: published ?? now.toISOString(),
      knownFrom: published ? 'published' : loader.importer.publishedAt ? 'first publication' : 'load',
      notes: context.notes,
      checksum: source.checksum(),
      bytes: source.size,
      loadedAt: now.toISOString(),
      seconds: Math.round((performance.now() - started) / 100) / 10,
    };
  } finally {
    stop();
  }
}

/** How long a load goes on before it gives the event loop a turn. */
const PAUSE_EVERY_MS = 20;

/**
 * The records, counted. A reader over a file already in memory (a workbook) and a synchronous store never
 * wait on anything, so every 20 ms the load gives the event loop a turn: timers run (the progress line among
 * them), and a server loading in-process (serve --collect) answers its requests meanwhile.
 */
async function* counted<T extends object>(
  records: AsyncIterable<T | readonly T[]>,
  tick: (count: number) => void,
): AsyncGenerator<T | readonly T[]> {
  let n = 0;
  let paused = performance.now();
  for await (const item of records) {
    const size = Array.isArray(item) ? item.length : 1;
    tick(size);
    yield item;
    const before = n;
    n += size;
    if (Math.floor(n / 128) !== Math.floor(before / 128) && performance.now() - paused > PAUSE_EVERY_MS) {
      await ownTurn();
      paused = performance.now();
    }
  }
}

/** --published: an ISO 8601 instant (or a date, its start in UTC) no later than the load, as an ISO instant. */
function publishedOption(given: string | undefined, now: Date): string | undefined {
  if (given === undefined) return undefined;
  const at = new Date(/^\d{4}-\d{2}-\d{2}$/.test(given) ? `${given}T00:00:00Z` : given);
  if (!/^\d{4}-\d{2}-\d{2}/.test(given) || Number.isNaN(at.getTime()))
    throw new SourceError(given, null, '--published takes an ISO 8601 time, e.g. 2025-09-11T12:30:00Z');
  if (at > now)
    throw new SourceError(given, null, '--published is later than now: a file cannot be known yet');
  return at.toISOString();
}
