import type { Actor, EngineContext } from '../context.js';
import { notFound, problem, type FieldErrors } from '../problems.js';
import { checkFields, isBlank, type FieldTable } from './fields.js';
import { runList, type ListDefinition, type ListPage } from './listing.js';
import type { RawQuery } from './params.js';
import { RecordStore, recordJson } from './recordStore.js';
import { jsonObject } from '../db/sqlJson.js';
import type { SyncSource } from '../sync/sources.js';

/** Email template fields: "not shown" by the spec; a name to pick it by, a subject and a body with merge tags. */
export const FIELDS: FieldTable = {
  id: { kind: 'readOnly' },
  creator_id: { kind: 'readOnly' },
  created_at: { kind: 'readOnly' },
  updated_at: { kind: 'readOnly' },
  name: { kind: 'string' },
  subject: { kind: 'string', maxLength: 998 },
  body: { kind: 'string', maxLength: 65535 },
};
const REQUIRED = ['name', 'subject', 'body'] as const;

const EMAIL_TEMPLATE_JSON = jsonObject({
  id: 'e.id', name: 'e.name', subject: 'e.subject', body: 'e.body', creator_id: 'e.creator_id', created_at: 'e.created_at', updated_at: 'e.updated_at',
});

/** Email templates as devices receive them (sync/). */
export const EMAIL_TEMPLATE_SYNC: SyncSource = { type: 'email_template', from: 'email_templates e', idColumn: 'e.id', json: EMAIL_TEMPLATE_JSON };

interface TemplateRow {
  id: number;
  name: string;
  subject: string;
  body: string;
}

/** The records a template is rendered for: the enrolled contact or lead, and the user it is sent as. */
export interface MergeContext {
  contact?: Record<string, unknown>;
  lead?: Record<string, unknown>;
  user: Record<string, unknown>;
}

export type Rendered = { ok: true; subject: string; body: string } | { ok: false; reason: 'missing_merge_tags'; tags: string[] };

/** `{{ contact.first_name }}`: spaces inside the braces are tolerated. */
const MERGE_TAG = /\{\{\s*([^{}]*?)\s*\}\}/g;

/**
 * Fills the merge tags of a text. A tag names an object of the context and a
 * field of it (nested with dots: `contact.address.city`). A tag whose object
 * or field does not exist, or whose value is empty (null, blank text, an
 * object), is missing: an email must never go out with a hole in it.
 */
export function fillMergeTags(text: string, context: MergeContext): { text: string; missing: string[] } {
  const missing: string[] = [];
  const filled = text.replace(MERGE_TAG, (whole, tag: string) => {
    const value = mergeValue(tag, context);
    if (value === null) {
      missing.push(tag);
      return whole;
    }
    return value;
  });
  return { text: filled, missing };
}

function mergeValue(tag: string, context: MergeContext): string | null {
  const [object, ...path] = tag.split('.').map((part) => part.trim());
  if (path.length === 0 || !['contact', 'lead', 'user'].includes(object)) return null;
  let value: unknown = context[object as keyof MergeContext];
  for (const key of path) {
    // Own fields only: `{{contact.constructor}}` is not a field.
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, key)) return null;
    value = (value as Record<string, unknown>)[key];
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/**
 * Email templates: everyone reads, admins write (the routes' rule). A
 * template used by a sequence step, or by a step of an enrollment still to
 * run, cannot be deleted: the email would have nothing to send.
 */
export class EmailTemplates {
  private readonly list: ListDefinition;
  private readonly store: RecordStore;

  constructor(private readonly ctx: EngineContext) {
    this.store = new RecordStore(ctx, 'email_templates', 'email_template', ['name', 'subject', 'body']);
    this.list = {
      resource: 'email_template',
      from: 'email_templates e',
      json: EMAIL_TEMPLATE_JSON,
      idColumn: 'e.id',
      filters: { name: { kind: 'string', column: 'e.name' }, creator_id: { kind: 'id', column: 'e.creator_id' } },
      sorts: { id: 'e.id', name: 'e.name', created_at: 'e.created_at', updated_at: 'e.updated_at' },
      defaultOrder: 'e.id ASC',
    };
  }

  json(id: number): string {
    return recordJson(this.ctx, 'email_template', `SELECT ${EMAIL_TEMPLATE_JSON} FROM email_templates e WHERE e.id = ?`, id);
  }

  exists(id: number): boolean {
    return this.find(id) !== undefined;
  }

  listPage(query: RawQuery): ListPage {
    return runList(this.list, query, this.ctx.statements);
  }

  create(data: Record<string, unknown>, actor: Actor): number {
    const { values, errors } = checkFields('email_template', FIELDS, data);
    for (const field of REQUIRED) {
      if (values[field] === undefined && !errors.has(`/${field}`)) errors.add(`/${field}`, 'missing', `${field} is required.`);
    }
    return this.store.insert(this.apply({}, values, errors), { creator_id: actor.userId }, actor.userId);
  }

  update(id: number, data: Record<string, unknown>, actor: Actor): void {
    const current = this.find(id);
    if (!current) throw notFound('email_template', id);
    const { values, errors } = checkFields('email_template', FIELDS, data);
    this.store.update(id, this.apply(current, values, errors), actor.userId);
  }

  delete(id: number, actor: Actor): void {
    if (!this.exists(id)) throw notFound('email_template', id);
    const user = this.usedBy(id);
    if (user) throw problem('incorrect_value', `The email template is used by ${user}: change those steps before deleting it.`, '/id', 'email_template');
    this.store.remove(id, actor.userId);
  }

  /**
   * The template's subject and body for one recipient, or every merge tag
   * that cannot be filled (each once, in order of appearance).
   */
  render(templateId: number, context: MergeContext): Rendered {
    const template = this.find(templateId);
    if (!template) throw notFound('email_template', templateId);
    const subject = fillMergeTags(template.subject, context);
    const body = fillMergeTags(template.body, context);
    const missing = [...new Set([...subject.missing, ...body.missing])];
    if (missing.length > 0) return { ok: false, reason: 'missing_merge_tags', tags: missing };
    return { ok: true, subject: subject.text, body: body.text };
  }

  private find(id: number): TemplateRow | undefined {
    return this.ctx.statements.get('SELECT * FROM email_templates WHERE id = ?').get(id) as TemplateRow | undefined;
  }

  /** What still needs the template: a sequence's step, or a scheduled step of an enrollment (whose table comes with migration 17). */
  private usedBy(id: number): string | null {
    const sequence = this.ctx.statements.get(`SELECT s.name FROM sequence_steps st JOIN sequences s ON s.id = st.sequence_id
      WHERE st.email_template_id = ? LIMIT 1`).pluck().get(id) as string | undefined;
    if (sequence !== undefined) return `the sequence ${sequence}`;
    const enrollments = this.ctx.statements.get("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'enrollment_steps'").get() !== undefined;
    if (enrollments && this.ctx.statements.get(`SELECT 1 FROM enrollment_steps WHERE status IN ('scheduled', 'in_progress')
      AND json_extract(action_properties, '$.email_template_id') = ? LIMIT 1`).get(id) !== undefined) return 'enrollments still to send it';
    return null;
  }

  /** Non-blank, trimmed name unique among templates; non-blank subject and body. */
  private apply(row: Partial<TemplateRow>, values: Record<string, unknown>, errors: FieldErrors): Partial<TemplateRow> {
    const out = { ...row };
    for (const field of REQUIRED) {
      if (values[field] === undefined || errors.has(`/${field}`)) continue;
      if (isBlank(values[field])) errors.add(`/${field}`, 'blank', `${field} can't be blank.`);
      else out[field] = field === 'name' ? (values[field] as string).trim() : values[field] as string;
    }
    if (out.name !== undefined && !errors.has('/name')
      && this.ctx.statements.get('SELECT 1 FROM email_templates WHERE name = ? AND id != ?').get(out.name, out.id ?? 0) !== undefined) {
      errors.add('/name', 'already_exists', `An email template named ${out.name} already exists.`);
    }
    errors.throwIfAny();
    return out;
  }
}
