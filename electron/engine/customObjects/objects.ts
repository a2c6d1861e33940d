import type { Actor, EngineContext } from '../context.js';
import type { Accounts } from '../resources/account.js';
import { isoSeconds } from '../clock.js';
import { jsonObject } from '../db/sqlJson.js';
import { PLAN_LIMITS } from '../../../shared/resources/account.js';
import { RecordInvalid, recordInvalid } from './problems.js';
import { requireCustomObject, type CustomObjectRow } from './objectRows.js';

/**
 * Custom objects (/api/v2/custom_objects): an account's own record types,
 * defined by admins. The spec shows no lengths: these are ours (documented).
 */
export const KEY_MAX_LENGTH = 60;
export const TITLE_MAX_LENGTH = 255;
export const DESCRIPTION_MAX_LENGTH = 1000;

/**
 * A lowercase letter, then lowercase letters, digits and underscores: the key
 * is a path segment, part of lookup targets (`zen:custom_object:<key>`) and
 * the name of the object in scripts, so nothing that needs escaping.
 */
export const KEY_PATTERN = /^[a-z][a-z0-9_]*$/;

/**
 * `raw_*` is the value as written; `title` etc. the rendered one. We have no
 * dynamic-content items, so a `{{dc.name}}` placeholder renders as itself
 * and both are the one stored value.
 */
const OBJECT_JSON = jsonObject({
  key: 'o.key',
  title: 'o.title',
  title_pluralized: 'o.title_pluralized',
  description: 'o.description',
  raw_title: 'o.title',
  raw_title_pluralized: 'o.title_pluralized',
  raw_description: 'o.description',
  created_at: 'o.created_at',
  updated_at: 'o.updated_at',
  created_by_user_id: 'CAST(o.created_by_user_id AS TEXT)',
  updated_by_user_id: 'CAST(o.updated_by_user_id AS TEXT)',
  url: "@urlPrefix || o.key || '.json'",
});

type TextColumn = 'title' | 'title_pluralized' | 'description';

interface TextProperty {
  column: TextColumn;
  raw: string;
  label: string;
  max: number;
  required: boolean;
}

const TEXTS: readonly TextProperty[] = [
  { column: 'title', raw: 'raw_title', label: 'Title', max: TITLE_MAX_LENGTH, required: true },
  { column: 'title_pluralized', raw: 'raw_title_pluralized', label: 'Title pluralized', max: TITLE_MAX_LENGTH, required: true },
  { column: 'description', raw: 'raw_description', label: 'Description', max: DESCRIPTION_MAX_LENGTH, required: false },
];

/** Served, never written: a client sending an object back as it got it is not refused for them. */
const SERVED_ONLY = new Set(['created_at', 'updated_at', 'created_by_user_id', 'updated_by_user_id', 'url']);
const WRITABLE = new Set(['key', ...TEXTS.flatMap((t) => [t.column, t.raw])]);

type TextChanges = Partial<Record<TextColumn, string | null>>;

export class CustomObjects {
  constructor(private readonly ctx: EngineContext, private readonly accounts: Accounts) {}

  /** `{"custom_objects": [...]}` in creation order; `urlPrefix` is what each `url` starts with, before `<key>.json`. */
  listJson(urlPrefix: string): string {
    const rows = this.ctx.statements.get(`SELECT ${OBJECT_JSON} FROM custom_objects o ORDER BY o.created_at, o.id`).pluck().all({ urlPrefix }) as string[];
    return `{"custom_objects":[${rows.join(',')}]}`;
  }

  /** `{"custom_object": ...}`, or 404 RecordNotFound. */
  json(key: string, urlPrefix: string): string {
    const row = requireCustomObject(this.ctx, key);
    const json = this.ctx.statements.get(`SELECT ${OBJECT_JSON} FROM custom_objects o WHERE o.id = @id`).pluck().get({ urlPrefix, id: row.id }) as string;
    return `{"custom_object":${json}}`;
  }

  /** Creates an object (admins; the caller checks the role); every problem in one 422. Returns its key. */
  create(data: Record<string, unknown>, actor: Actor): string {
    return this.ctx.db.transaction(() => {
      const problems = new RecordInvalid();
      checkProperties(data, problems);
      const key = this.checkNewKey(data.key, problems);
      const texts = readTexts(data, null, problems);
      this.checkLimit(problems);
      problems.check();
      const now = isoSeconds(this.ctx.clock.now());
      this.ctx.statements.get(`INSERT INTO custom_objects (key, title, title_pluralized, description, created_by_user_id, updated_by_user_id, created_at, updated_at)
        VALUES (@key, @title, @title_pluralized, @description, @user, @user, @now, @now)`)
        .run({ key, title: texts.title, title_pluralized: texts.title_pluralized, description: texts.description ?? null, user: actor.userId, now });
      return key!;
    })();
  }

  /** Changes title, title_pluralized, description (admins); `key` never changes. */
  update(key: string, data: Record<string, unknown>, actor: Actor): void {
    this.ctx.db.transaction(() => {
      const current = requireCustomObject(this.ctx, key);
      const problems = new RecordInvalid();
      checkProperties(data, problems);
      if (data.key !== undefined && data.key !== current.key) problems.add('key', 'ReadOnly', 'Key: cannot be changed once the object is created');
      const texts = readTexts(data, current, problems);
      problems.check();
      const columns = Object.keys(texts) as TextColumn[];
      if (columns.length === 0) return;
      this.ctx.db.prepare(`UPDATE custom_objects SET ${columns.map((c) => `${c} = @${c}`).join(', ')}, updated_by_user_id = @user, updated_at = @now WHERE id = @id`)
        .run({ ...texts, user: actor.userId, now: isoSeconds(this.ctx.clock.now()), id: current.id });
    })();
  }

  /**
   * Deletes an object with its fields and records, permanently. Refused while
   * a lookup field of another object points at it: those records' values
   * would name records that are gone, so the admin removes the fields first.
   */
  delete(key: string): void {
    this.ctx.db.transaction(() => {
      const current = requireCustomObject(this.ctx, key);
      this.refuseWhileTargeted(current);
      // Explicit, not only ON DELETE CASCADE: the rows go whether or not foreign keys are enforced.
      this.ctx.statements.get('DELETE FROM custom_object_records WHERE custom_object_id = ?').run(current.id);
      this.ctx.statements.get('DELETE FROM custom_object_fields WHERE custom_object_id = ?').run(current.id);
      this.ctx.statements.get('DELETE FROM custom_objects WHERE id = ?').run(current.id);
    })();
  }

  private refuseWhileTargeted(object: CustomObjectRow): void {
    const fields = this.ctx.statements.get(`SELECT o.key || '.' || f.key FROM custom_object_fields f JOIN custom_objects o ON o.id = f.custom_object_id
      WHERE f.relationship_target_type = ? AND f.custom_object_id <> ? ORDER BY o.key, f.key`).pluck().all(`zen:custom_object:${object.key}`, object.id) as string[];
    if (fields.length === 0) return;
    throw recordInvalid('base', 'InUse', `Custom object '${object.key}' is the target of the lookup field${fields.length === 1 ? '' : 's'} ${fields.join(', ')}: delete ${fields.length === 1 ? 'it' : 'them'} first.`);
  }

  private checkNewKey(key: unknown, problems: RecordInvalid): string | undefined {
    if (key === undefined || key === null || key === '') problems.add('key', 'BlankValue', 'Key: cannot be blank');
    else if (typeof key !== 'string') problems.add('key', 'InvalidValue', 'Key: must be a string');
    else if (key.length > KEY_MAX_LENGTH) problems.add('key', 'TooLong', `Key: is too long (maximum is ${KEY_MAX_LENGTH} characters)`);
    else if (!KEY_PATTERN.test(key)) problems.add('key', 'InvalidFormat', 'Key: must start with a lowercase letter and hold only lowercase letters, digits and underscores');
    else if (this.ctx.statements.get('SELECT 1 FROM custom_objects WHERE key = ?').get(key)) problems.add('key', 'DuplicateValue', 'Key: is already taken');
    else return key;
    return undefined;
  }

  /** Objects per account by plan; a lower plan keeps the objects it has and refuses new ones. */
  private checkLimit(problems: RecordInvalid): void {
    const plan = this.accounts.plan();
    const limit = PLAN_LIMITS[plan].customObjects;
    const count = this.ctx.statements.get('SELECT COUNT(*) FROM custom_objects').pluck().get() as number;
    if (count >= limit) {
      problems.add('base', 'LimitExceeded', `The ${plan} plan allows ${limit} custom objects and this account has ${count}: delete one or move to a larger plan.`);
    }
  }
}

function checkProperties(data: Record<string, unknown>, problems: RecordInvalid): void {
  for (const name of Object.keys(data)) {
    if (!WRITABLE.has(name) && !SERVED_ONLY.has(name)) problems.add(name, 'UnknownField', `${name}: is not a property of a custom object`);
  }
}

/** The text properties a request sets, checked; on create, the required ones must be there. */
function readTexts(data: Record<string, unknown>, current: CustomObjectRow | null, problems: RecordInvalid): TextChanges {
  const changes: TextChanges = {};
  for (const text of TEXTS) {
    const sent = sentValue(data, text, current, problems);
    if (sent === CONFLICT) continue;
    if (sent === undefined) {
      if (!current && text.required) problems.add(text.column, 'BlankValue', `${text.label}: cannot be blank`);
      continue;
    }
    const value = checkText(sent, text, problems);
    if (value !== undefined) changes[text.column] = value;
  }
  return changes;
}

const CONFLICT = Symbol('conflict');

/**
 * `title` or `raw_title` (they are one stored value). A client sending an
 * object back may carry both: if they differ, the one it changed wins; if
 * both differ from what is stored (or on create), which one is meant is unknown.
 */
function sentValue(data: Record<string, unknown>, text: TextProperty, current: CustomObjectRow | null, problems: RecordInvalid): unknown {
  const plain = data[text.column];
  const raw = data[text.raw];
  if (raw === undefined) return plain;
  if (plain === undefined) return raw;
  if (same(raw, plain)) return plain;
  const stored = current?.[text.column];
  if (current && same(plain, stored)) return raw;
  if (current && same(raw, stored)) return plain;
  problems.add(text.raw, 'InvalidValue', `${text.label}: ${text.column} and ${text.raw} differ; send one of them`);
  return CONFLICT;
}

/** Equal as stored: an empty or blank description is none. */
function same(a: unknown, b: unknown): boolean {
  const normal = (v: unknown) => (typeof v === 'string' ? v.trim() : v ?? '');
  return normal(a) === normal(b);
}

/** The trimmed value, null to clear an optional one, or undefined after adding the problem. */
function checkText(value: unknown, text: TextProperty, problems: RecordInvalid): string | null | undefined {
  if (value !== null && typeof value !== 'string') {
    problems.add(text.column, 'InvalidValue', `${text.label}: must be a string`);
    return undefined;
  }
  const trimmed = value?.trim() ?? '';
  if (trimmed === '') {
    if (!text.required) return null;
    problems.add(text.column, 'BlankValue', `${text.label}: cannot be blank`);
    return undefined;
  }
  if ([...trimmed].length > text.max) {
    problems.add(text.column, 'TooLong', `${text.label}: is too long (maximum is ${text.max} characters)`);
    return undefined;
  }
  return trimmed;
}
