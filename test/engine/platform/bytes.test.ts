import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bytesEqual, fromBase64, fromHex, toBase64, toBase64Url, toHex, utf8Bytes, utf8Length, utf8Text } from '../../../electron/engine/bytes.js';

// The engine's helpers must give exactly what Node's Buffer gave: tokens, hashes and cursors are stored and compared.
const RUNS = { numRuns: 500 };
const bytes = fc.uint8Array({ maxLength: 100 });
/** Text of any code units, lone surrogates included. */
const anyText = fc.string({ unit: 'binary', maxLength: 60 });
/** Text as a token or cursor may arrive from a client: base64 of both alphabets, padding, and anything else. */
const base64ish = fc.string({ unit: fc.constantFrom(...'ABCXYZabcxyz0129+/-_= !.%é\n'), maxLength: 60 });
const hexish = fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEFgz '), maxLength: 40 });

describe('bytes, as Buffer gave them', () => {
  it('encodes hex, base64 and base64url as Buffer does', () => {
    fc.assert(fc.property(bytes, (data) => {
      expect(toHex(data)).toBe(Buffer.from(data).toString('hex'));
      expect(toBase64(data)).toBe(Buffer.from(data).toString('base64'));
      expect(toBase64Url(data)).toBe(Buffer.from(data).toString('base64url'));
    }), RUNS);
  });

  it('decodes what it encoded', () => {
    fc.assert(fc.property(bytes, (data) => {
      expect(fromHex(toHex(data))).toEqual(data);
      expect(fromBase64(toBase64(data))).toEqual(data);
      expect(fromBase64(toBase64Url(data))).toEqual(data);
    }), RUNS);
  });

  it('decodes malformed base64 and hex as leniently as Buffer', () => {
    fc.assert(fc.property(base64ish, (text) => {
      expect(fromBase64(text)).toEqual(new Uint8Array(Buffer.from(text, 'base64')));
      expect(fromBase64(text)).toEqual(new Uint8Array(Buffer.from(text, 'base64url')));
    }), RUNS);
    fc.assert(fc.property(hexish, (text) => {
      expect(fromHex(text)).toEqual(new Uint8Array(Buffer.from(text, 'hex')));
    }), RUNS);
  });

  it('reads and writes UTF-8 as Buffer does, lone surrogates and broken sequences included', () => {
    fc.assert(fc.property(anyText, (text) => {
      expect(utf8Bytes(text)).toEqual(new Uint8Array(Buffer.from(text, 'utf8')));
      expect(utf8Length(text)).toBe(Buffer.byteLength(text, 'utf8'));
    }), RUNS);
    fc.assert(fc.property(bytes, (data) => {
      expect(utf8Text(data)).toBe(Buffer.from(data).toString('utf8'));
    }), RUNS);
  });

  it('compares bytes by value and length', () => {
    fc.assert(fc.property(bytes, bytes, (a, b) => {
      expect(bytesEqual(a, b)).toBe(Buffer.from(a).equals(Buffer.from(b)));
      expect(bytesEqual(a, a.slice())).toBe(true);
    }), RUNS);
  });
});
