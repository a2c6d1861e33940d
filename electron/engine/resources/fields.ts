import { z } from 'zod';
import { ADDRESS_KEYS } from '../../../shared/resources/address.js';
import type { ErrorCode } from '../../../shared/errors.js';
import { FieldErrors } from '../problems.js';
import { parseDateTime } from './params.js';
import { isoSeconds } from '../clock.js';

/**
 * The field table of a resource: what each field is and who may write it.
 * Type checks are zod schemas; their issues are mapped onto the real
 * service's error codes (invalid_type, incorrect_value, unknown, blank).
 */
export type FieldDef =
  | { kind: 'readOnly' }
  | { kind: 'string'; maxLength?: number; createOnly?: boolean }
  | { kind: 'datetime' }
  | { kind: 'integer'; min?: number }
  | { kind: 'idList' }
  | { kind: 'id'; createOnly?: boolean }
  | { kind: 'boolean'; createOnly?: boolean }
  | { kind: 'enum'; values: readonly string[]; createOnly?: boolean; nullable?: boolean }
  | { kind: 'address' }
  | { kind: 'tags' }
  | { kind: 'customFields' };

export type FieldTable = Record<string, FieldDef>;

const SHORT_TEXT = 255;

// Record ids are positive on a hub; a replica's records not yet on the hub have negative (temporary) ones.
const idSchema = z.union([
  z.number().int().refine((n) => n !== 0),
  z.string().regex(/^-?[1-9]\d{0,14}$/).transform(Number),
]);
const addressSchema = z
  .strictObject(Object.fromEntries(ADDRESS_KEYS.map((k) => [k, z.string().max(SHORT_TEXT).nullable().optional()])))
  .nullable();
/** ISO 8601 with any offset (`Z`, `+00:00`, `+0000`); stored and answered in UTC. */
const dateTimeSchema = z.string().transform((text, ctx) => {
  const date = parseDateTime(text);
  if (date) return isoSeconds(date);
  ctx.addIssue({ code: 'custom', message: 'not a date-time' });
  return z.NEVER;
});
const tagsSchema = z.array(z.string().trim().min(1).max(SHORT_TEXT)).max(100).nullable();
// Kept as sent (customFields.merge checks each value): z.record would copy it, and the copy drops a field named `__proto__`.
const customFieldsSchema = z.custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v)).nullable();

export function schemaFor(def: FieldDef): z.ZodType | null {
  switch (def.kind) {
    case 'readOnly': return null;
    case 'string': return z.string().max(def.maxLength ?? SHORT_TEXT).nullable();
    case 'id': return idSchema.nullable();
    case 'datetime': return dateTimeSchema.nullable();
    case 'integer': return z.union([z.number().int(), z.string().regex(/^-?\d{1,15}$/).transform(Number)]).pipe(z.number().min(def.min ?? Number.MIN_SAFE_INTEGER)).nullable();
    case 'idList': return z.array(idSchema).max(1000).nullable();
    case 'boolean': return z.boolean();
    case 'enum': {
      const values = z.enum(def.values as [string, ...string[]]);
      return def.nullable ? values.nullable() : values;
    }
    case 'address': return addressSchema;
    case 'tags': return tagsSchema;
    case 'customFields': return customFieldsSchema;
  }
}

const TYPE_NAMES: Record<FieldDef['kind'], string> = {
  readOnly: 'read-only', string: 'a string', integer: 'an integer', idList: 'an array of numeric ids', datetime: 'an ISO 8601 date-time (e.g. 2026-03-02T10:00:00Z)', id: 'a numeric id', boolean: 'a boolean (true or false)',
  enum: 'a string', address: 'an address object', tags: 'an array of strings', customFields: 'an object',
};

/** Validated, typed values of the fields present in the request, plus any errors found. */
export interface CheckedInput {
  values: Record<string, unknown>;
  errors: FieldErrors;
}

/**
 * Checks `data` against a field table. Unknown attributes are `unknown`;
 * read-only fields are accepted and ignored, so a client can send back
 * what GET returned. Rules that involve several fields are the resource's.
 */
export function checkFields(resource: string, table: FieldTable, data: Record<string, unknown>): CheckedInput {
  const errors = new FieldErrors(resource);
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(data)) {
    // Own properties only: a field named `constructor` or `__proto__` is not in any table.
    const def = Object.hasOwn(table, name) ? table[name] : undefined;
    if (!def) {
      errors.add(`/${name}`, 'unknown', `${name} is not an attribute of ${resource}.`);
      continue;
    }
    const schema = schemaFor(def);
    if (!schema) continue;
    const parsed = schema.safeParse(value);
    if (parsed.success) {
      values[name] = parsed.data;
    } else {
      for (const issue of parsed.error.issues) {
        const pointer = `/${[name, ...issue.path.map(String)].join('/')}`;
        const [code, message] = describeIssue(issue, def, name);
        for (const key of issue.code === 'unrecognized_keys' ? issue.keys : [null]) {
          errors.add(key ? `${pointer}/${key}` : pointer, code, key ? `${key} is not an attribute of ${name}.` : message);
        }
      }
    }
  }
  return { values, errors };
}

function describeIssue(issue: z.core.$ZodIssue, def: FieldDef, name: string): [ErrorCode, string] {
  switch (issue.code) {
    case 'too_big':
      return ['incorrect_value', `${name} is too long (maximum is ${String(issue.maximum)}${issue.origin === 'array' ? ' items' : ' characters'}).`];
    case 'too_small':
      return issue.origin === 'number'
        ? ['incorrect_value', `${name} must be at least ${String(issue.minimum)}.`]
        : ['blank', `${name} can't contain blank values.`];
    case 'invalid_value':
      return ['incorrect_value', `${name} must be one of: ${issue.values.map(String).join(', ')}.`];
    case 'unrecognized_keys':
      return ['unknown', `${name} has unknown attributes.`];
    default:
      return ['invalid_type', `${name} must be ${TYPE_NAMES[def.kind]}.`];
  }
}

/**
 * Copies checked values onto a stored row, except the `skip` fields (the
 * resource's own: tags, custom fields): an address fills its `<field>_<key>`
 * columns, and a given address replaces the whole one (keys left out become
 * empty); other values as they are, blanks as NULL.
 */
export function assignColumns(row: Record<string, unknown>, values: Record<string, unknown>, table: FieldTable, skip: readonly string[]): void {
  for (const [field, value] of Object.entries(values)) {
    if (skip.includes(field)) continue;
    if (table[field]?.kind !== 'address') {
      row[field] = blankToNull(value);
      continue;
    }
    const address = (value ?? {}) as Partial<Record<string, string | null>>;
    for (const key of ADDRESS_KEYS) row[`${field}_${key}`] = blankToNull(address[key] ?? null);
  }
}

/** Empty strings are stored as NULL: to a person "" and "not set" are the same. */
export function blankToNull(value: unknown): unknown {
  return typeof value === 'string' && value.trim() === '' ? null : value;
}

export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}
