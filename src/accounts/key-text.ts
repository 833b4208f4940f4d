// API key text: a product prefix and 192 random bits. Only the SHA-256 hash and a short display prefix
// are stored; the full text is shown once.
import { createHash, randomBytes } from 'node:crypto';

export const KEY_APIS = ['datasets', 'market', 'news'] as const;
export type KeyApi = (typeof KEY_APIS)[number];

export const MARKET_ACCESS = ['market-data', 'full'] as const;
export type MarketAccess = (typeof MARKET_ACCESS)[number];

export function isMarketAccess(value: unknown): value is MarketAccess {
  return MARKET_ACCESS.some((access) => access === value);
}

export const KEY_PREFIX: Record<KeyApi, string> = {
  datasets: 'gds_',
  market: 'svc_mcp_',
  news: 'svc_news_',
};

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `length` random base62 characters; rejection sampling keeps every character equally likely. */
export function randomToken(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

/** 33 base62 characters carry 196 bits. */
const SECRET_LENGTH = 33;
const DISPLAY_CHARS = 6;

export interface NewKeyText {
  text: string;
  hash: string;
  prefix: string;
}

export function newKeyText(api: KeyApi): NewKeyText {
  const text = KEY_PREFIX[api] + randomToken(SECRET_LENGTH);
  return { text, hash: hashKey(text), prefix: text.slice(0, KEY_PREFIX[api].length + DISPLAY_CHARS) };
}

export function hashKey(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Which API a key's text says it belongs to, by prefix; null for text of no known API. */
export function apiOfKeyText(text: string): KeyApi | null {
  if (text.startsWith('gds_')) return 'datasets';
  if (text.startsWith('svc_mcp_')) return 'market';
  if (text.startsWith('svc_news_')) return 'news';
  return null;
}

export function newId(kind: 'acct' | 'key'): string {
  return `${kind}_${randomToken(20)}`;
}

const PROCESS_TAG = randomToken(6);
let sequence = 0;

/** A request id unique across processes: a random tag per process and a counter. Not a secret. */
export function newRequestId(): string {
  sequence += 1;
  return `req_${PROCESS_TAG}${sequence.toString(36).padStart(6, '0')}`;
}
