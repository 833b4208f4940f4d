// Opaque, tamper-evident cursors: base64url JSON and an HMAC-SHA256 tag keyed by the store's secret. A cursor
// also names the listing it belongs to, so one from another query is refused rather than misread.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';
import { AppError } from './errors.js';

const TAG_BYTES = 16;

function tag(secret: string, body: string): Buffer {
  return createHmac('sha256', secret).update(body).digest().subarray(0, TAG_BYTES);
}

/** A fingerprint of the parameters that define a listing (everything but the cursor and the page size). */
export function listingOf(parts: Record<string, unknown>): string {
  return createHmac('sha256', 'listing').update(canonicalJson(parts)).digest('base64url').slice(0, 16);
}

export function encodeCursor(secret: string, listing: string, position: Record<string, unknown>): string {
  const body = Buffer.from(JSON.stringify({ l: listing, p: position })).toString('base64url');
  return `${body}.${tag(secret, body).toString('base64url')}`;
}

/** The position a cursor carries, or invalid_params naming `parameter` when it is not one of ours for this listing. */
export function decodeCursor(
  secret: string,
  listing: string,
  text: string,
  parameter: string,
): Record<string, unknown> {
  const refuse = (why: string) =>
    new AppError(
      'invalid_params',
      `parameter "${parameter}" is not a valid cursor (${why}); start from the first page`,
    );
  const [body, given, extra] = text.split('.');
  if (!body || !given || extra !== undefined) throw refuse('malformed');
  // The tag is compared as the text this server writes: base64url decoding would also accept the same bytes
  // written otherwise (with padding, or with characters it skips), and a cursor has exactly one spelling.
  const expected = Buffer.from(tag(secret, body).toString('base64url'));
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected))
    throw refuse('signature mismatch');
  let parsed: { l?: unknown; p?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    throw refuse('malformed');
  }
  if (parsed.l !== listing) throw refuse('it belongs to another query');
  if (typeof parsed.p !== 'object' || parsed.p === null) throw refuse('malformed');
  return parsed.p as Record<string, unknown>;
}
