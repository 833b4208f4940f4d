// Producing the files of one version of a dataset: one pass over its rows (current, or as known at an instant)
// in pages of the write order, each row written to the CSV and NDJSON files and their gzip copies as it is
// read, then Parquet from the CSV. Memory holds a page at a time, whatever the dataset's size.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { constants, createGzip, type Gzip } from 'node:zlib';
import { type Kysely, sql } from 'kysely';
import type { Deps } from '../../kernel/deps.js';
import { type BulkLayout, knownRows, type Row } from './layout.js';
import { csvHeader, csvLine, ndjsonLine, valuesOf } from './lines.js';
import { writeParquet } from './parquet.js';

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
  /** How long making them took: the pass writing the text files and their gzip copies, then Parquet. */
  seconds: { text: number; parquet: number };
}

/** Rows a page: one page is a stretch of the event loop (about 25 ms of reading and formatting here). */
const PAGE = 1000;
/** Level 1: the files are made once per load but read many times; level 1 keeps the pass fast (ADR 026). */
const GZIP_LEVEL = constants.Z_BEST_SPEED;

/** The file of `format` in a version's folder (gzip: its compressed copy). */
export const fileName = (dataset: string, format: BulkFormat, gzip = false) =>
  `${dataset}.${format}${gzip ? '.gz' : ''}`;

type Tables = Kysely<Record<string, Record<string, unknown>>>;

/** The stored rows of the layout, known at `at` (or current), page by page in write order; the next page is
 * read while the caller writes the last. */
async function* pages(deps: Deps, layout: BulkLayout, at: string | null): AsyncGenerator<Row[]> {
  const db = deps.store.db as unknown as Tables;
  const read = new Set<string>([layout.rowId, ...layout.columns.flatMap((c) => c.reads)]);
  const page = (after: number) =>
    db
      .selectFrom(layout.table)
      .select([...read].map((name) => sql.ref(name).as(name)))
      .where(sql.ref(layout.rowId), '>', after)
      .where(knownRows(layout, at))
      .orderBy(layout.rowId)
      .limit(PAGE)
      .execute();
  let next = page(0);
  for (;;) {
    const rows = await next;
    const last = rows.at(-1);
    if (!last) return;
    next = page(Number(last[layout.rowId]));
    yield rows;
  }
}

/** A file written as it is given text, with an optional gzip copy beside it. */
class Output {
  private readonly plain: WriteStream;
  private readonly gzip: Gzip | null;
  private readonly gzipFile: WriteStream | null;

  constructor(file: string, gzipped: boolean) {
    this.plain = createWriteStream(file);
    this.gzip = gzipped ? createGzip({ level: GZIP_LEVEL }) : null;
    this.gzipFile = gzipped ? createWriteStream(`${file}.gz`) : null;
    if (this.gzip && this.gzipFile) this.gzip.pipe(this.gzipFile);
  }

  /** Writes the text once encoded, to the file and its gzip copy alike. */
  async write(text: string): Promise<void> {
    const bytes = Buffer.from(text);
    const waits: Promise<unknown>[] = [];
    if (!this.plain.write(bytes)) waits.push(once(this.plain, 'drain'));
    if (this.gzip && !this.gzip.write(bytes)) waits.push(once(this.gzip, 'drain'));
    await Promise.all(waits);
  }

  async close(): Promise<void> {
    const closed = [once(this.plain, 'close')];
    this.plain.end();
    if (this.gzip && this.gzipFile) {
      closed.push(once(this.gzipFile, 'close'));
      this.gzip.end();
    }
    await Promise.all(closed);
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
  const started = performance.now();
  try {
    const csv = new Output(path.join(work, fileName(dataset, 'csv')), true);
    const ndjson = new Output(path.join(work, fileName(dataset, 'ndjson')), true);
    let rows = 0;
    try {
      await csv.write(csvHeader(layout));
      for await (const page of pages(deps, layout, asOf === null ? null : `${asOf}T23:59:59.999Z`)) {
        const csvLines = new Array<string>(page.length);
        const ndjsonLines = new Array<string>(page.length);
        for (let i = 0; i < page.length; i += 1) {
          const values = valuesOf(layout, page[i]!);
          csvLines[i] = csvLine(values);
          ndjsonLines[i] = ndjsonLine(layout, values);
        }
        rows += page.length;
        await Promise.all([csv.write(csvLines.join('')), ndjson.write(ndjsonLines.join(''))]);
      }
    } finally {
      await Promise.all([csv.close(), ndjson.close()]);
    }
    const text = (performance.now() - started) / 1000;
    const metadata = { dataset, version: String(version), asOf: asOf ?? '' };
    await writeParquet(
      layout,
      path.join(work, fileName(dataset, 'csv')),
      path.join(work, fileName(dataset, 'parquet')),
      metadata,
    );
    const parquet = (performance.now() - started) / 1000 - text;
    const size = async (format: BulkFormat, gzip = false) =>
      (await stat(path.join(work, fileName(dataset, format, gzip)))).size;
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
      seconds: { text, parquet },
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
