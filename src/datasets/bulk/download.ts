// The bulk call type's verbs: which stored file a download reads, what it costs the account (nothing when it
// paid for the same file within a day: a resumed download), and signed links that download a paid file
// without a key (the MCP tool datasets.bulk_link).
import { setTimeout as delay } from 'node:timers/promises';
import { sql } from 'kysely';
import { type Price, price } from '../../accounts/pricing.js';
import { decodeCursor, encodeCursor, listingOf } from '../../kernel/cursor.js';
import type { Deps } from '../../kernel/deps.js';
import { AppError } from '../../kernel/errors.js';
import { asOfInstant } from '../known.js';
import { bulkFiles, datasetVersion, versionFiles } from './files.js';
import type { BulkLayout } from './layout.js';
import { type BulkFormat, fileName, type Manifest } from './produce.js';

export interface BulkQuery {
  format: BulkFormat;
  asOf?: string;
}

/** A stored file as a download reads it. */
export interface BulkFile {
  path: string;
  bytes: number;
  /** The file's identity: its dataset, version, asOf day, format and encoding. */
  etag: string;
  contentType: string;
  gzip: boolean;
  manifest: Manifest;
  format: BulkFormat;
}

const CONTENT_TYPE: Record<BulkFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson',
  parquet: 'application/vnd.apache.parquet',
};

const DAY_MS = 86_400_000;
const LINKS = listingOf({ bulkLink: 1 });

/** What an account is charged for, and resumes for nothing within a day: one file of one version. */
const paidFile = (dataset: string, version: number, asOf: string | null, format: BulkFormat) =>
  `${dataset}/v${version}/${asOf ?? 'current'}/${format}`;

function fileOf(folder: string, manifest: Manifest, format: BulkFormat, acceptsGzip: boolean): BulkFile {
  const { bytes, gzipBytes } = manifest.files[format];
  const gzip = acceptsGzip && gzipBytes !== null;
  const name = fileName(manifest.dataset, format, gzip);
  return {
    path: `${folder}/${name}`,
    bytes: gzip && gzipBytes !== null ? gzipBytes : bytes,
    etag: `"${manifest.dataset}-v${manifest.version}${manifest.asOf ? `-${manifest.asOf}` : ''}-${format}${gzip ? '-gzip' : ''}"`,
    contentType: CONTENT_TYPE[format],
    gzip,
    manifest,
    format,
  };
}

/** The file a download of the dataset's current version (as known at asOf) reads; made first if need be. */
export async function bulkDownload(
  deps: Deps,
  dataset: string,
  layout: BulkLayout,
  query: BulkQuery,
  acceptsGzip: boolean,
): Promise<BulkFile> {
  // asOfInstant refuses a future day.
  asOfInstant(deps, query.asOf);
  const { manifest, folder } = await bulkFiles(deps, dataset, layout, query.asOf ?? null);
  return fileOf(folder, manifest, query.format, acceptsGzip);
}

/** How long a download waits for another download's claim on the same file before it claims the file itself. */
const CLAIM_WAIT_MS = 10_000;
const CLAIM_POLL_MS = 5;

/**
 * The price of a download: nothing when the account paid for the same file within a day; else the bulk price,
 * with the file claimed for this call (a row not yet paid). A download of a file another call of the account
 * has claimed waits until that call's charge is decided: taken, the file is free; refused, the claim is given
 * up and this call claims it. So of simultaneous downloads exactly one is charged, and a balance that covers
 * one file serves them all (test/datasets/bulk/bulk.test.ts).
 */
export async function bulkPrice(
  deps: Deps,
  accountId: string,
  dataset: string,
  query: BulkQuery,
): Promise<Price> {
  const file = paidFile(dataset, await datasetVersion(deps, dataset), query.asOf ?? null, query.format);
  const db = deps.store.db;
  const started = performance.now();
  for (;;) {
    const now = deps.clock();
    const held = await db
      .selectFrom('bulk_downloads')
      .select(['charged_at', 'paid'])
      .where('account_id', '=', accountId)
      .where('file', '=', file)
      .executeTakeFirst();
    const fresh = held !== undefined && now.getTime() - Date.parse(held.charged_at) < DAY_MS;
    if (fresh && Number(held.paid) === 1) return price('bulk', 0);
    // A claim undecided for longer than a download waits is taken over (its call is gone): the one seen, only.
    const stale = fresh && performance.now() - started >= CLAIM_WAIT_MS ? held.charged_at : null;
    if ((!fresh || stale) && (await claim(deps, accountId, file, now, stale))) return price('bulk', 1);
    await delay(CLAIM_POLL_MS);
  }
}

/**
 * Claims the file for a charge: a new row, or one paid more than a day ago, or the undecided claim `stale`. In one
 * statement, so that of calls claiming at once exactly one succeeds.
 */
async function claim(
  deps: Deps,
  accountId: string,
  file: string,
  now: Date,
  stale: string | null,
): Promise<boolean> {
  const cutoff = new Date(now.getTime() - DAY_MS).toISOString();
  const claimed = await deps.store.db
    .insertInto('bulk_downloads')
    .values({ account_id: accountId, file, charged_at: now.toISOString(), paid: 0 })
    .onConflict((c) =>
      c
        .columns(['account_id', 'file'])
        .doUpdateSet({ charged_at: sql`excluded.charged_at`, paid: 0 })
        .where((eb) =>
          eb.or([
            eb('bulk_downloads.charged_at', '<=', cutoff),
            eb.and([eb('bulk_downloads.paid', '=', 0), eb('bulk_downloads.charged_at', '=', stale ?? '')]),
          ]),
        ),
    )
    .returning('account_id')
    .executeTakeFirst();
  return claimed !== undefined;
}

/** The file this call claimed is paid: downloads of it within a day are free. */
export async function settleClaim(deps: Deps, accountId: string, file: BulkFile): Promise<void> {
  const { dataset, version, asOf } = file.manifest;
  await deps.store.db
    .updateTable('bulk_downloads')
    .set({ paid: 1 })
    .where('account_id', '=', accountId)
    .where('file', '=', paidFile(dataset, version, asOf, file.format))
    .execute();
}

/** This call's charge was refused (or given back): its claim is given up, for a download that pays. */
export async function releaseClaim(
  deps: Deps,
  accountId: string,
  dataset: string,
  query: BulkQuery,
): Promise<void> {
  const file = paidFile(dataset, await datasetVersion(deps, dataset), query.asOf ?? null, query.format);
  await deps.store.db
    .deleteFrom('bulk_downloads')
    .where('account_id', '=', accountId)
    .where('file', '=', file)
    .where('paid', '=', 0)
    .execute();
}

/** A link that downloads this file of this version without a key until it expires. */
export function signLink(deps: Deps, file: BulkFile): { token: string; expiresAt: string } {
  const expires = deps.clock().getTime() + deps.config.bulkLinkSeconds * 1000;
  const { dataset, version, asOf } = file.manifest;
  const token = encodeCursor(deps.cursorSecret, LINKS, {
    d: dataset,
    v: version,
    a: asOf,
    f: file.format,
    e: expires,
  });
  return { token, expiresAt: new Date(expires).toISOString() };
}

/** The file a signed link names; refused when altered or expired, not found when its version is gone. */
export async function linkedFile(deps: Deps, token: string, acceptsGzip: boolean): Promise<BulkFile> {
  const link = decodeCursor(deps.cursorSecret, LINKS, token, 'token') as {
    d: string;
    v: number;
    a: string | null;
    f: BulkFormat;
    e: number;
  };
  if (deps.clock().getTime() > link.e)
    throw new AppError(
      'link_expired',
      `This download link expired at ${new Date(link.e).toISOString()}; ask for a new one.`,
    );
  const held = await versionFiles(deps, link.d, link.v, link.a);
  if (!held)
    throw new AppError(
      'not_found',
      'The files of this link were replaced by a newer version; ask for a new link.',
    );
  return fileOf(held.folder, held.manifest, link.f, acceptsGzip);
}
