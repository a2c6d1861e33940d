import { z } from 'zod';
// The two functions' own modules: date-fns's package root loads all of its hundreds of modules at every start.
import { parseISO } from 'date-fns/parseISO';
import { isValid } from 'date-fns/isValid';
import { invalidParam } from '../problems.js';

/** A query string as Fastify hands it over: repeated keys become arrays. */
export type RawQuery = Record<string, string | string[] | undefined>;

/** One value of a parameter that must appear once (`per_page=1&per_page=2` is refused). */
export function single(query: RawQuery, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw invalidParam(name, 'given more than once');
  return value;
}

const positiveInt = z.string().regex(/^\d{1,15}$/).transform(Number).pipe(z.number().int().min(1));

export function intParam(name: string, value: string, min = 1, max = Number.MAX_SAFE_INTEGER): number {
  const parsed = positiveInt.safeParse(value.trim());
  if (!parsed.success || parsed.data < min || parsed.data > max) {
    throw invalidParam(name, max < Number.MAX_SAFE_INTEGER ? `must be between ${min} and ${max}, given: ${value}` : `must be a positive integer, given: ${value}`);
  }
  return parsed.data;
}

const recordId = z.string().regex(/^-?[1-9]\d{0,14}$/).transform(Number);

/**
 * A record id in a query: positive on a hub; on a replica, records not yet on
 * the hub have negative (temporary) ids, so those are accepted too.
 */
export function recordIdParam(name: string, value: string): number {
  const parsed = recordId.safeParse(value.trim());
  if (!parsed.success) throw invalidParam(name, `must be a record id (a non-zero integer), given: ${value}`);
  return parsed.data;
}

const TRUE = new Set(['true', '1', 'yes']);
const FALSE = new Set(['false', '0', 'no']);

/** Booleans as the official clients send them: `true`, `True`, `1` (and the false twins). */
export function boolParam(name: string, value: string): boolean {
  const v = value.trim().toLowerCase();
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  throw invalidParam(name, `must be true or false, given: ${value}`);
}

/** `ids=1,2` and `ids=1&ids=2` (and mixtures) both give [1, 2]. */
export function idListParam(name: string, value: string | string[]): number[] {
  const parts = (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(','));
  const ids = parts.map((p) => p.trim()).filter((p) => p !== '');
  if (ids.length === 0) throw invalidParam(name, 'must be a comma-separated list of ids');
  return ids.map((id) => recordIdParam(name, id));
}

export function enumParam<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw invalidParam(name, `must be one of ${allowed.join(', ')}, given: ${value}`);
}

/**
 * Date-times as real clients send them: ISO 8601 with `Z`, `+00:00` or `+0000`.
 * Returns the instant, or null when the text is not a date-time.
 */
export function parseDateTime(text: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(text.trim())) return null;
  let iso = text.trim().replace(' ', 'T');
  // A date-time without a zone is read as UTC (the spec's only zone), never as the machine's local time.
  if (iso.includes('T') && !/(Z|[+-]\d{2}:?\d{2})$/.test(iso)) iso += 'Z';
  const date = parseISO(iso);
  return isValid(date) ? date : null;
}
