/**
 * Bytes as `Uint8Array`, encoded and decoded the way Node's Buffer does it, in
 * plain JavaScript: the engine runs in a browser worker too (platform/), where
 * there is no Buffer. Tokens, hashes, signatures, cursors and stored values
 * must come out byte for byte as before, so decoding is as lenient as Buffer's
 * (test/engine/platform/bytes.test.ts compares them on random input).
 */

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const HEX_DIGITS = '0123456789abcdef';

/** Each character's six bits, for both alphabets (Buffer reads either under either name); -1 elsewhere. */
const SEXTETS = (() => {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < 64; i++) {
    table[BASE64.charCodeAt(i)] = i;
    table[BASE64URL.charCodeAt(i)] = i;
  }
  return table;
})();

const HEX_OF_BYTE = Array.from({ length: 256 }, (_, byte) => HEX_DIGITS[byte >> 4] + HEX_DIGITS[byte & 15]);

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function utf8Bytes(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Malformed sequences become U+FFFD, as Buffer's toString('utf8') does. */
export function utf8Text(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** The length of `text` in UTF-8 (Buffer.byteLength). */
export function utf8Length(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) length += 1;
    else if (unit < 0x800) length += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))) {
      length += 4;
      i++;
    } else length += 3; // a lone surrogate is written as U+FFFD, three bytes
  }
  return length;
}

const isLowSurrogate = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

export function toHex(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += HEX_OF_BYTE[byte];
  return text;
}

/** Pairs of hex digits up to the first pair that is not one (Buffer.from(text, 'hex')). */
export function fromHex(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length >> 1);
  for (let i = 0; i < bytes.length; i++) {
    const high = hexDigit(text.charCodeAt(2 * i));
    const low = hexDigit(text.charCodeAt(2 * i + 1));
    if (high < 0 || low < 0) return bytes.slice(0, i);
    bytes[i] = (high << 4) | low;
  }
  return bytes;
}

function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return -1;
}

/** Base64 with `=` padding. */
export function toBase64(bytes: Uint8Array): string {
  return encode(bytes, BASE64, true);
}

/** Base64url without padding (tokens, cursors, PKCE challenges). */
export function toBase64Url(bytes: Uint8Array): string {
  return encode(bytes, BASE64URL, false);
}

function encode(bytes: Uint8Array, alphabet: string, pad: boolean): string {
  let text = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const triple = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    text += alphabet[triple >> 18] + alphabet[(triple >> 12) & 63] + alphabet[(triple >> 6) & 63] + alphabet[triple & 63];
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const triple = bytes[i] << 16;
    text += alphabet[triple >> 18] + alphabet[(triple >> 12) & 63] + (pad ? '==' : '');
  } else if (rest === 2) {
    const triple = (bytes[i] << 16) | (bytes[i + 1] << 8);
    text += alphabet[triple >> 18] + alphabet[(triple >> 12) & 63] + alphabet[(triple >> 6) & 63] + (pad ? '=' : '');
  }
  return text;
}

/**
 * Base64 or base64url, padded or not (Buffer.from(text, 'base64') reads both):
 * characters of neither alphabet are skipped, and the text ends at the first `=`.
 */
export function fromBase64(text: string): Uint8Array {
  const bytes = new Uint8Array(Math.floor((text.length * 3) / 4));
  let length = 0;
  let bits = 0;
  let bitCount = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 61) break; // '='
    const sextet = code < 128 ? SEXTETS[code] : -1;
    if (sextet < 0) continue;
    bits = ((bits << 6) | sextet) & 0xffffff;
    bitCount += 6;
    if (bitCount >= 8) {
      bitCount -= 8;
      bytes[length++] = (bits >> bitCount) & 0xff;
    }
  }
  return bytes.slice(0, length);
}

/** Same bytes, same length. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
