// Producing the files of one version of a dataset: one pass over its rows (current, or as known at an instant)
// in pages of the write order, the store making each page's CSV lines, written to the CSV file and its gzip
// copy; then DuckDB writes the Parquet and the NDJSON file from the CSV, and the NDJSON gets its gzip copy.
// Memory holds a page at a time, whatever the dataset's size.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { constants, createGzip, type Gzip } from 'node:zlib';
import { type Kysely, sql } from 'kysely';
import type { Deps } from '../../kernel/deps.js';
import { ownTurn } from '../../kernel/turns.js';
import { type Engine, openSqliteReader } from '../../store/engine.js';
import { writeFromCsv } from './duckdb.js';
import { type BulkLayout, knownRows } from './layout.js';
import { csvHeader, csvLine, joinedLines } from './lines.js';

export const FORMATS = ['csv', 'ndjson', 'parquet'] as const;
export type BulkFormat = (typeof FORMATS)[number];

/** What a version's folder holds, as its manifest.json records it. */
export interface Manifest {
  dataset: string;
  /** The dataset's version (its count of changing loads) the files were made from. */
  version: number;
  /** The day the files read the dataset as known at (end of day, UTC); null: as current. */
  asOf: string | null;
  rows: number;
  producedAt: string;
  /** Bytes of each file; gzip: of its gzip copy (CSV and NDJSON). */
  files: Record<BulkFormat, { bytes: number; gzipBytes: number | null }>;
  /** How long making each took: the CSV with its gzip copy (the pass over the store), then the Parquet and
   * then the NDJSON with its gzip copy (both from the CSV). */
  seconds: Record<BulkFormat, number>;
}

/** Rows a page: one page is a stretch of the event loop (about 6 ms of the store's work here). */
const PAGE = 1000;
/** Level 1: the files are made once per load but read many times; level 1 keeps the pass fast (ADR 026).
 * Buffers of a megabyte or more: with Node's 16 KB, the gzip copy ran at half the speed zlib has here. */
const GZIP = { level: constants.Z_BEST_SPEED, chunkSize: 1 << 20, highWaterMark: 4 << 20 };
const BUFFERED = { highWaterMark: 4 << 20 };

/** The file of `format` in a version's folder (gzip: its compressed copy). */
export const fileName = (dataset: string, format: BulkFormat, gzip = false) =>
  `${dataset}.${format}${gzip ? '.gz' : ''}`;

type Tables = Kysely<Record<string, Record<string, unknown>>>;

/** The store as a bulk pass reads it: on SQLite a connection of its own with a small page cache, so a full
 * read neither evicts the pages the serving connection keeps nor holds its memory after. */
function reader(deps: Deps): { db: Tables; engine: Engine; close: () => Promise<void> } {
  const store = deps.store;
  if (store.engine === 'postgres' || store.sqlite.memory)
    return { db: store.db as unknown as Tables, engine: store.engine, close: async () => {} };
  const own = openSqliteReader(store.sqlite.name, 8);
  return { db: own.db as unknown as Tables, engine: 'sqlite', close: own.close };
}

/** The layout's CSV lines of the rows known at `at` (or current), a page's text at a time in write order; the
 * next page is read while the caller writes the last. */
async function* pages(
  db: Tables,
  engine: Engine,
  layout: BulkLayout,
  at: string | null,
): AsyncGenerator<{ rows: number; text: string }> {
  const line = sql.raw(csvLine(layout, engine));
  const page = (after: number) =>
    db
      .selectFrom(
        db
          .selectFrom(layout.table)
          .select([sql.ref(layout.rowId).as('n'), line.as('line')])
          .where(sql.ref(layout.rowId), '>', after)
          .where(knownRows(layout, at))
          .orderBy(layout.rowId)
          .limit(PAGE)
          .as('page'),
      )
      .select([
        sql<number | string | null>`max(n)`.as('last'),
        sql<number | string>`count(*)`.as('rows'),
        sql<string | null>`${sql.raw(joinedLines(engine))}`.as('text'),
      ])
      .executeTakeFirstOrThrow();
  let next = page(0);
  for (;;) {
    const { last, rows, text } = await next;
    if (last === null || text === null) return;
    next = page(Number(last));
    yield { rows: Number(rows), text };
  }
}

/** A file written as it is given text, with its gzip copy beside it (compressed on libuv's threads). */
class Output {
  private readonly plain: WriteStream;
  private readonly gzip: Gzip;
  private readonly gzipFile: WriteStream;

  constructor(file: string) {
    this.plain = createWriteStream(file, BUFFERED);
    this.gzip = createGzip(GZIP);
    this.gzipFile = createWriteStream(`${file}.gz`, BUFFERED);
    this.gzip.pipe(this.gzipFile);
  }

  /** Writes the text once encoded, to the file and its gzip copy alike. */
  async write(text: string): Promise<void> {
    const bytes = Buffer.from(text);
    const waits: Promise<unknown>[] = [];
    if (!this.plain.write(bytes)) waits.push(once(this.plain, 'drain'));
    if (!this.gzip.write(bytes)) waits.push(once(this.gzip, 'drain'));
    await Promise.all(waits);
  }

  async close(): Promise<void> {
    const closed = Promise.all([once(this.plain, 'close'), once(this.gzipFile, 'close')]);
    this.plain.end();
    this.gzip.end();
    await closed;
  }
}

/**
 * Writes the files of `dataset` at `version` into `folder` (made beside it and renamed into place, so a reader
 * sees a whole version or none); the manifest, or null when a load changed the dataset meanwhile. Where another
 * process made the same folder first, its files stand.
 */
export async function produce(
  deps: Deps,
  dataset: string,
  layout: BulkLayout,
  version: number,
  asOf: string | null,
  folder: string,
  /** The dataset's version now: files a load overtook while they were written are not kept. */
  versionNow: () => Promise<number>,
): Promise<Manifest | null> {
  const work = `${folder}.${randomUUID()}.partial`;
  await mkdir(work, { recursive: true });
  const file = (format: BulkFormat, gzip = false) => path.join(work, fileName(dataset, format, gzip));
  try {
    const started = performance.now();
    const csv = new Output(file('csv'));
    const store = reader(deps);
    let rows = 0;
    try {
      await csv.write(csvHeader(layout));
      const at = asOf === null ? null : `${asOf}T23:59:59.999Z`;
      for await (const page of pages(store.db, store.engine, layout, at)) {
        rows += page.rows;
        await csv.write(page.text);
        // A turn of the event loop a page: SQLite's reads resolve without one, and the writes' completions
        // (and every request waiting) need it.
        await ownTurn();
      }
    } finally {
      await Promise.all([csv.close(), store.close()]);
    }
    const csvSeconds = (performance.now() - started) / 1000;
    const seconds = await writeFromCsv(
      layout,
      file('csv'),
      { ndjson: file('ndjson'), parquet: file('parquet') },
      { dataset, version: String(version), asOf: asOf ?? '' },
    );
    const gzipStarted = performance.now();
    await pipeline(
      createReadStream(file('ndjson'), { highWaterMark: 1 << 20 }),
      createGzip(GZIP),
      createWriteStream(file('ndjson', true), BUFFERED),
    );
    const ndjsonGzip = (performance.now() - gzipStarted) / 1000;
    const size = async (format: BulkFormat, gzip = false) => (await stat(file(format, gzip))).size;
    const manifest: Manifest = {
      dataset,
      version,
      asOf,
      rows,
      producedAt: deps.clock().toISOString(),
      files: {
        csv: { bytes: await size('csv'), gzipBytes: await size('csv', true) },
        ndjson: { bytes: await size('ndjson'), gzipBytes: await size('ndjson', true) },
        parquet: { bytes: await size('parquet'), gzipBytes: null },
      },
      seconds: { csv: csvSeconds, ndjson: seconds.ndjson + ndjsonGzip, parquet: seconds.parquet },
    };
    await writeFile(path.join(work, 'manifest.json'), JSON.stringify(manifest));
    if ((await versionNow()) !== version) return null;
    try {
      await rename(work, folder);
    } catch (error) {
      // Made meanwhile by another process: the same version's files, so theirs serve.
      if (
        (error as NodeJS.ErrnoException).code !== 'ENOTEMPTY' &&
        (error as NodeJS.ErrnoException).code !== 'EEXIST'
      )
        throw error;
    }
    return manifest;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
