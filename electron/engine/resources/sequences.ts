import { newRecordId, type Actor, type EngineContext } from '../context.js';
import { FieldErrors, notFound, problem } from '../problems.js';
import { checkFields, isBlank, type FieldTable } from './fields.js';
import { runList, type ListDefinition, type ListPage } from './listing.js';
import type { RawQuery } from './params.js';
import { RecordStore, recordJson } from './recordStore.js';
import { jsonBool, jsonObject, jsonOfSubquery } from '../db/sqlJson.js';
import type { EmailTemplates } from './emailTemplates.js';
import type { SyncSource } from '../sync/sources.js';
import { ACTION_TYPES, DELAY_UNITS, type Sequence, type SequenceStep } from '../../../shared/resources/sequence.js';

/**
 * The sequence fields. `steps` and `unsubscribe_settings` are nested and
 * checked here (see checkSteps, checkUnsubscribe); the field table lists
 * them as read-only so checkFields leaves them alone.
 */
export const FIELDS: FieldTable = {
  id: { kind: 'readOnly' },
  creator_id: { kind: 'readOnly' },
  steps_total: { kind: 'readOnly' },
  created_at: { kind: 'readOnly' },
  updated_at: { kind: 'readOnly' },
  name: { kind: 'string' },
  unsubscribe_settings: { kind: 'readOnly' },
  steps: { kind: 'readOnly' },
};

/** Limits of ours (the real service shows none): enough for any cadence, small enough to reason about. */
const MAX_STEPS = 50;
const MAX_DELAY = 9999;
/** `en`, `pt-BR`, `zh_TW`. */
const LOCALE = /^[a-z]{2,3}([-_][A-Za-z0-9]{2,4})?$/;

const STEP_JSON = jsonObject({
  position: 'st.position',
  delay_from_previous_step: 'st.delay_from_previous_step',
  delay_from_previous_step_unit: 'st.delay_from_previous_step_unit',
  action_type: 'st.action_type',
  action_properties: `CASE st.action_type WHEN 'task' THEN json_object('task_content', st.task_content)
    ELSE json_object('email_template_id', st.email_template_id, 'is_reply', ${jsonBool('st.is_reply')}) END`,
});

const SEQUENCE_JSON = jsonObject({
  id: 's.id',
  name: 's.name',
  creator_id: 's.creator_id',
  steps_total: '(SELECT COUNT(*) FROM sequence_steps st WHERE st.sequence_id = s.id)',
  unsubscribe_settings: jsonObject({ enabled: jsonBool('s.unsubscribe_enabled'), locale: 's.unsubscribe_locale' }),
  steps: jsonOfSubquery(`SELECT json_group_array(json(${STEP_JSON}) ORDER BY st.position) FROM sequence_steps st WHERE st.sequence_id = s.id`),
  created_at: 's.created_at',
  updated_at: 's.updated_at',
});

/** Sequences as devices receive them (sync/): with their steps, which a replica stores through SEQUENCE_PARTS. */
export const SEQUENCE_SYNC: SyncSource = { type: 'sequence', from: 'sequences s', idColumn: 's.id', json: SEQUENCE_JSON };

interface SequenceRow {
  id: number;
  name: string;
  unsubscribe_enabled: number;
  unsubscribe_locale: string;
}

/** A checked step as stored (position = its index in `steps`). */
interface StepRow {
  position: number;
  delay_from_previous_step: number;
  delay_from_previous_step_unit: string;
  action_type: string;
  email_template_id: number | null;
  is_reply: number;
  task_content: string | null;
}

/** Replaces a sequence's steps as a whole; call inside its transaction. */
function storeSteps(ctx: EngineContext, sequenceId: number, steps: StepRow[]): void {
  ctx.statements.get('DELETE FROM sequence_steps WHERE sequence_id = ?').run(sequenceId);
  for (const step of steps) {
    ctx.statements.get(`INSERT INTO sequence_steps (id, sequence_id, position, delay_from_previous_step, delay_from_previous_step_unit, action_type, email_template_id, is_reply, task_content)
      VALUES (@id, @sequence_id, @position, @delay_from_previous_step, @delay_from_previous_step_unit, @action_type, @email_template_id, @is_reply, @task_content)`)
      .run({ ...step, id: newRecordId(ctx, 'sequence_steps', 'sequence_step'), sequence_id: sequenceId });
  }
}

function stepRow(step: SequenceStep): StepRow {
  const props = step.action_properties as Partial<Record<string, unknown>>;
  return {
    position: step.position,
    delay_from_previous_step: step.delay_from_previous_step,
    delay_from_previous_step_unit: step.delay_from_previous_step_unit,
    action_type: step.action_type,
    email_template_id: (props.email_template_id as number | undefined) ?? null,
    is_reply: props.is_reply === true ? 1 : 0,
    task_content: (props.task_content as string | undefined) ?? null,
  };
}

/**
 * The parts of a sequence a replica keeps outside its row (replica/localRecords.ts):
 * the unsubscribe settings' columns and the steps, written from the JSON the hub serves.
 */
export const SEQUENCE_PARTS = {
  write(ctx: EngineContext, json: Record<string, unknown>): void {
    const sequence = json as unknown as Sequence;
    ctx.statements.get('UPDATE sequences SET unsubscribe_enabled = ?, unsubscribe_locale = ? WHERE id = ?')
      .run(sequence.unsubscribe_settings.enabled ? 1 : 0, sequence.unsubscribe_settings.locale, sequence.id);
    storeSteps(ctx, sequence.id, sequence.steps.map(stepRow));
  },
  remove(ctx: EngineContext, id: number): void {
    ctx.statements.get('DELETE FROM sequence_steps WHERE sequence_id = ?').run(id);
  },
};

/**
 * Sequences: everyone reads, admins write (the routes' rule). Writing `steps`
 * replaces them as a whole, in the order given. Enrollments copy a sequence
 * when they start (snapshot), so edits never change running ones; a sequence
 * that has enrollments cannot be deleted.
 */
export class Sequences {
  private readonly list: ListDefinition;
  private readonly store: RecordStore;

  constructor(private readonly ctx: EngineContext, private readonly templates: EmailTemplates) {
    this.store = new RecordStore(ctx, 'sequences', 'sequence', ['name', 'unsubscribe_enabled', 'unsubscribe_locale']);
    this.list = {
      resource: 'sequence',
      from: 'sequences s',
      json: SEQUENCE_JSON,
      idColumn: 's.id',
      filters: { name: { kind: 'string', column: 's.name' }, creator_id: { kind: 'id', column: 's.creator_id' } },
      sorts: { id: 's.id', name: 's.name', created_at: 's.created_at', updated_at: 's.updated_at' },
      defaultOrder: 's.id ASC',
    };
  }

  json(id: number): string {
    return recordJson(this.ctx, 'sequence', `SELECT ${SEQUENCE_JSON} FROM sequences s WHERE s.id = ?`, id);
  }

  /** The sequence as it is now, steps included: what an enrollment copies when it starts. Undefined when there is none. */
  snapshot(id: number): Sequence | undefined {
    const json = this.ctx.statements.get(`SELECT ${SEQUENCE_JSON} FROM sequences s WHERE s.id = ?`).pluck().get(id) as string | undefined;
    return json === undefined ? undefined : JSON.parse(json) as Sequence;
  }

  listPage(query: RawQuery): ListPage {
    return runList(this.list, query, this.ctx.statements);
  }

  create(data: Record<string, unknown>, actor: Actor): number {
    const { values, errors } = checkFields('sequence', FIELDS, data);
    if (values.name === undefined && !errors.has('/name')) errors.add('/name', 'missing', 'name is required.');
    const row = this.apply({ unsubscribe_enabled: 0, unsubscribe_locale: 'en' }, data, values, errors);
    const steps = Object.hasOwn(data, 'steps') ? this.checkSteps(data.steps, errors) : [];
    errors.throwIfAny();
    return this.store.insert(row, { creator_id: actor.userId }, actor.userId, (id) => storeSteps(this.ctx, id, steps));
  }

  update(id: number, data: Record<string, unknown>, actor: Actor): void {
    const current = this.find(id);
    if (!current) throw notFound('sequence', id);
    const { values, errors } = checkFields('sequence', FIELDS, data);
    const row = this.apply({ ...current }, data, values, errors);
    const steps = Object.hasOwn(data, 'steps') ? this.checkSteps(data.steps, errors) : undefined;
    errors.throwIfAny();
    this.store.update(id, row, actor.userId, steps && (() => storeSteps(this.ctx, id, steps)));
  }

  delete(id: number, actor: Actor): void {
    if (!this.find(id)) throw notFound('sequence', id);
    const enrollments = this.enrollmentCount(id);
    if (enrollments > 0) {
      throw problem('incorrect_value', `The sequence has ${enrollments} enrollment(s) and cannot be deleted: rename it instead.`, '/id', 'sequence');
    }
    this.store.remove(id, actor.userId, () => SEQUENCE_PARTS.remove(this.ctx, id));
  }

  /**
   * The steps of a write, in order: position is the index (a `position`
   * given is ignored, so GET's steps can be sent back); each delay a whole
   * number ≥ 0 in hours or weekdays; an email step names an existing
   * template, a task step has content. `is_reply` answers an email sent
   * before, so an email step before any other one cannot be a reply.
   */
  private checkSteps(raw: unknown, errors: FieldErrors): StepRow[] {
    if (!Array.isArray(raw)) {
      errors.add('/steps', 'invalid_type', 'steps must be an array of steps.');
      return [];
    }
    if (raw.length > MAX_STEPS) errors.add('/steps', 'incorrect_value', `steps is too long (maximum is ${MAX_STEPS} items).`);
    let emailBefore = false;
    return raw.map((step: unknown, position) => {
      const row = checkStep(step, position, errors, (id) => this.templates.exists(id));
      if (row.is_reply && !emailBefore) errors.add(`/steps/${position}/action_properties/is_reply`, 'incorrect_value', 'is_reply needs an earlier automated_email step to reply to.');
      emailBefore ||= row.action_type === 'automated_email';
      return row;
    });
  }

  private find(id: number): SequenceRow | undefined {
    return this.ctx.statements.get('SELECT * FROM sequences WHERE id = ?').get(id) as SequenceRow | undefined;
  }

  /** Enrollments of the sequence, in any state (their table comes with migration 17). */
  private enrollmentCount(id: number): number {
    const exists = this.ctx.statements.get("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'sequence_enrollments'").get() !== undefined;
    return exists ? this.ctx.statements.get('SELECT COUNT(*) FROM sequence_enrollments WHERE sequence_id = ?').pluck().get(id) as number : 0;
  }

  /** Name (non-blank, trimmed, unique) and unsubscribe settings merged into the row; errors collected, not thrown. */
  private apply(row: Partial<SequenceRow>, data: Record<string, unknown>, values: Record<string, unknown>, errors: FieldErrors): Partial<SequenceRow> {
    const out = { ...row };
    if (Object.hasOwn(data, 'unsubscribe_settings')) checkUnsubscribe(data.unsubscribe_settings, out, errors);
    if (values.name !== undefined && !errors.has('/name')) {
      if (isBlank(values.name)) errors.add('/name', 'blank', "name can't be blank.");
      else out.name = (values.name as string).trim();
    }
    if (out.name !== undefined && !errors.has('/name')
      && this.ctx.statements.get('SELECT 1 FROM sequences WHERE name = ? AND id != ?').get(out.name, out.id ?? 0) !== undefined) {
      errors.add('/name', 'already_exists', `A sequence named ${out.name} already exists.`);
    }
    return out;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `{enabled, locale}`, either may be left out (kept as it is). */
function checkUnsubscribe(raw: unknown, row: Partial<SequenceRow>, errors: FieldErrors): void {
  if (!isObject(raw)) {
    errors.add('/unsubscribe_settings', 'invalid_type', 'unsubscribe_settings must be an object with enabled and locale.');
    return;
  }
  for (const key of Object.keys(raw)) {
    if (key !== 'enabled' && key !== 'locale') errors.add(`/unsubscribe_settings/${key}`, 'unknown', `${key} is not an attribute of unsubscribe_settings.`);
  }
  if (raw.enabled !== undefined) {
    if (typeof raw.enabled === 'boolean') row.unsubscribe_enabled = raw.enabled ? 1 : 0;
    else errors.add('/unsubscribe_settings/enabled', 'invalid_type', 'enabled must be a boolean (true or false).');
  }
  if (raw.locale !== undefined) {
    if (typeof raw.locale !== 'string') errors.add('/unsubscribe_settings/locale', 'invalid_type', 'locale must be a string.');
    else if (!LOCALE.test(raw.locale.trim())) errors.add('/unsubscribe_settings/locale', 'incorrect_value', 'locale must be a language code such as en or pt-BR.');
    else row.unsubscribe_locale = raw.locale.trim();
  }
}

const STEP_KEYS = ['position', 'delay_from_previous_step', 'delay_from_previous_step_unit', 'action_type', 'action_properties'];
const PROPERTY_KEYS: Record<string, string[]> = { automated_email: ['email_template_id', 'is_reply'], task: ['task_content'] };

/** One step at `position`; problems are added under `/steps/<position>/…`. */
function checkStep(raw: unknown, position: number, errors: FieldErrors, templateExists: (id: number) => boolean): StepRow {
  const at = `/steps/${position}`;
  const row: StepRow = { position, delay_from_previous_step: 0, delay_from_previous_step_unit: 'hours', action_type: 'task', email_template_id: null, is_reply: 0, task_content: null };
  if (!isObject(raw)) {
    errors.add(at, 'invalid_type', 'Each step must be an object.');
    return row;
  }
  for (const key of Object.keys(raw)) if (!STEP_KEYS.includes(key)) errors.add(`${at}/${key}`, 'unknown', `${key} is not an attribute of a sequence step.`);
  const delay = raw.delay_from_previous_step;
  if (delay === undefined) errors.add(`${at}/delay_from_previous_step`, 'missing', 'delay_from_previous_step is required.');
  else if (typeof delay !== 'number' || !Number.isInteger(delay)) errors.add(`${at}/delay_from_previous_step`, 'invalid_type', 'delay_from_previous_step must be an integer.');
  else if (delay < 0 || delay > MAX_DELAY) errors.add(`${at}/delay_from_previous_step`, 'incorrect_value', `delay_from_previous_step must be between 0 and ${MAX_DELAY}.`);
  else row.delay_from_previous_step = delay;
  row.delay_from_previous_step_unit = checkEnum(raw, 'delay_from_previous_step_unit', DELAY_UNITS, at, errors) ?? row.delay_from_previous_step_unit;
  const type = checkEnum(raw, 'action_type', ACTION_TYPES, at, errors);
  if (type === undefined) return row;
  row.action_type = type;
  const props = raw.action_properties;
  if (!isObject(props)) {
    errors.add(`${at}/action_properties`, props === undefined ? 'missing' : 'invalid_type', `action_properties must be an object with ${PROPERTY_KEYS[type].join(' and ')}.`);
    return row;
  }
  for (const key of Object.keys(props)) {
    if (!PROPERTY_KEYS[type].includes(key)) errors.add(`${at}/action_properties/${key}`, 'unknown', `${key} is not an attribute of the action_properties of a ${type} step.`);
  }
  if (type === 'task') row.task_content = checkTaskContent(props.task_content, `${at}/action_properties/task_content`, errors);
  else {
    row.email_template_id = checkTemplate(props.email_template_id, `${at}/action_properties/email_template_id`, errors, templateExists);
    if (props.is_reply !== undefined && typeof props.is_reply !== 'boolean') errors.add(`${at}/action_properties/is_reply`, 'invalid_type', 'is_reply must be a boolean (true or false).');
    row.is_reply = props.is_reply === true ? 1 : 0;
  }
  return row;
}

function checkEnum<T extends string>(raw: Record<string, unknown>, field: string, allowed: readonly T[], at: string, errors: FieldErrors): T | undefined {
  const value = raw[field];
  if (value === undefined) errors.add(`${at}/${field}`, 'missing', `${field} is required.`);
  else if (typeof value !== 'string') errors.add(`${at}/${field}`, 'invalid_type', `${field} must be a string.`);
  else if (!(allowed as readonly string[]).includes(value)) errors.add(`${at}/${field}`, 'incorrect_value', `${field} must be one of: ${allowed.join(', ')}.`);
  else return value as T;
  return undefined;
}

function checkTaskContent(value: unknown, pointer: string, errors: FieldErrors): string | null {
  if (value === undefined) errors.add(pointer, 'missing', 'task_content is required.');
  else if (value !== null && typeof value !== 'string') errors.add(pointer, 'invalid_type', 'task_content must be a string.');
  else if (isBlank(value)) errors.add(pointer, 'blank', "task_content can't be blank.");
  else if ((value as string).length > 65535) errors.add(pointer, 'incorrect_value', 'task_content is too long (maximum is 65535 characters).');
  else return value as string;
  return null;
}

function checkTemplate(value: unknown, pointer: string, errors: FieldErrors, exists: (id: number) => boolean): number | null {
  if (value === undefined || value === null) errors.add(pointer, 'missing', 'email_template_id is required.');
  else if (typeof value !== 'number' || !Number.isInteger(value)) errors.add(pointer, 'invalid_type', 'email_template_id must be a numeric id.');
  else if (!exists(value)) errors.add(pointer, 'incorrect_value', `There is no email template with id ${value}.`);
  else return value;
  return null;
}
