import { hmac } from '@noble/hashes/hmac';
import { scryptAsync } from '@noble/hashes/scrypt';
import { sha256 as nobleSha256 } from '@noble/hashes/sha2';
import type * as NodeSide from './crypto.js';
import type { ScryptParams } from './crypto.js';
import { toBase64Url, toHex } from '../bytes.js';

/**
 * The engine's cryptography in the browser (crypto.ts is Node's): the Web
 * Crypto API for randomness, @noble/hashes for the hashes, synchronous as the
 * engine needs them (WebCrypto's digest is async). Same results as Node's.
 */

/** getRandomValues fills at most 65 536 bytes a call. */
const RANDOM_CHUNK = 65_536;

export function randomBytes(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let at = 0; at < size; at += RANDOM_CHUNK) crypto.getRandomValues(bytes.subarray(at, at + RANDOM_CHUNK));
  return bytes;
}

export function randomUUID(): string {
  return crypto.randomUUID();
}

export function sha256(data: string | Uint8Array): Uint8Array {
  return nobleSha256(data);
}

export function sha256Hex(data: string | Uint8Array): string {
  return toHex(nobleSha256(data));
}

export function sha256Base64Url(data: string | Uint8Array): string {
  return toBase64Url(nobleSha256(data));
}

export function hmacSha256(key: Uint8Array, data: string | Uint8Array): Uint8Array {
  return hmac(nobleSha256, key, data);
}

export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i] ^ b[i];
  return difference === 0;
}

export function scrypt(password: string, salt: Uint8Array, keyLength: number, params: ScryptParams): Promise<Uint8Array> {
  return scryptAsync(password, salt, { N: params.N, r: params.r, p: params.p, dkLen: keyLength, maxmem: params.maxmem });
}

// Fails the type check when this side drifts from Node's.
({ randomBytes, randomUUID, sha256, sha256Hex, sha256Base64Url, hmacSha256, timingSafeEqual, scrypt }) satisfies typeof NodeSide;
