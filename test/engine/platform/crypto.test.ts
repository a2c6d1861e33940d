import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as nodeSide from '../../../electron/engine/platform/crypto.js';
import * as webSide from '../../../electron/engine/platform/crypto.web.js';
import { hashPassword, verifyPassword } from '../../../electron/engine/auth/passwords.js';
import { fromBase64, toBase64 } from '../../../electron/engine/bytes.js';

// The browser's side runs here too (Node has the Web Crypto API): both must give the same bytes for the same input.
const RUNS = { numRuns: 200 };
const data = fc.oneof(fc.string({ unit: 'binary', maxLength: 80 }), fc.uint8Array({ maxLength: 200 }));

describe('crypto, Node side and browser side', () => {
  it('hash and HMAC alike, from text (its UTF-8) or bytes', () => {
    fc.assert(fc.property(data, fc.uint8Array({ maxLength: 80 }), (input, key) => {
      expect(webSide.sha256(input)).toEqual(new Uint8Array(nodeSide.sha256(input)));
      expect(webSide.sha256Hex(input)).toBe(nodeSide.sha256Hex(input));
      expect(webSide.sha256Base64Url(input)).toBe(nodeSide.sha256Base64Url(input));
      expect(webSide.hmacSha256(key, input)).toEqual(new Uint8Array(nodeSide.hmacSha256(key, input)));
    }), RUNS);
  });

  it('compare bytes alike: equal only with the same bytes and length', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ maxLength: 40 }), (a, b) => {
      expect(webSide.timingSafeEqual(a, b)).toBe(nodeSide.timingSafeEqual(a, b));
      expect(webSide.timingSafeEqual(a, a.slice())).toBe(true);
    }), RUNS);
  });

  it('give random bytes of the size asked and version-4 UUIDs', () => {
    for (const side of [nodeSide, webSide]) {
      expect(side.randomBytes(70_000)).toHaveLength(70_000);
      expect(side.randomBytes(32)).not.toEqual(side.randomBytes(32));
      expect(side.randomUUID()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });

  it('derive the same scrypt key', async () => {
    const params = { N: 2 ** 10, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
    const salt = nodeSide.randomBytes(16);
    const key = await webSide.scrypt('pässword', salt, 32, params);
    expect(key).toEqual(new Uint8Array(await nodeSide.scrypt('pässword', salt, 32, params)));
  });

  it('verify each other\'s stored passwords (scrypt$N$r$p$salt$hash at the stored cost)', async () => {
    // Made on Node, checked with the browser's scrypt.
    const stored = await hashPassword('correct horse');
    const [, n, r, p, salt, hash] = stored.split('$');
    const params = { N: Number(n), r: Number(r), p: Number(p), maxmem: 64 * 1024 * 1024 };
    expect(toBase64(await webSide.scrypt('correct horse', fromBase64(salt), 32, params))).toBe(hash);
    // Made with the browser's scrypt, checked on Node.
    const webSalt = webSide.randomBytes(16);
    const webKey = await webSide.scrypt('battery staple', webSalt, 32, params);
    const webStored = ['scrypt', n, r, p, toBase64(webSalt), toBase64(webKey)].join('$');
    expect(await verifyPassword('battery staple', webStored)).toBe(true);
    expect(await verifyPassword('battery stapler', webStored)).toBe(false);
  });
});
