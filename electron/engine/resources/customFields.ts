import { z } from 'zod';
import { newRecordId, type EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { FieldErrors, invalidParam, notFound, problem } from '../problems.js';
import type { ErrorCode } from '../../../shared/errors.js';
import { jsonBool, jsonObject } from '../db/sqlJson.js';
import type { Clause } from './listing.js';
import type { SyncSource } from '../sync/sources.js';
import {
  CUSTOM_FIELD_TYPES, type CustomFieldDefinition, type CustomFieldResourceType, type CustomFieldValue,
} from '../../../shared/resources/customField.js';

const DEFINITION_JSON = jsonObject({
  id: 'd.id', resource_type: 'd.resource_type', name: 'd.name', type: 'd.type',
  filterable: jsonBool('d.filterable'), for_contact: jsonBool('d.for_contact'),
  for_organization: jsonBool('d.for_organization'), choices: 'json(d.choices)',
  created_at: 'd.created_at', updated_at: 'd.updated_at',
});

/**
 * Definitions as devices receive them (sync/): a replica checks the custom
 * field values of its local writes against them, as the hub does. One type
 * for contacts, leads and deals: their ids share one table.
 */
export const CUSTOM_FIELD_SYNC: SyncSource = { type: 'custom_field', from: 'custom_field_definitions d', idColumn: 'd.id', json: DEFINITION_JSON };

/** Line breaks, tabs and the other control characters: a name or choice is one line of printable text. */
const CONTROL_CHARACTERS = /[\p{Cc}\p{Zl}\p{Zp}]/u;

/**
 * A name is any printable text (apostrophes, quotes, accents, brackets: "Rep's
 * note", "Größe (cm)"); it becomes a JSON path through pathOf, which escapes it.
 */
const nameSchema = z.string({ error: 'must be text.' }).trim()
  .min(1, 'cannot be blank.')
  .max(255, 'must be at most 255 characters.')
  .refine((name) => !CONTROL_CHARACTERS.test(name), 'must not contain line breaks, tabs or other control characters.');
const choicesSchema = z.array(z.string({ error: 'must be text.' }).trim()
  .min(1, 'must not be blank.')
  .max(255, 'must be at most 255 characters.')
  .refine((choice) => !CONTROL_CHARACTERS.test(choice), 'must not contain line breaks, tabs or other control characters.'), { error: 'must be a list of choices.' })
  .min(1, 'must have at least one choice.').max(500, 'must have at most 500 choices.')
  .refine((c) => new Set(c).size === c.length, 'must not repeat a choice.');

const createSchema = z.strictObject({
  name: nameSchema,
  type: z.enum(CUSTOM_FIELD_TYPES, { error: `must be one of: ${CUSTOM_FIELD_TYPES.join(', ')}.` }),
  filterable: z.boolean({ error: 'must be a boolean.' }).optional(),
  for_contact: z.boolean({ error: 'must be a boolean.' }).optional(),
  for_organization: z.boolean({ error: 'must be a boolean.' }).optional(),
  choices: z.union([choicesSchema, z.array(z.object({ name: z.string() }).loose()).transform((c) => c.map((x) => x.name)).pipe(choicesSchema)]).nullable().optional(),
});
const updateSchema = createSchema.partial();

interface DefinitionRow {
  id: number;
  resource_type: CustomFieldResourceType;
  name: string;
  type: CustomFieldDefinition['type'];
  filterable: number;
  for_contact: number;
  for_organization: number;
  choices: string | null;
}

/**
 * The JSON path of a custom field value inside a record's `custom_fields`
 * column: the name as a quoted label, escaped as a JSON string is (a quote as
 * `\"`), which is how SQLite matches it against the stored key and how
 * PostgreSQL's sqlite_json_path (db/postgres/functions.ts) reads it.
 */
const pathOf = (name: string) => `$.${JSON.stringify(name)}`;

/**
 * Custom field definitions per resource type, managed by admins, and the
 * checks and queries that use them: value validation, filters and sorts.
 */
export class CustomFields {
  constructor(private readonly ctx: EngineContext) {}

  definitions(type: CustomFieldResourceType): Map<string, DefinitionRow> {
    const rows = this.ctx.db.prepare('SELECT * FROM custom_field_definitions WHERE resource_type = ? ORDER BY id').all(type) as DefinitionRow[];
    return new Map(rows.map((r) => [r.name, r]));
  }

  /** Every definition of the type as its API JSON, in id order (the whole list: there are never many). */
  listJson(type: CustomFieldResourceType): string[] {
    return this.ctx.db.prepare(`SELECT ${DEFINITION_JSON} FROM custom_field_definitions d WHERE d.resource_type = ? ORDER BY d.id`).pluck().all(type) as string[];
  }

  json(type: CustomFieldResourceType, id: number): string {
    const row = this.ctx.db.prepare(`SELECT ${DEFINITION_JSON} FROM custom_field_definitions d WHERE d.resource_type = ? AND d.id = ?`).pluck().get(type, id) as string | undefined;
    if (row === undefined) throw notFound('custom_field', id);
    return row;
  }

  create(type: CustomFieldResourceType, data: unknown, actorId: number | null = null): number {
    const input = parseOrThrow(createSchema, data);
    const listType = input.type === 'list' || input.type === 'multi_select_list';
    if (listType && !input.choices) throw problem('missing', 'choices are required for list fields.', '/choices', 'custom_field');
    if (!listType && input.choices) throw problem('incorrect_value', 'choices apply only to list fields.', '/choices', 'custom_field');
    if (this.definitions(type).has(input.name)) throw problem('already_exists', `A ${type} custom field named ${input.name} already exists.`, '/name', 'custom_field');
    const now = isoSeconds(this.ctx.clock.now());
    return this.ctx.db.transaction(() => {
      // Never a deleted definition's id: devices may still hold it.
      const id = newRecordId(this.ctx, 'custom_field_definitions', 'custom_field');
      this.ctx.db.prepare(`INSERT INTO custom_field_definitions
        (id, resource_type, name, type, filterable, for_contact, for_organization, choices, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
        id, type, input.name, input.type, Number(input.filterable ?? true), Number(input.for_contact ?? true),
        Number(input.for_organization ?? true), input.choices ? choiceJson(input.choices) : null, now, now);
      this.ctx.changes.record('custom_field', id, 'created', actorId);
      return id;
    })();
  }

  /** Renaming moves the stored values to the new name; the type cannot change. */
  update(type: CustomFieldResourceType, id: number, data: unknown, recordTable: string, actorId: number | null = null): void {
    const input = parseOrThrow(updateSchema, data);
    const current = this.ctx.db.prepare('SELECT * FROM custom_field_definitions WHERE resource_type = ? AND id = ?').get(type, id) as DefinitionRow | undefined;
    if (!current) throw notFound('custom_field', id);
    if (input.type && input.type !== current.type) throw problem('incorrect_value', 'The type of a custom field cannot change.', '/type', 'custom_field');
    const name = input.name ?? current.name;
    if (name !== current.name && this.definitions(type).has(name)) throw problem('already_exists', `A ${type} custom field named ${name} already exists.`, '/name', 'custom_field');
    const isList = current.type === 'list' || current.type === 'multi_select_list';
    if (input.choices && !isList) throw problem('incorrect_value', 'choices apply only to list fields.', '/choices', 'custom_field');
    const now = isoSeconds(this.ctx.clock.now());
    this.ctx.db.transaction(() => {
      this.ctx.db.prepare(`UPDATE custom_field_definitions SET name = ?, filterable = ?, for_contact = ?, for_organization = ?, choices = ?, updated_at = ? WHERE id = ?`).run(
        name, Number(input.filterable ?? current.filterable), Number(input.for_contact ?? current.for_contact),
        Number(input.for_organization ?? current.for_organization), input.choices ? choiceJson(input.choices) : current.choices, now, id);
      this.ctx.changes.record('custom_field', id, 'updated', actorId);
      if (name !== current.name) {
        this.rewriteValues(recordTable, type, current.name, (values) => renamedKey(values, current.name, name), actorId);
      }
    })();
  }

  /** Deleting a definition removes its values from every record (each such record counts as updated). */
  delete(type: CustomFieldResourceType, id: number, recordTable: string, actorId: number | null = null): void {
    const current = this.ctx.db.prepare('SELECT * FROM custom_field_definitions WHERE resource_type = ? AND id = ?').get(type, id) as DefinitionRow | undefined;
    if (!current) throw notFound('custom_field', id);
    this.ctx.db.transaction(() => {
      this.rewriteValues(recordTable, type, current.name, (values) => renamedKey(values, current.name, null), actorId);
      this.ctx.db.prepare('DELETE FROM custom_field_definitions WHERE id = ?').run(id);
      this.ctx.changes.record('custom_field', id, 'deleted', actorId);
    })();
  }

  /**
   * Rewrites the custom fields of every record holding a value of `name`,
   * in code rather than SQL: a value keeps its JSON type on both backends
   * (PostgreSQL's json_extract answers text) and a name needs no escaping.
   */
  private rewriteValues(table: string, type: string, name: string, rewrite: (values: Record<string, unknown>) => Record<string, unknown>, actorId: number | null): void {
    const now = isoSeconds(this.ctx.clock.now());
    const rows = this.ctx.db.prepare(`SELECT id, custom_fields FROM ${table} WHERE json_extract(custom_fields, ?) IS NOT NULL`).all(pathOf(name)) as { id: number; custom_fields: string }[];
    const update = this.ctx.db.prepare(`UPDATE ${table} SET custom_fields = ?, updated_at = ? WHERE id = ?`);
    for (const row of rows) {
      update.run(JSON.stringify(rewrite(JSON.parse(row.custom_fields) as Record<string, unknown>)), now, row.id);
      this.ctx.changes.record(type, row.id, 'updated', actorId);
    }
  }

  /**
   * A record's `custom_fields` column after a write that gave `custom_fields`
   * (the stored JSON text, merged with the given object; null clears them all
   * as an empty object would: fields are kept unless given).
   */
  mergeColumn(type: CustomFieldResourceType, storedJson: string | undefined, given: unknown, errors: FieldErrors, isOrganization = false): string {
    const stored = JSON.parse(storedJson ?? '{}') as Record<string, CustomFieldValue>;
    return JSON.stringify(this.merge(type, stored, (given ?? {}) as Record<string, unknown>, isOrganization, errors));
  }

  /**
   * Checks custom field values against the definitions and merges them into
   * the stored ones: a null value clears a field, other fields are kept.
   */
  merge(
    type: CustomFieldResourceType, stored: Record<string, CustomFieldValue>, given: Record<string, unknown>,
    isOrganization: boolean, errors: FieldErrors,
  ): Record<string, CustomFieldValue> {
    const defs = this.definitions(type);
    // No prototype: a field may be called anything, `__proto__` included.
    const result: Record<string, CustomFieldValue> = Object.assign(Object.create(null), stored);
    for (const [name, value] of Object.entries(given)) {
      const pointer = `/custom_fields/${name}`;
      const def = defs.get(name);
      if (!def) {
        errors.add(pointer, 'unknown', `${name} is not a custom field of ${type}s.`);
        continue;
      }
      if (value === null || value === '') {
        delete result[name];
        continue;
      }
      if (type === 'contact' && !(isOrganization ? def.for_organization : def.for_contact)) {
        errors.add(pointer, 'incorrect_value', `${name} does not apply to ${isOrganization ? 'organizations' : 'individuals'}.`);
        continue;
      }
      const checked = checkValue(def, value);
      if (checked.ok) result[name] = checked.value;
      else errors.add(pointer, 'incorrect_value', `${name} ${checked.problem}`);
    }
    return result;
  }

  /** `custom_fields[<name>]=value` for a defined, filterable field. */
  filter(type: CustomFieldResourceType, param: string, value: string, jsonColumn: string): Clause | undefined {
    const match = /^custom_fields\[(.+)\]$/.exec(param);
    if (!match) return undefined;
    const def = this.definitions(type).get(match[1]);
    if (!def || !def.filterable) throw invalidParam(param, `${match[1]} is not a filterable custom field`);
    const path = pathOf(def.name);
    if (def.type === 'multi_select_list') {
      return { sql: `EXISTS (SELECT 1 FROM json_each(${jsonColumn}, ?) WHERE value = ?)`, params: [path, value] };
    }
    if (def.type === 'number') {
      const number = Number(value);
      if (value.trim() === '' || !Number.isFinite(number)) throw invalidParam(param, `must be a number, given: ${value}`);
      // Compared as numbers on both backends (PostgreSQL's json_extract gives text: db/postgres/functions.ts).
      return { sql: `CAST(json_extract(${jsonColumn}, ?) AS REAL) = ?`, params: [path, number] };
    }
    return { sql: `json_extract(${jsonColumn}, ?) = ?`, params: [path, value] };
  }

  /** `sort_by=custom_fields:<name>`: the SQL expression, or undefined if not a filterable field. */
  sort(type: CustomFieldResourceType, sortName: string, jsonColumn: string): string | undefined {
    const match = /^custom_fields:(.+)$/.exec(sortName);
    if (!match) return undefined;
    const def = this.definitions(type).get(match[1]);
    if (!def || !def.filterable) return undefined;
    // Spliced as a string literal (a sort is an expression, not a parameter): its apostrophes doubled.
    const value = `json_extract(${jsonColumn}, '${pathOf(def.name).replace(/'/g, "''")}')`;
    return def.type === 'number' ? `CAST(${value} AS REAL)` : value;
  }
}

/** The values with `from`'s value under `to` (in its place), or without it when `to` is null. */
function renamedKey(values: Record<string, unknown>, from: string, to: string | null): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).flatMap(([key, value]): [string, unknown][] => (key !== from ? [[key, value]] : to === null ? [] : [[to, value]])));
}

function choiceJson(names: string[]): string {
  return JSON.stringify(names.map((name, i) => ({ id: i + 1, name })));
}

type Checked = { ok: true; value: CustomFieldValue } | { ok: false; problem: string };

/** The stored form of a value, or what is wrong with it. */
function checkValue(def: DefinitionRow, value: unknown): Checked {
  const choices = def.choices ? (JSON.parse(def.choices) as { name: string }[]).map((c) => c.name) : [];
  const fail = (problem: string): Checked => ({ ok: false, problem });
  switch (def.type) {
    case 'number': {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      return typeof n === 'number' && Number.isFinite(n) ? { ok: true, value: n } : fail('must be a number.');
    }
    case 'string':
      return typeof value === 'string' && value.length <= 255 ? { ok: true, value } : fail('must be a string of at most 255 characters.');
    case 'list':
      return typeof value === 'string' && choices.includes(value) ? { ok: true, value } : fail(`must be one of: ${choices.join(', ')}.`);
    case 'multi_select_list':
      return Array.isArray(value) && value.every((v) => typeof v === 'string' && choices.includes(v))
        ? { ok: true, value: [...new Set(value as string[])] }
        : fail(`must be a list of: ${choices.join(', ')}.`);
  }
}

/** A missing attribute is `missing`, a blank name `blank`, anything else wrong `incorrect_value`. */
function codeOf(issue: z.core.$ZodIssue): ErrorCode {
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'missing';
  if (issue.code === 'too_small' && issue.origin === 'string') return 'blank';
  return 'incorrect_value';
}

function parseOrThrow<T extends z.ZodType>(schema: T, data: unknown): z.infer<T> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const errors = new FieldErrors('custom_field');
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) errors.add(`/${key}`, 'unknown', `${key} is not an attribute of custom_field.`);
    } else {
      const field = issue.path.map(String).join('/');
      errors.add(`/${field}`, codeOf(issue), `${field} ${issue.message}`);
    }
  }
  errors.throwIfAny();
  throw new Error('unreachable');
}
