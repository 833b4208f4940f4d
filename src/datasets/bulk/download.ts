// The bulk call type's verbs: which stored file a download reads, what it costs the account (nothing when it
// paid for the same file within a day: a resumed download), and signed links that download a paid file
// without a key (the MCP tool datasets.bulk_link).
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

/** The price of a download: the bulk price, or nothing when the account paid for the same file within a day. */
export async function bulkPrice(
  deps: Deps,
  accountId: string,
  dataset: string,
  query: BulkQuery,
): Promise<Price> {
  const version = await datasetVersion(deps, dataset);
  const paid = await deps.store.db
    .selectFrom('bulk_downloads')
    .select('charged_at')
    .where('account_id', '=', accountId)
    .where('file', '=', paidFile(dataset, version, query.asOf ?? null, query.format))
    .executeTakeFirst();
  const within = paid && deps.clock().getTime() - Date.parse(paid.charged_at) < DAY_MS;
  return price('bulk', within ? 0 : 1);
}

/**
 * Records a charged download, so the account resumes the same file for nothing within a day: in one statement,
 * so that of downloads charged at the same moment exactly one records the file. True for that one; false when
 * the account had paid for the file within a day already (its charge is then given back).
 */
export async function claimPaid(deps: Deps, accountId: string, file: BulkFile): Promise<boolean> {
  const { dataset, version, asOf } = file.manifest;
  const now = deps.clock();
  const row = {
    account_id: accountId,
    file: paidFile(dataset, version, asOf, file.format),
    charged_at: now.toISOString(),
  };
  const cutoff = new Date(now.getTime() - DAY_MS).toISOString();
  const claimed = await deps.store.db
    .insertInto('bulk_downloads')
    .values(row)
    .onConflict((c) =>
      c
        .columns(['account_id', 'file'])
        .doUpdateSet({ charged_at: sql`excluded.charged_at` })
        .where('bulk_downloads.charged_at', '<=', cutoff),
    )
    .returning('account_id')
    .executeTakeFirst();
  return claimed !== undefined;
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
