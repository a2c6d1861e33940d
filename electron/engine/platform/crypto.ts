import * as nodeCrypto from 'node:crypto';

/**
 * The engine's cryptography, Node's side (crypto.web.ts is the browser's):
 * bytes in and out as Uint8Array (Node's come as Buffers, which are), and
 * synchronous as the engine's callers are, but for scrypt, which Node runs
 * off the event loop.
 */

export function randomBytes(size: number): Uint8Array {
  return nodeCrypto.randomBytes(size);
}

export function randomUUID(): string {
  return nodeCrypto.randomUUID();
}

/** SHA-256 of the bytes, or of a text's UTF-8. */
export function sha256(data: string | Uint8Array): Uint8Array {
  return nodeCrypto.createHash('sha256').update(data).digest();
}

export function sha256Hex(data: string | Uint8Array): string {
  return nodeCrypto.createHash('sha256').update(data).digest('hex');
}

export function sha256Base64Url(data: string | Uint8Array): string {
  return nodeCrypto.createHash('sha256').update(data).digest('base64url');
}

export function hmacSha256(key: Uint8Array, data: string | Uint8Array): Uint8Array {
  return nodeCrypto.createHmac('sha256', key).update(data).digest();
}

/** Equal bytes, compared in a time that does not depend on where they differ; false when the lengths differ. */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && nodeCrypto.timingSafeEqual(a, b);
}

/** scrypt's cost parameters (`maxmem`: the memory it may take, in bytes). */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
  maxmem: number;
}

/** scrypt of the password's UTF-8 (on the thread pool: ~50 ms a hash at N=2^15). */
export function scrypt(password: string, salt: Uint8Array, keyLength: number, params: ScryptParams): Promise<Uint8Array> {
  return new Promise((resolve, reject) =>
    nodeCrypto.scrypt(password, salt, keyLength, params, (err, key) => (err ? reject(err) : resolve(key))),
  );
}
