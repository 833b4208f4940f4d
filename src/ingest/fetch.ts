// Downloading an agency's file: to a file beside the store, conditional on the validators of the last fetch
// (If-None-Match, If-Modified-Since), with the operator's contact in the User-Agent and a time limit.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface Validators {
  etag: string | null;
  lastModified: string | null;
}

export type Download =
  | { outcome: 'fetched'; file: string; checksum: string; validators: Validators }
  | { outcome: 'not_modified' }
  | { outcome: 'not_published'; status: number }
  | { outcome: 'failed'; reason: string };

export interface FetchOptions {
  userAgent: string;
  timeoutMs: number;
  /** Validators of the copy already held: the agency answers 304 when its copy is the same. */
  held?: Validators | null;
  /** A JSON body to POST (an API's search), instead of a GET. */
  post?: unknown;
}

/** Fetches `url` into `dest`; a failed or partial download leaves nothing at `dest`. */
export async function download(url: string, dest: string, options: FetchOptions): Promise<Download> {
  const headers: Record<string, string> = { 'user-agent': options.userAgent, accept: '*/*' };
  if (options.held?.etag) headers['if-none-match'] = options.held.etag;
  if (options.held?.lastModified) headers['if-modified-since'] = options.held.lastModified;
  const partial = `${dest}.part`;
  try {
    if (options.post !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(url, {
      headers,
      signal: AbortSignal.timeout(options.timeoutMs),
      ...(options.post !== undefined ? { method: 'POST', body: JSON.stringify(options.post) } : {}),
    });
    if (response.status === 304) return { outcome: 'not_modified' };
    if (response.status === 404 || response.status === 410) {
      await response.body?.cancel();
      return { outcome: 'not_published', status: response.status };
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      return { outcome: 'failed', reason: `HTTP ${response.status}` };
    }
    await mkdir(path.dirname(dest), { recursive: true });
    const hash = createHash('sha256');
    const hashing = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        done(null, chunk);
      },
    });
    await pipeline(Readable.fromWeb(response.body as never), hashing, createWriteStream(partial));
    await rename(partial, dest);
    return {
      outcome: 'fetched',
      file: dest,
      checksum: hash.digest('hex'),
      validators: { etag: response.headers.get('etag'), lastModified: response.headers.get('last-modified') },
    };
  } catch (error) {
    await rm(partial, { force: true });
    const e = error as Error;
    const reason =
      e.name === 'TimeoutError'
        ? `no answer within ${options.timeoutMs} ms`
        : ((e.cause as Error)?.message ?? e.message);
    return { outcome: 'failed', reason };
  }
}
