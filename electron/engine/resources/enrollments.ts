import { newRecordId, type Actor, type EngineContext } from '../context.js';
import { recordJson } from './recordStore.js';
import { isoSeconds } from '../clock.js';
import { FieldErrors, notFound, problem } from '../problems.js';
import { checkFields, type FieldTable } from './fields.js';
import { runList, type Clause, type ListDefinition, type ListPage } from './listing.js';
import { idListParam, type RawQuery } from './params.js';
import { jsonBool, jsonObject, jsonOfSubquery } from '../db/sqlJson.js';
import { recordExists } from './resourceLinks.js';
import type { Users } from './users.js';
import type { Accounts } from './account.js';
import type { SyncSource } from '../sync/sources.js';
import {
  ENROLLMENT_RESOURCE_TYPES, ENROLLMENT_STATES, type DelayUnit, type FailureReason, type FinishedReason, type Sequence,
} from '../../../shared/resources/sequence.js';

/** The add-on an account needs to start sequences. */
export const SEQUENCES_ADDON = 'outbound_sequences';

/** The spec's Sequence enrollment field table: everything but `state` is read-only, and the writable ones are create-only. */
export const FIELDS: FieldTable = {
  id: { kind: 'readOnly' }, sequence: { kind: 'readOnly' }, state: { kind: 'enum', values: ENROLLMENT_STATES },
  current_step_position: { kind: 'readOnly' }, enrollment_steps: { kind: 'readOnly' }, finished_at: { kind: 'readOnly' },
  finished_reason: { kind: 'readOnly' }, finished_actor_id: { kind: 'readOnly' }, created_at: { kind: 'readOnly' }, updated_at: { kind: 'readOnly' },
  sequence_id: { kind: 'id', createOnly: true },
  resource_type: { kind: 'enum', values: ENROLLMENT_RESOURCE_TYPES, createOnly: true },
  resource_id: { kind: 'id', createOnly: true },
  actor_id: { kind: 'id', createOnly: true },
};
const REQUIRED = ['sequence_id', 'resource_type', 'resource_id'] as const;

/** Not yet done: an action in one of these statuses is cancelled when its enrollment finishes. */
const PENDING = "('scheduled', 'in_progress', 'blocked')";

/** An action is overdue when it has not run yet (scheduled, or blocked) and its time has passed. */
const OVERDUE = "s.status IN ('scheduled', 'blocked') AND s.estimated_execute_at < now_utc()";

const ACTION_TIMES = { status: 's.status', executed_at: 's.executed_at', estimated_execute_at: 's.estimated_execute_at', failure_reason: 's.failure_reason' };
const ACTION_JSON = `CASE s.action_type WHEN 'task' THEN ${jsonObject({ ...ACTION_TIMES, task_content: 's.task_content', task_id: 's.task_id' })}
  ELSE ${jsonObject(ACTION_TIMES)} END`;

const STEP_JSON = jsonObject({
  position: 's.position',
  delay_from_previous_step: 's.delay_from_previous_step',
  delay_from_previous_step_unit: 's.delay_from_previous_step_unit',
  overdue: jsonBool(OVERDUE),
  action_type: 's.action_type',
  action_properties: 'json(s.action_properties)',
  action: `json_object('data', ${ACTION_JSON}, 'meta', json_object('type', 'action'))`,
});

/** The steps as the spec's collection envelope, in position order. */
const STEPS_JSON = jsonOfSubquery(`SELECT json_object(
    'items', json_group_array(json_object('data', json(x.step), 'meta', json_object('type', 'enrollment_step'))),
    'meta', json_object('type', 'collection', 'count', count(*)))
  FROM (SELECT ${STEP_JSON} AS step FROM enrollment_steps s WHERE s.enrollment_id = e.id ORDER BY s.position) x`);

const ENROLLMENT_JSON = jsonObject({
  id: 'e.id',
  actor_id: 'e.actor_id',
  resource_id: 'e.resource_id',
  resource_type: 'e.resource_type',
  sequence: "json_object('data', json(e.sequence_json), 'meta', json_object('type', 'sequence'))",
  state: 'e.state',
  current_step_position: 'e.current_step_position',
  enrollment_steps: STEPS_JSON,
  finished_at: 'e.finished_at',
  finished_reason: 'e.finished_reason',
  finished_actor_id: 'e.finished_actor_id',
  created_at: 'e.created_at',
  updated_at: 'e.updated_at',
});

/** Enrollments as devices receive them (sync/): the same JSON as GET. */
export const ENROLLMENT_SYNC: SyncSource = { type: 'sequence_enrollment', from: 'sequence_enrollments e', idColumn: 'e.id', json: ENROLLMENT_JSON };

export interface EnrollmentRow {
  id: number;
  sequence_id: number;
  actor_id: number;
  resource_type: 'lead' | 'contact';
  resource_id: number;
  state: 'active' | 'blocked' | 'finished';
  current_step_position: number;
  finished_reason: FinishedReason | null;
}

export interface StepRow {
  id: number;
  enrollment_id: number;
  position: number;
  delay_from_previous_step: number;
  delay_from_previous_step_unit: DelayUnit;
  action_type: 'automated_email' | 'task';
  action_properties: string;
  status: string;
  estimated_execute_at: string | null;
  executed_at: string | null;
  task_id: number | null;
  task_content: string | null;
  attempt_key: string | null;
}

/** Where enrollments read the sequences they start from (resources/sequences.ts). */
export interface SequenceSnapshots {
  snapshot(id: number): Sequence | undefined;
}

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/**
 * When a step with this delay runs, counted from `from`. `hours`: that many
 * hours later. `weekdays`: the same time of day on the Nth Monday-to-Friday
 * day after `from`'s day, days counted in the account's time zone (Friday
 * 10:00 + 1 weekday = Monday 10:00; Saturday or Sunday 10:00 + 1 = Monday
 * 10:00). A delay of 0 is at once, whatever the day.
 */
export function addDelay(from: Date, amount: number, unit: DelayUnit, utcOffsetMinutes = 0): Date {
  if (unit === 'hours') return new Date(from.getTime() + amount * HOUR_MS);
  const local = new Date(from.getTime() + utcOffsetMinutes * MINUTE_MS);
  for (let added = 0; added < amount;) {
    local.setUTCDate(local.getUTCDate() + 1);
    const day = local.getUTCDay();
    if (day !== 0 && day !== 6) added++;
  }
  return new Date(local.getTime() - utcOffsetMinutes * MINUTE_MS);
}

/** `UTC+01:00` → 60. */
export function utcOffsetMinutes(timezone: string): number {
  const match = /^UTC([+-])(\d{2}):(\d{2})$/.exec(timezone);
  if (!match) return 0;
  return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
}

/**
 * Sequence enrollments: a lead or contact going through a sequence's steps.
 * This module owns the records and their state changes (each logged for
 * sync); sequences/scheduler.ts runs the steps.
 */
export class Enrollments {
  private readonly list: ListDefinition;

  constructor(
    private readonly ctx: EngineContext,
    private readonly users: Users,
    private readonly accounts: Accounts,
    private readonly sequences: () => SequenceSnapshots,
  ) {
    this.list = {
      resource: 'sequence_enrollment',
      from: 'sequence_enrollments e',
      json: ENROLLMENT_JSON,
      idColumn: 'e.id',
      filters: {
        resource_type: { kind: 'enum', column: 'e.resource_type', values: ENROLLMENT_RESOURCE_TYPES },
        // Extensions for the Enrollments screen.
        state: { kind: 'enum', column: 'e.state', values: ENROLLMENT_STATES },
        sequence_id: { kind: 'id', column: 'e.sequence_id' },
        actor_id: { kind: 'id', column: 'e.actor_id' },
      },
      sorts: { id: 'e.id', created_at: 'e.created_at', updated_at: 'e.updated_at', finished_at: 'e.finished_at' },
      defaultOrder: 'e.id ASC',
      narrowing: ['resource_ids', 'resource_type'],
      extraFilter: (name, value) => (name === 'resource_ids' ? resourceIdsClause(value) : undefined),
    };
    // A deleted lead or contact ends its enrollments (inside the deletion's transaction).
    ctx.dependents.onDelete((type, id, actorId) => {
      if (type !== 'lead' && type !== 'contact') return;
      const open = ctx.statements.get("SELECT id FROM sequence_enrollments WHERE resource_type = ? AND resource_id = ? AND state != 'finished'").pluck();
      for (const enrollmentId of open.all(type, id) as number[]) this.finish(enrollmentId, 'resource_deleted', actorId);
    });
  }

  json(id: number): string {
    return recordJson(this.ctx, 'sequence_enrollment', `SELECT ${ENROLLMENT_JSON} FROM sequence_enrollments e WHERE e.id = ?`, id);
  }

  listPage(query: RawQuery): ListPage {
    return runList(this.list, query, this.ctx.statements);
  }

  row(id: number): EnrollmentRow | undefined {
    return this.ctx.statements.get('SELECT * FROM sequence_enrollments WHERE id = ?').get(id) as EnrollmentRow | undefined;
  }

  steps(enrollmentId: number): StepRow[] {
    return this.ctx.statements.get('SELECT * FROM enrollment_steps WHERE enrollment_id = ? ORDER BY position').all(enrollmentId) as StepRow[];
  }

  /** Starts a sequence for a lead or contact: its steps are copied and scheduled from now. */
  create(data: Record<string, unknown>, actor: Actor): number {
    this.requireAddon();
    const { values, errors } = checkFields('sequence_enrollment', FIELDS, data);
    if (values.state !== undefined) errors.add('/state', 'incorrect_value', 'A new enrollment is always active; state is not given when creating one.');
    for (const field of REQUIRED) {
      if (values[field] === undefined && !errors.has(`/${field}`)) errors.add(`/${field}`, 'missing', `${field} is required.`);
    }
    this.users.checkReference('actor_id', values.actor_id, errors);
    const sequence = errors.has('/sequence_id') || values.sequence_id === undefined ? undefined : this.sequences().snapshot(values.sequence_id as number);
    this.checkStart(values, sequence, errors);
    errors.throwIfAny();
    return this.insert(values, sequence!, (values.actor_id as number | undefined) ?? actor.userId, actor.userId);
  }

  private checkStart(values: Record<string, unknown>, sequence: Sequence | undefined, errors: FieldErrors): void {
    if (values.sequence_id !== undefined && !errors.has('/sequence_id')) {
      if (!sequence) errors.add('/sequence_id', 'incorrect_value', `There is no sequence with id ${String(values.sequence_id)}.`);
      else if (sequence.steps.length === 0) errors.add('/sequence_id', 'incorrect_value', `The sequence ${sequence.name} has no steps to run.`);
    }
    if (errors.has('/resource_type') || errors.has('/resource_id') || values.resource_id === undefined || values.resource_type === undefined) return;
    const type = values.resource_type as string;
    if (!recordExists(this.ctx.db, type, values.resource_id as number)) {
      errors.add('/resource_id', 'incorrect_value', `There is no ${type} with id ${String(values.resource_id)}.`);
    } else if (sequence && this.ctx.statements.get(`SELECT 1 FROM sequence_enrollments
        WHERE sequence_id = ? AND resource_type = ? AND resource_id = ? AND state != 'finished'`).get(sequence.id, type, values.resource_id) !== undefined) {
      errors.add('/resource_id', 'already_exists', `This ${type} is already enrolled in the sequence ${sequence.name}; finish that enrollment first.`);
    }
  }

  private insert(values: Record<string, unknown>, sequence: Sequence, actorId: number, callerId: number): number {
    const now = isoSeconds(this.ctx.clock.now());
    const { steps, ...summary } = sequence;
    return this.ctx.db.transaction(() => {
      const id = this.ctx.statements.get(`INSERT INTO sequence_enrollments
          (id, sequence_id, actor_id, resource_type, resource_id, state, current_step_position, sequence_json, created_at, updated_at)
          VALUES (?, ?, ?, ?, ?, 'active', 0, ?, ?, ?)`)
        .run(newRecordId(this.ctx, 'sequence_enrollments', 'sequence_enrollment'), sequence.id, actorId, values.resource_type, values.resource_id, JSON.stringify(summary), now, now).lastInsertRowid;
      const insertStep = this.ctx.statements.get(`INSERT INTO enrollment_steps
          (enrollment_id, position, delay_from_previous_step, delay_from_previous_step_unit, action_type, action_properties, task_content)
          VALUES (?, ?, ?, ?, ?, ?, ?)`);
      for (const step of steps) {
        const taskContent = 'task_content' in step.action_properties ? step.action_properties.task_content : null;
        insertStep.run(id, step.position, step.delay_from_previous_step, step.delay_from_previous_step_unit, step.action_type,
          JSON.stringify(step.action_properties), taskContent);
      }
      this.reschedule(Number(id), 0, this.ctx.clock.now());
      this.ctx.changes.record('sequence_enrollment', Number(id), 'created', callerId);
      return Number(id);
    })();
  }

  /** PUT: only `state` changes, and only active → finished (manual) and blocked → active (resume). */
  update(id: number, data: Record<string, unknown>, actor: Actor): void {
    const current = this.row(id);
    if (!current) throw notFound('sequence_enrollment', id);
    const { values, errors } = checkFields('sequence_enrollment', FIELDS, data);
    for (const name of Object.keys(data)) {
      if (name !== 'state' && !errors.has(`/${name}`)) {
        errors.add(`/${name}`, 'incorrect_value', `Only the state of an enrollment can change (to finished, or back to active when blocked); ${name} cannot.`);
      }
    }
    if (values.state === undefined && !errors.has('/state')) errors.add('/state', 'missing', 'state is required: finished to end the enrollment, active to resume a blocked one.');
    const to = values.state as string | undefined;
    if (to !== undefined && !(current.state === 'active' && to === 'finished') && !(current.state === 'blocked' && to === 'active')) {
      errors.add('/state', 'incorrect_value', `An enrollment that is ${current.state} cannot become ${to}: only active → finished and blocked → active are allowed.`);
    }
    errors.throwIfAny();
    if (to === 'finished') this.finish(id, 'manual', actor.userId);
    else this.resume(id, actor.userId);
  }

  /** Extension: a reply from the prospect was received (POST /v2/sequence_enrollments/:id/replies); the enrollment ends. */
  recordReply(id: number, actor: Actor): void {
    const current = this.row(id);
    if (!current) throw notFound('sequence_enrollment', id);
    if (current.state === 'finished') {
      throw problem('incorrect_value', `The enrollment already finished (${current.finished_reason ?? ''}); a reply changes nothing.`, '/state', 'sequence_enrollment');
    }
    this.finish(id, 'replied_to_email', actor.userId);
  }

  /**
   * Ends an enrollment: actions not done yet are cancelled (an email being
   * sent right now keeps its claim and is settled by the scheduler).
   * `finished_actor_id` only for a manual finish, as the spec says.
   */
  finish(id: number, reason: FinishedReason, actorId: number | null): void {
    const now = isoSeconds(this.ctx.clock.now());
    this.ctx.db.transaction(() => {
      this.ctx.statements.get(`UPDATE enrollment_steps SET status = 'cancelled'
          WHERE enrollment_id = ? AND status IN ${PENDING} AND NOT (status = 'in_progress' AND action_type = 'automated_email')`).run(id);
      this.ctx.statements.get(`UPDATE sequence_enrollments SET state = 'finished', finished_at = ?, finished_reason = ?, finished_actor_id = ?, updated_at = ?
          WHERE id = ?`).run(now, reason, reason === 'manual' ? actorId : null, now, id);
      this.ctx.changes.record('sequence_enrollment', id, 'updated', actorId);
    })();
  }

  /** Blocked → active: the blocked step is retried at once. */
  private resume(id: number, actorId: number): void {
    const current = this.row(id)!;
    this.ctx.db.transaction(() => {
      this.ctx.statements.get(`UPDATE enrollment_steps SET status = 'scheduled', failure_reason = NULL, attempt_key = NULL
          WHERE enrollment_id = ? AND status = 'blocked'`).run(id);
      this.ctx.statements.get("UPDATE sequence_enrollments SET state = 'active' WHERE id = ?").run(id);
      this.reschedule(id, current.current_step_position, this.ctx.clock.now(), true);
      this.touch(id, actorId);
    })();
  }

  /** A step's action could not run: it and its enrollment are blocked until someone resumes it. */
  block(stepId: number, reason: FailureReason): void {
    const step = this.ctx.statements.get('SELECT enrollment_id FROM enrollment_steps WHERE id = ?').get(stepId) as { enrollment_id: number };
    this.ctx.db.transaction(() => {
      this.ctx.statements.get("UPDATE enrollment_steps SET status = 'blocked', failure_reason = ? WHERE id = ?").run(reason, stepId);
      this.ctx.statements.get("UPDATE sequence_enrollments SET state = 'blocked' WHERE id = ? AND state = 'active'").run(step.enrollment_id);
      this.touch(step.enrollment_id, null);
    })();
  }

  /**
   * A step's action is done at `doneAt`: the next step is scheduled from
   * then, or the enrollment finishes with all_steps_completed.
   */
  completeStep(stepId: number, doneAt: Date, executedAt?: string): void {
    const step = this.ctx.statements.get('SELECT * FROM enrollment_steps WHERE id = ?').get(stepId) as StepRow;
    const enrollment = this.row(step.enrollment_id)!;
    this.ctx.db.transaction(() => {
      this.ctx.statements.get("UPDATE enrollment_steps SET status = 'completed', executed_at = COALESCE(?, executed_at, ?), failure_reason = NULL WHERE id = ?")
        .run(executedAt ?? null, isoSeconds(doneAt), stepId);
      if (enrollment.state === 'finished') return this.touch(enrollment.id, null);
      const last = this.ctx.statements.get('SELECT MAX(position) FROM enrollment_steps WHERE enrollment_id = ?').pluck().get(enrollment.id) as number;
      if (step.position >= last) return this.finish(enrollment.id, 'all_steps_completed', null);
      this.ctx.statements.get('UPDATE sequence_enrollments SET current_step_position = ? WHERE id = ?').run(step.position + 1, enrollment.id);
      this.reschedule(enrollment.id, step.position + 1, doneAt);
      this.touch(enrollment.id, null);
    })();
  }

  /** Marks a step's action as started (a task created for it, or an email claimed), logged for sync. */
  startStep(stepId: number, set: { executed_at?: string; task_id?: number; attempt_key?: string }): boolean {
    const step = this.ctx.statements.get('SELECT enrollment_id FROM enrollment_steps WHERE id = ?').get(stepId) as { enrollment_id: number };
    const changed = this.ctx.statements.get(`UPDATE enrollment_steps SET status = 'in_progress', executed_at = COALESCE(@executed_at, executed_at),
        task_id = COALESCE(@task_id, task_id), attempt_key = COALESCE(@attempt_key, attempt_key) WHERE id = @id AND status = 'scheduled'`)
      .run({ id: stepId, executed_at: set.executed_at ?? null, task_id: set.task_id ?? null, attempt_key: set.attempt_key ?? null }).changes;
    if (changed > 0) this.touch(step.enrollment_id, null);
    return changed > 0;
  }

  requireAddon(): void {
    if (!this.accounts.hasAddon(SEQUENCES_ADDON)) {
      throw problem('forbidden', `Sequence enrollments need the ${SEQUENCES_ADDON} add-on, which this account does not have.`);
    }
  }

  /**
   * Estimates when the steps from `position` on run: each from the one
   * before (the first from `start`), as if every action were done on time.
   * `now`: the step at `position` runs at once (a resumed step).
   */
  private reschedule(enrollmentId: number, position: number, start: Date, now = false): void {
    const offset = utcOffsetMinutes(this.accountTimezone());
    const update = this.ctx.statements.get('UPDATE enrollment_steps SET estimated_execute_at = ? WHERE id = ?');
    let at = start;
    for (const step of this.steps(enrollmentId).filter((s) => s.position >= position)) {
      at = now && step.position === position ? start : addDelay(at, step.delay_from_previous_step, step.delay_from_previous_step_unit, offset);
      update.run(isoSeconds(at), step.id);
    }
  }

  private accountTimezone(): string {
    return this.ctx.statements.get('SELECT timezone FROM account WHERE id = 1').pluck().get() as string;
  }

  private touch(id: number, actorId: number | null): void {
    this.ctx.statements.get('UPDATE sequence_enrollments SET updated_at = ? WHERE id = ?').run(isoSeconds(this.ctx.clock.now()), id);
    this.ctx.changes.record('sequence_enrollment', id, 'updated', actorId);
  }
}

function resourceIdsClause(value: string): Clause {
  const ids = idListParam('resource_ids', value);
  return { sql: `e.resource_id IN (${ids.map(() => '?').join(',')})`, params: ids };
}

interface EnrollmentJson {
  id: number;
  sequence: { data: { id: number } };
  enrollment_steps: { items: { data: { position: number; delay_from_previous_step: number; delay_from_previous_step_unit: string; action_type: string;
    action_properties: unknown; action: { data: { status: string; estimated_execute_at: string | null; executed_at: string | null;
      failure_reason: string | null; task_id?: number | null; task_content?: string } } } }[] };
}

/**
 * A replica stores an enrollment from the hub's JSON: the sequence summary
 * and the steps live outside the row (replica/localRecords.ts).
 */
export const ENROLLMENT_PARTS = {
  write(ctx: EngineContext, json: Record<string, unknown>): void {
    const enrollment = json as unknown as EnrollmentJson;
    ctx.statements.get('UPDATE sequence_enrollments SET sequence_id = ?, sequence_json = ? WHERE id = ?')
      .run(enrollment.sequence.data.id, JSON.stringify(enrollment.sequence.data), enrollment.id);
    ctx.statements.get('DELETE FROM enrollment_steps WHERE enrollment_id = ?').run(enrollment.id);
    const insert = ctx.statements.get(`INSERT INTO enrollment_steps (enrollment_id, position, delay_from_previous_step, delay_from_previous_step_unit,
        action_type, action_properties, status, estimated_execute_at, executed_at, failure_reason, task_id, task_content) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    for (const { data: step } of enrollment.enrollment_steps.items) {
      const action = step.action.data;
      insert.run(enrollment.id, step.position, step.delay_from_previous_step, step.delay_from_previous_step_unit, step.action_type,
        JSON.stringify(step.action_properties), action.status, action.estimated_execute_at, action.executed_at, action.failure_reason,
        action.task_id ?? null, action.task_content ?? null);
    }
  },
  remove(ctx: EngineContext, id: number): void {
    ctx.statements.get('DELETE FROM enrollment_steps WHERE enrollment_id = ?').run(id);
  },
};
