import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiProblem, problem } from '../problems.js';
import type { ApiError } from '../../../shared/errors.js';

/**
 * Deep enough for any body a route takes (custom fields and step properties
 * sit 3–4 levels down); deeper bodies are refused here because JSON.stringify
 * and recursive validators would overflow the stack on them.
 */
const MAX_BODY_DEPTH = 32;

/**
 * While a body that is not UTF-8 is parsed, NOT_UTF8 stands for its bad
 * bytes: a Unicode noncharacter (reserved for a program's own use), so a
 * U+FFFD the client sent (escaped, or as UTF-8, turned into U+FDD1 first)
 * is not taken for one. Such a body is refused: neither reaches a record.
 */
const NOT_UTF8 = '\uFDD0';
const REPLACEMENT_UTF8 = [0xef, 0xbf, 0xbd];
const OTHER_UTF8 = [0xef, 0xb7, 0x91];
/** Strict, and keeping a byte order mark as text (as Buffer's toString does): JSON.parse then refuses it, as it should. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const LENIENT_UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** NUL, or a lone surrogate (`/u` makes a well-formed pair one code point, so only a lone half matches). */
const BAD_TEXT = /[\0\p{Cs}]/u;

/**
 * The body rule: JSON is parsed (lenient on emptiness, as real clients
 * need: Python and PHP send an empty sync start, Ruby an empty form);
 * any other non-empty body is a 415. Routes that take other types add
 * their own parsers in their scope (OAuth forms, document uploads).
 */
export function registerBodyParsers(app: FastifyInstance): void {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  const parseJson = async (_request: FastifyRequest, body: string | Uint8Array) => jsonBody(body as Uint8Array);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, parseJson);
  app.addContentTypeParser(/^application\/[\w.-]+\+json$/, { parseAs: 'buffer' }, parseJson);
  app.addContentTypeParser('*', { parseAs: 'buffer' }, async (request: FastifyRequest, body: string | Uint8Array) => {
    if (isBlank(body as Uint8Array)) return undefined;
    throw problem('unsupported_media_type', `Content-Type ${request.headers['content-type'] ?? '(none)'} is not supported: send application/json.`, 'Content-Type');
  });
}

/**
 * A JSON body whose text is sound: well-formed UTF-8, without lone
 * surrogates or NUL in any string or name (stored, a lone surrogate turns
 * into U+FFFD and a NUL cuts text short wherever C strings carry it, so the
 * record would come back altered). Every bad string is a 422 at its JSON Pointer.
 */
function jsonBody(raw: Uint8Array): unknown {
  if (isBlank(raw)) return undefined;
  const text = utf8Text(raw);
  if (text !== null) return soundText(parseJson(text), badText);
  // Decoding puts U+FFFD where bytes are not UTF-8: mark those (and only those), so the strings holding them can be named.
  const marked = LENIENT_UTF8.decode(withoutReplacementChars(raw)).replaceAll('\uFFFD', NOT_UTF8);
  soundText(parseJson(marked), (s) => (s.includes(NOT_UTF8) ? 'is not valid UTF-8' : badText(s)));
  // Not reached: bytes that are not UTF-8 are in a string (named above) or a JSON syntax error.
  throw problem('invalid_payload', 'The request body is not valid UTF-8.');
}

function soundText(value: unknown, fault: (text: string) => string | null): unknown {
  const errors = textErrors(value, fault);
  if (errors.length > 0) throw new ApiProblem(errors);
  return value;
}

/** The body's text when it is well-formed UTF-8, else null. */
function utf8Text(raw: Uint8Array): string | null {
  try {
    return STRICT_UTF8.decode(raw);
  } catch {
    return null;
  }
}

/** A copy where each U+FFFD the client sent as UTF-8 is another character: any U+FFFD after decoding then stands for bad bytes. */
function withoutReplacementChars(raw: Uint8Array): Uint8Array {
  const copy = Uint8Array.from(raw);
  for (let at = 0; at + 2 < copy.length; at++) {
    if (copy[at] === REPLACEMENT_UTF8[0] && copy[at + 1] === REPLACEMENT_UTF8[1] && copy[at + 2] === REPLACEMENT_UTF8[2]) copy.set(OTHER_UTF8, at);
  }
  return copy;
}

/** Nothing but JSON whitespace (stops at the first other byte: no copy of the body). */
function isBlank(raw: Uint8Array): boolean {
  for (const byte of raw) if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return false;
  return true;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw problem('invalid_payload', 'The request body is not valid JSON.');
  }
}

function badText(text: string): string | null {
  const found = BAD_TEXT.exec(text);
  if (!found) return null;
  return found[0] === '\0' ? 'contains a NUL character (\\u0000), as binary data does, not text' : 'is not well-formed Unicode: it holds a lone surrogate (a \\ud800–\\udfff escape without its pair)';
}

/**
 * Every string of the body, names included, that `fault` finds wrong, as
 * field errors. Iterative (bodies may be nested deeply on purpose) and
 * bounded by MAX_BODY_DEPTH.
 */
function textErrors(body: unknown, fault: (text: string) => string | null): ApiError[] {
  const errors: ApiError[] = [];
  const check = (text: string, pointer: string, what: string) => {
    const wrong = fault(text);
    if (!wrong) return;
    const field = fieldOf(pointer);
    const message = `${field ? `${what} ${field}` : 'The body'} ${wrong}.`;
    errors.push({ resource: 'request', field, code: 'incorrect_value', message, details: message });
  };
  const queue: [unknown, string, number][] = [[body, '', 0]];
  for (let i = 0; i < queue.length; i++) {
    const [value, pointer, depth] = queue[i];
    if (typeof value === 'string') check(value, pointer, 'The value at');
    if (typeof value !== 'object' || value === null) continue;
    if (depth === MAX_BODY_DEPTH) throw problem('invalid_payload', `The request body is nested more than ${MAX_BODY_DEPTH} levels deep.`, fieldOf(pointer));
    for (const [key, child] of Object.entries(value)) {
      const at = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      check(key, at, 'The name of');
      queue.push([child, at, depth + 1]);
    }
  }
  return errors;
}

/** Pointers are into `data`, as every other field error of /v2 (`/last_name`); the marker shows as U+FFFD again. */
function fieldOf(pointer: string): string {
  const inData = pointer.startsWith('/data/') ? pointer.slice('/data'.length) : pointer;
  return inData.replaceAll(NOT_UTF8, '\uFFFD');
}
