import { regexpTestWithin } from '../platform/boundedRegexp.js';
import type { EngineContext } from '../context.js';

/**
 * Values of custom object record fields: what each field type accepts, how
 * it is stored in `custom_object_records.fields_json`, and how it is served.
 * A checker returns the value to store (null clears) or a problem sentence
 * naming the field; records.ts collects every problem of a request in one 422.
 */

export const FIELD_TYPES = ['text', 'textarea', 'integer', 'decimal', 'date', 'checkbox', 'regexp', 'dropdown', 'multiselect', 'lookup'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Types whose values the record search looks into (the real service: text, multi-line text and regexp fields). */
export const SEARCHED_TYPES: readonly FieldType[] = ['text', 'textarea', 'regexp'];

/** Lengths (characters); the real service does not publish them. The regexp value limit also bounds matching time. */
export const TEXT_MAX = 1_000;
export const TEXTAREA_MAX = 10_000;
export const REGEXP_VALUE_MAX = 1_000;
export const REGEXP_PATTERN_MAX = 500;
export const DECIMAL_MAX_LENGTH = 40;

export interface FieldOption {
  id: number;
  name: string;
  value: string;
  position: number;
}

/** What a value checker needs to know of a field definition. */
export interface ValueField {
  key: string;
  type: FieldType;
  title: string;
  regexp_for_validation: string | null;
  options: FieldOption[];
  relationship_target_type: string | null;
}

/** A stored value: what `fields_json` holds for one key. */
export type StoredValue = string | number | boolean | string[];

export type Checked = { ok: true; value: StoredValue | null } | { ok: false; error: string; message: string };

const ok = (value: StoredValue | null): Checked => ({ ok: true, value });
const bad = (error: string, message: string): Checked => ({ ok: false, error, message });

/**
 * Checks one value for a field (everything but lookup existence, which needs
 * the database: see `lookupTargetExists`). `null` always clears.
 */
export function checkValue(field: ValueField, value: unknown): Checked {
  if (value === null) return ok(null);
  const name = `${field.title} (${field.key})`;
  switch (field.type) {
    case 'text': return checkText(name, value, TEXT_MAX);
    case 'textarea': return checkText(name, value, TEXTAREA_MAX);
    case 'integer': return checkInteger(name, value);
    case 'decimal': return checkDecimal(name, value);
    case 'date': return checkDate(name, value);
    case 'checkbox': return typeof value === 'boolean' ? ok(value) : bad('InvalidValue', `${name} must be true or false.`);
    case 'regexp': return checkRegexpValue(name, value, field.regexp_for_validation ?? '');
    case 'dropdown': return checkDropdown(name, value, field.options);
    case 'multiselect': return checkMultiselect(name, value, field.options);
    case 'lookup': return checkLookupFormat(name, value, field.relationship_target_type ?? '');
  }
}

/** Text of any length up to `max`; an empty string clears the value (what a cleared form field sends). */
function checkText(name: string, value: unknown, max: number): Checked {
  if (typeof value !== 'string') return bad('InvalidValue', `${name} must be a string.`);
  if (value.trim() === '') return ok(null);
  if (value.length > max) return bad('TooLong', `${name} is too long (at most ${max} characters).`);
  return ok(value);
}

/** Whole numbers in JavaScript's safe range, as JSON numbers or digit strings; stored and served as numbers. */
function checkInteger(name: string, value: unknown): Checked {
  const parsed = typeof value === 'number' ? value : typeof value === 'string' && /^[+-]?\d{1,16}$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isSafeInteger(parsed)) {
    return bad('InvalidValue', `${name} must be a whole number between ${Number.MIN_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}.`);
  }
  return ok(parsed);
}

const DECIMAL = /^([+-]?)(\d+)(?:\.(\d+))?$/;

/**
 * Decimals are kept exactly as decimal strings (floats lose digits: the
 * complaint the real service's clients had about deal values). A JSON number
 * is accepted when it prints without an exponent.
 */
function checkDecimal(name: string, value: unknown): Checked {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : typeof value === 'string' ? value.trim() : null;
  const match = text !== null && text.length <= DECIMAL_MAX_LENGTH ? DECIMAL.exec(text) : null;
  if (!match) return bad('InvalidValue', `${name} must be a decimal number such as 12.50 (at most ${DECIMAL_MAX_LENGTH} characters, no exponent).`);
  const [, sign, whole, fraction] = match;
  const digits = whole.replace(/^0+(?=\d)/, '');
  const isZero = /^0+$/.test(digits + (fraction ?? ''));
  return ok(`${sign === '-' && !isZero ? '-' : ''}${digits}${fraction !== undefined ? `.${fraction}` : ''}`);
}

function checkDate(name: string, value: unknown): Checked {
  if (typeof value !== 'string' || !isCalendarDate(value)) return bad('InvalidValue', `${name} must be a date written YYYY-MM-DD.`);
  return ok(value);
}

export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === value;
}

function checkRegexpValue(name: string, value: unknown, pattern: string): Checked {
  const text = checkText(name, value, REGEXP_VALUE_MAX);
  if (!text.ok || text.value === null) return text;
  const matched = regexpMatches(pattern, text.value as string);
  if (matched === 'timeout') return bad('InvalidValue', `${name} could not be checked against the field's pattern in time.`);
  return matched ? text : bad('InvalidFormat', `${name} does not match the pattern ${pattern}.`);
}

function checkDropdown(name: string, value: unknown, options: FieldOption[]): Checked {
  if (typeof value !== 'string' || !options.some((o) => o.value === value)) {
    return bad('InvalidValue', `${name} must be one of the option values: ${optionValues(options)}.`);
  }
  return ok(value);
}

/** An array of option values; stored once each, in the options' order. An empty array clears. */
function checkMultiselect(name: string, value: unknown, options: FieldOption[]): Checked {
  if (!Array.isArray(value)) return bad('InvalidValue', `${name} must be an array of option values.`);
  const unknown = value.filter((v) => typeof v !== 'string' || !options.some((o) => o.value === v));
  if (unknown.length > 0) {
    return bad('InvalidValue', `${name} has values that are not options (${unknown.map((v) => JSON.stringify(v)).join(', ')}); options: ${optionValues(options)}.`);
  }
  const chosen = options.filter((o) => value.includes(o.value)).map((o) => o.value);
  return ok(chosen.length > 0 ? chosen : null);
}

function optionValues(options: FieldOption[]): string {
  return options.map((o) => o.value).join(', ');
}

// ---------------------------------------------------------------- lookups

/** What a lookup field may point at: the real service's user and custom object targets, and this CRM's own records. */
export const LOOKUP_TARGET_TABLES: Record<string, string> = {
  'zen:user': 'users',
  'sell:contact': 'contacts',
  'sell:deal': 'deals',
  'sell:lead': 'leads',
};
export const CUSTOM_OBJECT_TARGET_PREFIX = 'zen:custom_object:';

/** The custom object key a target names (`zen:custom_object:<key>`), or null for other targets. */
export function targetObjectKey(target: string): string | null {
  return target.startsWith(CUSTOM_OBJECT_TARGET_PREFIX) ? target.slice(CUSTOM_OBJECT_TARGET_PREFIX.length) : null;
}

const RECORD_ID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** Lookup values are ids as strings (numbers are accepted for the CRM's integer ids). */
function checkLookupFormat(name: string, value: unknown, target: string): Checked {
  if (targetObjectKey(target) !== null) {
    return typeof value === 'string' && RECORD_ID.test(value) ? ok(value) : bad('InvalidValue', `${name} must be the id of a ${target} record (a 26-character string).`);
  }
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^[1-9]\d{0,15}$/.test(text)) return bad('InvalidValue', `${name} must be the id of a ${target} record.`);
  return ok(text);
}

/** Whether the record a lookup value names exists (users: active or deactivated, never removed ones). */
export function lookupTargetExists(ctx: EngineContext, target: string, id: string): boolean {
  const objectKey = targetObjectKey(target);
  if (objectKey !== null) {
    return ctx.statements.get(`SELECT 1 FROM custom_object_records r JOIN custom_objects o ON o.id = r.custom_object_id
      WHERE r.id = ? AND o.key = ?`).get(id, objectKey) !== undefined;
  }
  const table = LOOKUP_TARGET_TABLES[target];
  if (!table) return false;
  const live = table === 'users' ? ' AND deleted_at IS NULL' : '';
  return ctx.statements.get(`SELECT 1 FROM ${table} WHERE id = ?${live}`).get(Number(id)) !== undefined;
}

// ---------------------------------------------------------------- patterns

/**
 * Patterns are written for the real service (Ruby): `\A` and `\z`/`\Z` are
 * its anchors, which JavaScript lacks; they become `^` and `$`. Patterns run
 * with the `u` flag (strict syntax) and are not anchored otherwise: a value
 * matches when the pattern is found in it.
 */
export function toJsPattern(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i += 1) {
    const char = pattern[i];
    if (char !== '\\' || i + 1 >= pattern.length) {
      out += char;
      continue;
    }
    const next = pattern[i + 1];
    out += next === 'A' ? '^' : next === 'z' || next === 'Z' ? '$' : `\\${next}`;
    i += 1;
  }
  return out;
}

/** Why a pattern cannot be used, or null when it compiles. */
export function patternProblem(pattern: string): string | null {
  if (pattern.length > REGEXP_PATTERN_MAX) return `is too long (at most ${REGEXP_PATTERN_MAX} characters)`;
  try {
    new RegExp(toJsPattern(pattern), 'u');
    return null;
  } catch (error) {
    return `is not a valid regular expression (${(error as Error).message})`;
  }
}

/**
 * Matching runs in a separate V8 context with a time limit (platform/boundedRegexp.ts): an admin's
 * pattern with nested quantifiers (`(a+)+$`) can backtrack for hours on a
 * short value, and the engine serves every request on one thread.
 */
const MATCH_TIMEOUT_MS = 50;

export function regexpMatches(pattern: string, value: string): boolean | 'timeout' {
  return regexpTestWithin(toJsPattern(pattern), value, MATCH_TIMEOUT_MS);
}
