import type { Actor, EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import type { Accounts } from '../resources/account.js';
import { PLAN_LIMITS, PLANS } from '../../../shared/resources/account.js';
import type { CustomObjectRow } from './objectRows.js';
import { RecordInvalid, recordInvalid, recordNotFound } from './problems.js';
import {
  FIELD_TYPES, LOOKUP_TARGET_TABLES, patternProblem, targetObjectKey, type FieldOption, type FieldType, type ValueField,
} from './values.js';

/**
 * Field definitions of a custom object (`/api/v2/custom_objects/{key}/fields`),
 * as the real service's custom object fields: the object's schema, which
 * admins change at run time. Two standard fields, `standard::name` and
 * `standard::external_id`, describe the record's own `name` and
 * `external_id`: they are stored as rows too (created on first use), listed
 * first with `system: true`, never counted against the field limit, and only
 * their `title` and `description` can change (as the real service allows).
 */

/** Custom fields per object (the spec's limit; standard fields are not counted). */
export const FIELD_LIMIT = 100;
export const OPTION_LIMIT = 2_000;
export const FIELD_TITLE_MAX = 255;
export const FIELD_DESCRIPTION_MAX = 1_000;
export const OPTION_TEXT_MAX = 255;
export const POSITION_MAX = 9_999;
/** The real service's field keys: letters, digits and underscores, not only digits. Outpost caps them at 64 characters. */
export const FIELD_KEY = /^(?![0-9]+$)[A-Za-z0-9_]{1,64}$/;

const STANDARD_PREFIX = 'standard::';
const STANDARD_FIELDS = [
  { key: 'standard::name', title: 'Name', position: 0 },
  { key: 'standard::external_id', title: 'External id', position: 1 },
] as const;

/** What an admin may send; anything else is refused as UnknownField. */
const WRITABLE = ['key', 'type', 'title', 'description', 'position', 'active', 'regexp_for_validation', 'custom_field_options', 'relationship_target_type', 'relationship_filter'];
/** Read-only attributes a client may send back from GET (ignored). */
const ECHOED = ['id', 'system', 'url', 'created_at', 'updated_at', 'raw_title', 'raw_description'];
/** What a standard field lets an admin change. */
const STANDARD_WRITABLE = ['title', 'description'];

interface FieldRow {
  id: number;
  custom_object_id: number;
  key: string;
  type: FieldType;
  title: string;
  description: string | null;
  position: number;
  active: number;
  regexp_for_validation: string | null;
  options_json: string | null;
  relationship_target_type: string | null;
  created_at: string;
  updated_at: string;
}

/** A custom (non-standard) field as records use it. */
export interface FieldDefinition extends ValueField {
  id: number;
  active: boolean;
}

/** (supportApi.ts has the same test; the engine's modules do not import the HTTP layer's.) */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON path to a key of `fields_json` (keys are letters, digits and underscores). */
export const valuePath = (key: string) => `$."${key}"`;

/** `/api/v2/custom_objects/{key}/fields/…` links, from the support base URL. */
export const fieldUrl = (base: string, objectKey: string, id: number) => `${base}/api/v2/custom_objects/${objectKey}/fields/${id}.json`;

export class CustomObjectFields {
  constructor(private readonly ctx: EngineContext, private readonly accounts: Accounts) {}

  // ------------------------------------------------------------ reading

  /** Every field, standard ones first, then by position. */
  listJson(object: CustomObjectRow, base: string): { custom_object_fields: Record<string, unknown>[] } {
    return { custom_object_fields: this.rows(object).map((row) => fieldJson(row, object.key, base)) };
  }

  json(object: CustomObjectRow, keyOrId: string, base: string): { custom_object_field: Record<string, unknown> } {
    return { custom_object_field: fieldJson(this.require(object, keyOrId), object.key, base) };
  }

  /** The object's custom fields (standard ones excluded), in display order, as record validation uses them. */
  definitions(objectId: number): FieldDefinition[] {
    const rows = this.ctx.statements.get(`SELECT * FROM custom_object_fields WHERE custom_object_id = ? AND key NOT LIKE 'standard::%'
      ORDER BY position, id`).all(objectId) as FieldRow[];
    return rows.map(definition);
  }

  /** The real service's field limit endpoint: how many custom fields the object has, and may have. */
  limitJson(object: CustomObjectRow): { count: number; limit: number } {
    return { count: this.customFieldCount(object.id), limit: FIELD_LIMIT };
  }

  private rows(object: CustomObjectRow): FieldRow[] {
    this.ensureStandardFields(object);
    return this.ctx.statements.get(`SELECT * FROM custom_object_fields WHERE custom_object_id = ?
      ORDER BY CASE WHEN key LIKE 'standard::%' THEN 0 ELSE 1 END, position, id`).all(object.id) as FieldRow[];
  }

  /** The field a path names: digits are an id (keys can't be only digits), anything else a key. */
  private require(object: CustomObjectRow, keyOrId: string): FieldRow {
    this.ensureStandardFields(object);
    const byId = /^\d+$/.test(keyOrId);
    const row = this.ctx.statements.get(`SELECT * FROM custom_object_fields WHERE custom_object_id = ? AND ${byId ? 'id' : 'key'} = ?`)
      .get(object.id, byId ? Number(keyOrId) : keyOrId) as FieldRow | undefined;
    if (!row) throw recordNotFound(`Custom object field '${keyOrId}' not found on '${object.key}'`);
    return row;
  }

  /** Standard fields exist for every object; rows are made the first time the object's fields are used. */
  private ensureStandardFields(object: CustomObjectRow): void {
    const exists = this.ctx.statements.get("SELECT COUNT(*) FROM custom_object_fields WHERE custom_object_id = ? AND key LIKE 'standard::%'")
      .pluck().get(object.id) as number;
    if (exists === STANDARD_FIELDS.length) return;
    const insert = this.ctx.statements.get(`INSERT OR IGNORE INTO custom_object_fields
      (custom_object_id, key, type, title, position, created_at, updated_at) VALUES (?, ?, 'text', ?, ?, ?, ?)`);
    this.ctx.db.transaction(() => {
      for (const field of STANDARD_FIELDS) insert.run(object.id, field.key, field.title, field.position, object.created_at, object.created_at);
    })();
  }

  private customFieldCount(objectId: number): number {
    return this.ctx.statements.get("SELECT COUNT(*) FROM custom_object_fields WHERE custom_object_id = ? AND key NOT LIKE 'standard::%'")
      .pluck().get(objectId) as number;
  }

  // ------------------------------------------------------------ writing

  /** Creates a field (admins; the route checks the role). Every problem of the request in one 422. */
  create(object: CustomObjectRow, data: Record<string, unknown>, _actor: Actor): number {
    const errors = new RecordInvalid();
    refuseUnknown(data, errors);
    const key = this.checkNewKey(object, data.key, errors);
    const type = checkType(data.type, errors);
    const title = checkTitle(data.title, errors);
    const description = checkText(data.description, 'description', FIELD_DESCRIPTION_MAX, errors, false);
    const position = checkPosition(data.position, errors) ?? this.nextPosition(object.id);
    const active = checkActive(data.active, errors) ?? true;
    const settings = type ? this.checkTypeSettings(object, type, data, null, errors) : null;
    this.checkLimits(object, type, errors);
    checkRelationshipFilter(data.relationship_filter, errors);
    errors.check();
    const now = isoSeconds(this.ctx.clock.now());
    return this.ctx.db.transaction(() => {
      const options = settings!.options ? this.assignOptionIds(settings!.options) : null;
      const info = this.ctx.statements.get(`INSERT INTO custom_object_fields (custom_object_id, key, type, title, description, position, active,
        regexp_for_validation, options_json, relationship_target_type, created_at, updated_at)
        VALUES (@objectId, @key, @type, @title, @description, @position, @active, @regexp, @options, @target, @now, @now)`).run({
        objectId: object.id, key, type, title, description: description ?? null, position, active: active ? 1 : 0,
        regexp: settings!.regexp, options: options ? JSON.stringify(options) : null, target: settings!.target, now,
      });
      return Number(info.lastInsertRowid);
    })();
  }

  /** Changes a field; `key`, `type` and a lookup's target are fixed once created, standard fields change only title and description. */
  update(object: CustomObjectRow, keyOrId: string, data: Record<string, unknown>, _actor: Actor): number {
    const current = this.require(object, keyOrId);
    const errors = new RecordInvalid();
    refuseUnknown(data, errors);
    refuseChanges(current, data, errors);
    const title = data.title !== undefined ? checkTitle(data.title, errors) : current.title;
    const description = data.description !== undefined ? checkText(data.description, 'description', FIELD_DESCRIPTION_MAX, errors, false) : current.description;
    const standard = current.key.startsWith(STANDARD_PREFIX);
    const position = standard ? current.position : checkPosition(data.position, errors) ?? current.position;
    const active = standard ? true : checkActive(data.active, errors) ?? current.active === 1;
    const settings = standard ? null : this.checkTypeSettings(object, current.type, data, current, errors);
    checkRelationshipFilter(data.relationship_filter, errors);
    errors.check();
    const now = isoSeconds(this.ctx.clock.now());
    this.ctx.db.transaction(() => {
      const options = settings?.options ? this.assignOptionIds(settings.options) : parseOptions(current.options_json);
      if (settings?.options) this.remapRecordValues(object.id, current, parseOptions(current.options_json), options!);
      this.ctx.statements.get(`UPDATE custom_object_fields SET title = @title, description = @description, position = @position, active = @active,
        regexp_for_validation = @regexp, options_json = @options, updated_at = @now WHERE id = @id`).run({
        id: current.id, title, description: description ?? null, position, active: active ? 1 : 0,
        regexp: settings?.regexp ?? current.regexp_for_validation, options: options ? JSON.stringify(options) : null, now,
      });
    })();
    return current.id;
  }

  /** Deletes a field and, in the same transaction, its values in every record of the object. Standard fields stay. */
  delete(object: CustomObjectRow, keyOrId: string, _actor: Actor): void {
    const current = this.require(object, keyOrId);
    if (current.key.startsWith(STANDARD_PREFIX)) throw recordInvalid('base', 'ReadOnly', `The standard field ${current.key} can't be deleted.`);
    this.ctx.db.transaction(() => {
      this.ctx.statements.get('UPDATE custom_object_records SET fields_json = json_remove(fields_json, ?) WHERE custom_object_id = ?')
        .run(valuePath(current.key), object.id);
      this.ctx.statements.get('DELETE FROM custom_object_fields WHERE id = ?').run(current.id);
    })();
  }

  /**
   * The real service's reorder: `{"custom_object_field_ids": [...]}` lists
   * every custom field id once, in the new order (standard fields stay first).
   */
  reorder(object: CustomObjectRow, body: unknown): void {
    const ids = isPlainObject(body) ? body.custom_object_field_ids : undefined;
    const current = this.definitions(object.id).map((f) => f.id);
    const valid = Array.isArray(ids) && ids.length === current.length && new Set(ids).size === ids.length
      && ids.every((id) => typeof id === 'number' && current.includes(id));
    if (!valid) {
      throw recordInvalid('custom_object_field_ids', 'InvalidValue', `Send every custom field id of '${object.key}' once, in the new order: ${current.join(', ') || '(none)'}.`);
    }
    const now = isoSeconds(this.ctx.clock.now());
    const update = this.ctx.statements.get('UPDATE custom_object_fields SET position = ?, updated_at = ? WHERE id = ?');
    this.ctx.db.transaction(() => (ids as number[]).forEach((id, index) => update.run(index, now, id)))();
  }

  // ------------------------------------------------------------ rules

  private checkNewKey(object: CustomObjectRow, key: unknown, errors: RecordInvalid): string | null {
    if (key === undefined || key === null || key === '') {
      errors.add('key', 'BlankValue', 'Key: cannot be blank');
      return null;
    }
    if (typeof key !== 'string' || !FIELD_KEY.test(key)) {
      errors.add('key', 'InvalidFormat', 'Key: must be 1 to 64 letters, digits and underscores, and not only digits');
      return null;
    }
    const taken = this.ctx.statements.get('SELECT 1 FROM custom_object_fields WHERE custom_object_id = ? AND key = ?').get(object.id, key);
    if (taken) errors.add('key', 'DuplicateValue', `Key: '${key}' is already taken by another field of '${object.key}'`);
    return key;
  }

  /** The settings only some types have; each is refused on the types without it. */
  private checkTypeSettings(object: CustomObjectRow, type: FieldType, data: Record<string, unknown>, current: FieldRow | null, errors: RecordInvalid) {
    const regexp = type === 'regexp' ? checkPattern(data.regexp_for_validation, current, errors) : refuseSetting(data, 'regexp_for_validation', type, errors);
    const hasOptions = type === 'dropdown' || type === 'multiselect';
    const options = hasOptions ? checkOptions(data.custom_field_options, current, errors) : refuseSetting(data, 'custom_field_options', type, errors);
    const target = type === 'lookup' ? (current ? current.relationship_target_type : this.checkTarget(data.relationship_target_type, errors))
      : refuseSetting(data, 'relationship_target_type', type, errors);
    return { regexp, options, target };
  }

  private checkTarget(target: unknown, errors: RecordInvalid): string | null {
    const allowed = `${Object.keys(LOOKUP_TARGET_TABLES).join(', ')} or zen:custom_object:<key>`;
    if (target === undefined || target === null || target === '') {
      errors.add('relationship_target_type', 'BlankValue', `Relationship target type: a lookup field needs one (${allowed})`);
      return null;
    }
    const objectKey = typeof target === 'string' ? targetObjectKey(target) : null;
    if (typeof target !== 'string' || (objectKey === null && !LOOKUP_TARGET_TABLES[target])) {
      errors.add('relationship_target_type', 'InvalidValue', `Relationship target type: must be ${allowed}`);
      return null;
    }
    if (objectKey !== null && !this.ctx.statements.get('SELECT 1 FROM custom_objects WHERE key = ?').get(objectKey)) {
      errors.add('relationship_target_type', 'InvalidValue', `Relationship target type: there is no custom object '${objectKey}'`);
      return null;
    }
    return target;
  }

  /** 100 custom fields per object; lookup fields per object by plan. Lowering a plan keeps existing fields, it only refuses new ones. */
  private checkLimits(object: CustomObjectRow, type: FieldType | null, errors: RecordInvalid): void {
    if (this.customFieldCount(object.id) >= FIELD_LIMIT) {
      errors.add('base', 'LimitExceeded', `'${object.key}' already has ${FIELD_LIMIT} fields, the most a custom object can have (standard fields not counted).`);
    }
    if (type !== 'lookup') return;
    const plan = this.accounts.plan();
    const limit = PLAN_LIMITS[plan].lookupFields;
    const lookups = this.ctx.statements.get("SELECT COUNT(*) FROM custom_object_fields WHERE custom_object_id = ? AND type = 'lookup'")
      .pluck().get(object.id) as number;
    if (lookups >= limit) {
      const perPlan = PLANS.map((p) => `${p} ${PLAN_LIMITS[p].lookupFields}`).join(', ');
      errors.add('base', 'LimitExceeded', `'${object.key}' already has ${lookups} lookup fields, the most the ${plan} plan allows per custom object (${limit}; by plan: ${perPlan}).`);
    }
  }

  private nextPosition(objectId: number): number {
    const max = this.ctx.statements.get("SELECT MAX(position) FROM custom_object_fields WHERE custom_object_id = ? AND key NOT LIKE 'standard::%'")
      .pluck().get(objectId) as number | null;
    return max === null ? 0 : Math.min(max + 1, POSITION_MAX);
  }

  /** New options get ids unique among every field's options (the real service's option ids are account-wide too). */
  private assignOptionIds(options: NewOption[]): FieldOption[] {
    let next = (this.ctx.statements.get(`SELECT COALESCE(MAX(CAST(json_extract(o.value, '$.id') AS INTEGER)), 0) FROM custom_object_fields f, json_each(f.options_json) o
      WHERE f.options_json IS NOT NULL`).pluck().get() as number) + 1;
    return options.map((o, position) => ({ id: o.id ?? next++, name: o.name, value: o.value, position }));
  }

  /**
   * Records keep option values: when an option's value is renamed the
   * records follow, and a removed option's value leaves every record.
   * Runs in the caller's transaction.
   */
  private remapRecordValues(objectId: number, field: FieldRow, before: FieldOption[] | null, after: FieldOption[]): void {
    const renamed = new Map<string, string | null>();
    for (const old of before ?? []) {
      const kept = after.find((o) => o.id === old.id);
      if (kept?.value !== old.value) renamed.set(old.value, kept ? kept.value : null);
    }
    // Multiselect values are kept in the options' order, so a reorder rewrites them too.
    if (renamed.size === 0 && field.type !== 'multiselect') return;
    const path = valuePath(field.key);
    const records = this.ctx.statements.get('SELECT id, json_extract(fields_json, ?) AS value FROM custom_object_records WHERE custom_object_id = ? AND json_type(fields_json, ?) IS NOT NULL')
      .all(path, objectId, path) as { id: string; value: string }[];
    const set = this.ctx.statements.get('UPDATE custom_object_records SET fields_json = json_set(fields_json, ?, json(?)) WHERE id = ?');
    for (const record of records) {
      const value = remapValue(field.type, record.value, renamed, after);
      set.run(path, JSON.stringify(value), record.id);
    }
  }
}

// ---------------------------------------------------------------- JSON

function fieldJson(row: FieldRow, objectKey: string, base: string): Record<string, unknown> {
  const options = parseOptions(row.options_json);
  return {
    id: row.id,
    key: row.key,
    type: row.type,
    // No dynamic-content items exist here: a {{dc.…}} placeholder renders as itself, so title and raw_title agree.
    title: row.title,
    raw_title: row.title,
    description: row.description,
    raw_description: row.description,
    position: row.position,
    active: row.active === 1,
    system: row.key.startsWith(STANDARD_PREFIX),
    regexp_for_validation: row.regexp_for_validation,
    custom_field_options: options ? options.map((o) => ({ id: o.id, name: o.name, raw_name: o.name, value: o.value, position: o.position })) : null,
    relationship_target_type: row.relationship_target_type,
    url: fieldUrl(base, objectKey, row.id),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function definition(row: FieldRow): FieldDefinition {
  return {
    id: row.id, key: row.key, type: row.type, title: row.title, active: row.active === 1,
    regexp_for_validation: row.regexp_for_validation, options: parseOptions(row.options_json) ?? [],
    relationship_target_type: row.relationship_target_type,
  };
}

function parseOptions(json: string | null): FieldOption[] | null {
  return json === null ? null : (JSON.parse(json) as FieldOption[]);
}

function remapValue(type: FieldType, value: string, renamed: Map<string, string | null>, options: FieldOption[]): string | string[] | null {
  if (type === 'dropdown') return renamed.has(value) ? renamed.get(value)! : value;
  const values = (JSON.parse(value) as string[]).map((v) => (renamed.has(v) ? renamed.get(v)! : v));
  const kept = options.filter((o) => values.includes(o.value)).map((o) => o.value);
  return kept.length > 0 ? kept : null;
}

// ---------------------------------------------------------------- attribute checks

function refuseUnknown(data: Record<string, unknown>, errors: RecordInvalid): void {
  for (const name of Object.keys(data)) {
    if (!WRITABLE.includes(name) && !ECHOED.includes(name)) errors.add(name, 'UnknownField', `${name} is not an attribute of a custom object field.`);
  }
}

/** Create-only attributes, and everything but title and description on a standard field: sending the current value is fine. */
function refuseChanges(current: FieldRow, data: Record<string, unknown>, errors: RecordInvalid): void {
  const standard = current.key.startsWith(STANDARD_PREFIX);
  const served = fieldJson(current, '', '');
  for (const name of WRITABLE) {
    if (data[name] === undefined || (standard ? STANDARD_WRITABLE.includes(name) : !['key', 'type', 'relationship_target_type'].includes(name))) continue;
    if (name === 'relationship_filter' || JSON.stringify(data[name]) === JSON.stringify(served[name])) continue;
    const why = standard ? `only the title and description of the standard field ${current.key} can change` : 'can be set only when the field is created';
    errors.add(name, 'ReadOnly', `${name}: ${why}`);
  }
}

function checkType(type: unknown, errors: RecordInvalid): FieldType | null {
  if (type === undefined) return 'text';
  if (typeof type !== 'string' || !(FIELD_TYPES as readonly string[]).includes(type)) {
    errors.add('type', 'InvalidValue', `Type: must be one of ${FIELD_TYPES.join(', ')}`);
    return null;
  }
  return type as FieldType;
}

/** A title or description: trimmed; a required one can't be blank, an optional one clears when blank. */
export function checkText(value: unknown, name: string, max: number, errors: RecordInvalid, required: boolean): string | null {
  const label = name[0].toUpperCase() + name.slice(1).replace(/_/g, ' ');
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    if (required) errors.add(name, 'BlankValue', `${label}: cannot be blank`);
    return null;
  }
  if (typeof value !== 'string') {
    errors.add(name, 'InvalidValue', `${label}: must be a string`);
    return null;
  }
  if (value.trim().length > max) errors.add(name, 'TooLong', `${label}: is too long (at most ${max} characters)`);
  return value.trim();
}

/** Line breaks, tabs and the other control characters. */
const CONTROL_CHARACTERS = /[\p{Cc}\p{Zl}\p{Zp}]/u;

/** A field's title: one line of any printable text ("Rep's note", "Größe (cm)"), never a control character. */
function checkTitle(value: unknown, errors: RecordInvalid): string | null {
  const title = checkText(value, 'title', FIELD_TITLE_MAX, errors, true);
  if (title !== null && CONTROL_CHARACTERS.test(title)) errors.add('title', 'InvalidValue', 'Title: must not contain line breaks, tabs or other control characters');
  return title;
}

function checkPosition(value: unknown, errors: RecordInvalid): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > POSITION_MAX) {
    errors.add('position', 'InvalidValue', `Position: must be a whole number from 0 to ${POSITION_MAX}`);
    return undefined;
  }
  return value as number;
}

function checkActive(value: unknown, errors: RecordInvalid): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') errors.add('active', 'InvalidValue', 'Active: must be true or false');
  return typeof value === 'boolean' ? value : undefined;
}

/** A regexp field's pattern: required, compiling, and short (long patterns and values make matching slow). */
function checkPattern(value: unknown, current: FieldRow | null, errors: RecordInvalid): string | null {
  if (value === undefined && current) return current.regexp_for_validation;
  if (typeof value !== 'string' || value === '') {
    errors.add('regexp_for_validation', 'BlankValue', 'Regexp for validation: a regexp field needs a pattern');
    return null;
  }
  const problem = patternProblem(value);
  if (problem) errors.add('regexp_for_validation', 'InvalidValue', `Regexp for validation: ${problem}`);
  return value;
}

/** Type settings on a type without them: null (what GET serves) is fine, anything else is refused. */
function refuseSetting(data: Record<string, unknown>, name: string, type: FieldType, errors: RecordInvalid): null {
  const value = data[name];
  if (value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0)) {
    errors.add(name, 'InvalidValue', `${name}: a ${type} field doesn't have one`);
  }
  return null;
}

/** Autocomplete filters of the real service are not supported: only an empty one is accepted. */
function checkRelationshipFilter(value: unknown, errors: RecordInvalid): void {
  if (value === undefined || value === null || (isPlainObject(value) && Object.keys(value).length === 0)) return;
  errors.add('relationship_filter', 'InvalidValue', 'Relationship filter: filters are not supported; send null or leave it out');
}

interface NewOption {
  id?: number;
  name: string;
  value: string;
}

/**
 * Dropdown and multiselect options: at least one, each with a name and a
 * value, values unique. On update the list replaces the old one; an option
 * sent with its `id` keeps it (its records follow a changed value).
 */
function checkOptions(value: unknown, current: FieldRow | null, errors: RecordInvalid): NewOption[] | null {
  if (value === undefined && current) return null;
  if (!Array.isArray(value) || value.length === 0) {
    errors.add('custom_field_options', 'BlankValue', 'Custom field options: a dropdown or multiselect field needs at least one option');
    return null;
  }
  if (value.length > OPTION_LIMIT) {
    errors.add('custom_field_options', 'LimitExceeded', `Custom field options: at most ${OPTION_LIMIT} options`);
    return null;
  }
  const existing = new Set((parseOptions(current?.options_json ?? null) ?? []).map((o) => o.id));
  const seen = new Map<string, number>();
  const options: { option: NewOption; at: number }[] = [];
  value.forEach((option, index) => {
    const label = `Custom field options: option ${index + 1}`;
    const checked = checkOption(option, label, existing, errors);
    if (!checked) return;
    const first = seen.get(checked.value);
    if (first !== undefined) errors.add('custom_field_options', 'DuplicateValue', `${label}: value '${checked.value}' is already used by option ${first + 1}`);
    seen.set(checked.value, index);
    // Sent positions order the options (ties keep the array order); they are then numbered from 0.
    options.push({ option: checked, at: Number.isInteger(option.position) ? option.position : index });
  });
  return options.sort((a, b) => a.at - b.at).map(({ option }) => option);
}

function checkOption(option: unknown, label: string, existing: Set<number>, errors: RecordInvalid): NewOption | null {
  if (!isPlainObject(option)) {
    errors.add('custom_field_options', 'InvalidValue', `${label}: must be an object with a name and a value`);
    return null;
  }
  const texts = { name: option.name ?? option.raw_name, value: option.value };
  let valid = true;
  for (const [name, text] of Object.entries(texts)) {
    if (typeof text !== 'string' || text.trim() === '') {
      errors.add('custom_field_options', 'BlankValue', `${label}: ${name} cannot be blank`);
      valid = false;
    } else if (text.trim().length > OPTION_TEXT_MAX) {
      errors.add('custom_field_options', 'TooLong', `${label}: ${name} is too long (at most ${OPTION_TEXT_MAX} characters)`);
      valid = false;
    }
  }
  const id = option.id ?? undefined;
  if (id !== undefined && id !== null && !existing.has(id as number)) {
    errors.add('custom_field_options', 'InvalidValue', `${label}: id ${JSON.stringify(id)} is not an option of this field (leave id out for a new option)`);
    valid = false;
  }
  return valid ? { id: (id as number | undefined) ?? undefined, name: (texts.name as string).trim(), value: (texts.value as string).trim() } : null;
}
