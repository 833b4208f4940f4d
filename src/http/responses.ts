// Declared responses: each route lists every status it can answer, errors with the shared body.
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
 * are never changed after they are sent. One instance per route: its serialiser is part of the key.
 */
export class JsonBytes {
  private readonly written = new WeakMap<object, Buffer>();

  send(reply: FastifyReply, payload: object): FastifyReply {
    let bytes = this.written.get(payload);
    if (!bytes) {
      // A route's response serialiser writes a string.
      bytes = Buffer.from(reply.serialize(payload) as string);
      this.written.set(payload, bytes);
    }
    return reply.type(JSON_TYPE).send(bytes);
  }
}
