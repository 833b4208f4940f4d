// Console passwords, hashed with scrypt (memory-hard; in Node's crypto, so no native dependency). A hash
// records its own cost parameters, so raising them later leaves older hashes readable.
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';
import { AppError } from '../kernel/errors.js';

/** 2^15 x 8 x 128 bytes: 32 MiB and about 100 ms a hash on this class of machine. */
const COST = { N: 2 ** 15, r: 8, p: 1 };
const KEY_BYTES = 32;
export const MIN_PASSWORD = 10;
export const MAX_PASSWORD = 200;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  const maxmem = 256 * (options.N ?? 0) * (options.r ?? 0) + 1024 * 1024;
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_BYTES, { ...options, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** Refuses a password too short or too long to be hashed, with the reason. */
export function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD) {
    throw new AppError('invalid_params', `Choose a password of at least ${MIN_PASSWORD} characters.`);
  }
  if (password.length > MAX_PASSWORD) {
    throw new AppError('invalid_params', `A password has at most ${MAX_PASSWORD} characters.`);
  }
}

/** scrypt$N$r$p$salt$key, salt and key in base64url. */
export async function hashPassword(password: string): Promise<string> {
  checkPassword(password);
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = stored?.split('$') ?? [];
  if (parts.length !== 6 || parts[0] !== 'scrypt' || password.length > MAX_PASSWORD) {
    // Spend the same time as a real check, so a missing account is not told apart by timing.
    await derive(password.slice(0, MAX_PASSWORD), Buffer.alloc(16), COST);
    return false;
  }
  const [, n, r, p, salt, key] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
