import { randomBytes, scrypt, timingSafeEqual, type ScryptParams } from '../platform/crypto.js';
import { fromBase64, toBase64 } from '../bytes.js';

// scrypt with N=2^15 (OWASP's recommended minimum for scrypt): ~50 ms a hash here.
const PARAMS = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } satisfies ScryptParams;
const KEY_LENGTH = 32;

function derive(password: string, salt: Uint8Array, params: ScryptParams): Promise<Uint8Array> {
  return scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, params);
}

/** `scrypt$N$r$p$salt$hash` (base64), so parameters can be raised later without breaking old hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, toBase64(salt), toBase64(key)].join('$');
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = stored?.split('$') ?? [];
  if (parts.length !== 6 || parts[0] !== 'scrypt') {
    // Same work as a real check, so timing does not reveal unknown users.
    await derive(password, randomBytes(16), PARAMS);
    return false;
  }
  const [, n, r, p, salt, hash] = parts;
  const expected = fromBase64(hash);
  const key = await derive(password, fromBase64(salt), { N: Number(n), r: Number(r), p: Number(p), maxmem: PARAMS.maxmem });
  return timingSafeEqual(key, expected);
}

export const MIN_PASSWORD_LENGTH = 8;
