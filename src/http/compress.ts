// Compression by Accept-Encoding (brotli, else gzip) of answers over 1 KB. A body sent as the same bytes again
// (a cached dataset answer: see JsonBytes) is compressed once and the result kept with those bytes; other
// bodies are compressed off the event loop, on Node's thread pool.
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const MIN_BYTES = 1024;
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
// Quality 4: most of brotli's gain at a small share of its highest setting's time.
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };

type Encoding = 'br' | 'gzip';

/** Compressed forms of bodies sent as the same Buffer more than once. */
const kept = new WeakMap<Buffer, Partial<Record<Encoding, Promise<Buffer>>>>();

/** The encodings a caller takes (q=0 refuses one; * takes gzip too). */
export function acceptedEncodings(header: string | undefined): Set<string> {
  const accepted = new Set(
    (header ?? '')
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, q]) => !q || !/^\s*q\s*=\s*0(\.0*)?\s*$/.test(q))
      .map(([name]) => name?.trim().toLowerCase() ?? ''),
  );
  if (accepted.has('*')) accepted.add('gzip');
  return accepted;
}

/** The encoding to answer in: br where the caller takes it, else gzip, else none. */
export function chooseEncoding(header: string | undefined): Encoding | null {
  const accepted = acceptedEncodings(header);
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

function compress(body: Buffer, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br' ? brotli(body, BROTLI) : gzipped(body);
}

function compressedOnce(body: Buffer, encoding: Encoding): Promise<Buffer> {
  let forms = kept.get(body);
  if (!forms) {
    forms = {};
    kept.set(body, forms);
  }
  let form = forms[encoding];
  if (!form) {
    form = compress(body, encoding);
    forms[encoding] = form;
  }
  return form;
}

type Done = (error: Error | null, payload?: unknown) => void;

/** Small and already-encoded answers pass in the same turn; only a body being compressed waits. */
function onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: Done): void {
  const body = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : null;
  const skip =
    reply.statusCode === 204 ||
    reply.statusCode === 304 ||
    request.method === 'HEAD' ||
    body === null ||
    body.length < MIN_BYTES ||
    reply.getHeader('content-encoding') !== undefined;
  if (skip) {
    done(null, payload);
    return;
  }
  reply.header('vary', 'accept-encoding');
  const encoding = chooseEncoding(request.headers['accept-encoding']);
  if (!encoding) {
    done(null, payload);
    return;
  }
  const compressed =
    typeof body === 'string' ? compress(Buffer.from(body), encoding) : compressedOnce(body, encoding);
  compressed.then(
    (bytes) => {
      reply.header('content-encoding', encoding);
      // Another representation of the same answer: the ETag stays, as a weak one.
      const etag = reply.getHeader('etag');
      if (typeof etag === 'string' && !etag.startsWith('W/')) reply.header('etag', `W/${etag}`);
      reply.removeHeader('content-length');
      done(null, bytes);
    },
    (error: Error) => done(error),
  );
}

export function registerCompression(app: FastifyInstance): void {
  app.addHook('onSend', onSend);
}
