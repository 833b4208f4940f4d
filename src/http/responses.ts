// Declared responses: each route lists every status it can answer, errors with the shared body.
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { TSchema } from 'typebox';
import { ErrorBody } from '../kernel/errors.js';

export function responses(ok: TSchema, ...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = { 200: ok };
  for (const status of [...statuses, 500]) out[status] = ErrorBody;
  return out;
}

/** Statuses of every keyed stored-datasets route. */
export const KEYED_STATUSES = [400, 401, 402, 403, 404, 429, 503];

export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Sends `payload` as the route's JSON, written to bytes once per payload object. A read answered from a
 * cache hands every caller the same object, so its bytes are serialised and encoded once and then only
 * written; a fresh object costs what Fastify's own path costs (one serialisation, one encoding). Payloads
 * are never changed after they are sent. One instance per route: its serialiser is part of the key. The
 * ETag is the SHA-1 of the bytes but for the time the answer was generated, computed with them.
 */
export class JsonBytes {
  private readonly written = new WeakMap<object, { bytes: Buffer; etag: string }>();

  send(reply: FastifyReply, payload: object): FastifyReply {
    let written = this.written.get(payload);
    if (!written) {
      const serialised = reply.serialize(payload);
      const bytes =
        typeof serialised === 'string' || Buffer.isBuffer(serialised)
          ? Buffer.from(serialised)
          : Buffer.from(serialised);
      written = { bytes, etag: `"${createHash('sha1').update(tagged(bytes)).digest('base64url')}"` };
      this.written.set(payload, written);
    }
    return sendTagged(reply, written.bytes, written.etag);
  }
}

/** The members that say when an answer was made, not what it holds: left out of its ETag. */
const MOMENTS = [Buffer.from('"generatedAt":"'), Buffer.from('"readAsOf":"')];

/**
 * The bytes an ETag is taken over: the answer without the times it was made (the first `generatedAt`, a
 * board's, and meta's `readAsOf` when it is the time of the read), so that the same data recomputed after a
 * restart or a cache's expiry, or read again, keeps its tag.
 */
function tagged(bytes: Buffer): Buffer {
  let out = bytes;
  for (const name of MOMENTS) {
    const start = out.indexOf(name);
    if (start < 0) continue;
    const from = start + name.length;
    const end = out.indexOf(0x22, from);
    if (end >= 0) out = Buffer.concat([out.subarray(0, from), out.subarray(end)]);
  }
  return out;
}

/** Sends JSON `body` with its ETag; the same answer the caller holds is a 304 without a body (metered all the same). */
export function sendTagged(reply: FastifyReply, body: Buffer | string, etag: string): FastifyReply {
  reply.header('etag', etag);
  if (etagMatches(reply.request.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.type(JSON_TYPE).send(body);
}

/** Whether an If-None-Match header names `etag` (or is *); weak and strong forms compare equal. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}
