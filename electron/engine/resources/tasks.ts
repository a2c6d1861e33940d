import type { Actor, EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { RecordStore } from './recordStore.js';
import { FieldErrors, invalidParam, notFound } from '../problems.js';
import { checkFields, isBlank, type FieldTable } from './fields.js';
import { countList, ftsPrefixQuery, idsMatching, runList, type Clause, type ListDefinition, type ListPage } from './listing.js';
import { boolParam, enumParam, single, type RawQuery } from './params.js';
import { jsonBool, jsonObject } from '../db/sqlJson.js';
import { checkResourceLink, removeLinkedOnDelete } from './resourceLinks.js';
import type { Users } from './users.js';
import { TASK_DUE_SECTIONS, TASK_RESOURCE_TYPES, type TaskCounts, type TaskDueSection } from '../../../shared/resources/task.js';
import { parseTimeZone, startOfNextDay } from './timeZone.js';
import type { SyncSource } from '../sync/sources.js';

/** The spec's Task field table. */
export const FIELDS: FieldTable = {
  id: { kind: 'readOnly' },
  creator_id: { kind: 'readOnly' },
  completed_at: { kind: 'readOnly' },
  overdue: { kind: 'readOnly' },
  created_at: { kind: 'readOnly' },
  updated_at: { kind: 'readOnly' },
  owner_id: { kind: 'id' },
  resource_type: { kind: 'enum', values: TASK_RESOURCE_TYPES, nullable: true },
  resource_id: { kind: 'id' },
  completed: { kind: 'boolean' },
  due_date: { kind: 'datetime' },
  remind_at: { kind: 'datetime' },
  content: { kind: 'string', maxLength: 65535 },
};

/** Overdue is computed at read time against the engine's clock (SQL now_utc()), never stored. */
const OVERDUE = 't.due_date IS NOT NULL AND t.due_date < now_utc()';

const TASK_JSON = jsonObject({
  id: 't.id',
  creator_id: 't.creator_id',
  owner_id: 't.owner_id',
  resource_type: 't.resource_type',
  resource_id: 't.resource_id',
  completed: jsonBool('t.completed'),
  completed_at: 't.completed_at',
  due_date: 't.due_date',
  overdue: jsonBool(OVERDUE),
  remind_at: 't.remind_at',
  content: 't.content',
  created_at: 't.created_at',
  updated_at: 't.updated_at',
});

/** Tasks as devices receive them (sync/). */
export const TASK_SYNC: SyncSource = { type: 'task', from: 'tasks t', idColumn: 't.id', json: TASK_JSON };

interface TaskRow {
  id: number;
  owner_id: number;
  resource_type: string | null;
  resource_id: number | null;
  content: string;
  completed: number;
  completed_at: string | null;
  due_date: string | null;
  remind_at: string | null;
}

const WRITABLE = ['owner_id', 'resource_type', 'resource_id', 'content', 'completed', 'completed_at', 'due_date', 'remind_at'] as const;

export class Tasks {
  private readonly byIdJson;
  private readonly byId;
  private readonly list: ListDefinition;
  private readonly store: RecordStore;
  private readonly userTimeZone;

  constructor(private readonly ctx: EngineContext, private readonly users: Users) {
    this.store = new RecordStore(ctx, 'tasks', 'task', WRITABLE);
    this.byIdJson = ctx.db.prepare(`SELECT ${TASK_JSON} FROM tasks t WHERE t.id = ?`).pluck();
    this.byId = ctx.db.prepare('SELECT * FROM tasks WHERE id = ?');
    this.list = {
      resource: 'task',
      from: 'tasks t',
      json: TASK_JSON,
      idColumn: 't.id',
      filters: {
        creator_id: { kind: 'id', column: 't.creator_id' },
        owner_id: { kind: 'id', column: 't.owner_id' },
        resource_type: { kind: 'enum', column: 't.resource_type', values: TASK_RESOURCE_TYPES },
        resource_id: { kind: 'id', column: 't.resource_id' },
        completed: { kind: 'bool', column: 't.completed' },
      },
      sorts: {
        resource_type: 't.resource_type', completed_at: 't.completed_at', due_date: 't.due_date',
        created_at: 't.created_at', updated_at: 't.updated_at',
        // Extension: the notification centre lists the latest reminders first.
        remind_at: 't.remind_at',
      },
      defaultOrder: 't.updated_at ASC',
      searchIndex: 'tasks_fts',
      // A section (`due`) is a view of the list: it narrows even when the other filters are ORed (inclusive=false).
      narrowing: ['q', 'due'],
      extraFilter: (name, value) => extraFilter(name, value),
    };
    this.userTimeZone = ctx.db.prepare('SELECT timezone FROM users WHERE id = ?').pluck();
    // A deleted lead, contact or deal takes its tasks with it.
    removeLinkedOnDelete(ctx, 'tasks', (id, actorId) => this.store.remove(id, actorId));
  }

  json(id: number): string {
    const json = this.byIdJson.get(id) as string | undefined;
    if (json === undefined) throw notFound('task', id);
    return json;
  }

  listPage(query: RawQuery, actor: Actor): ListPage {
    const { list, rest } = this.listOf(query, actor);
    return runList(list, rest, this.ctx.statements, actor.userId);
  }

  /** The list definition a smart list of tasks is checked with: sections in the actor's own time zone. */
  listFor(actor: Actor): ListDefinition {
    return this.withSections(undefined, actor);
  }

  idsMatching(query: RawQuery, actor: Actor): number[] {
    const { list, rest } = this.listOf(query, actor);
    return idsMatching(list, rest, this.ctx.statements, actor.userId);
  }

  /**
   * The list definition a query needs: only a section needs the user's day
   * (a smart list may filter by section too); every other list reads as it always has.
   */
  private listOf(query: RawQuery, actor: Actor): { list: ListDefinition; rest: RawQuery } {
    const { tz, ...rest } = query;
    const plain = rest.due === undefined && tz === undefined && rest.smart_list_id === undefined;
    return { list: plain ? this.list : this.withSections(tz, actor), rest };
  }

  /**
   * Extension GET /v2/tasks/counts: how many tasks the list's filters select
   * in each section, each one indexed COUNT (owner, completed, due date).
   * The parameters counts sets itself, and paging, are refused.
   */
  counts(query: RawQuery, actor: Actor): string {
    const own = Object.keys(query).find((name) => COUNTS_REFUSED.includes(name));
    if (own !== undefined) throw invalidParam(own, 'not taken by the counts, which give every section at once');
    const { tz, ...rest } = query;
    const list = this.withSections(tz, actor);
    const count = (extra: RawQuery) => countList(list, { ...rest, ...extra }, this.ctx.statements, actor.userId);
    const counts = Object.fromEntries(TASK_DUE_SECTIONS.map((due) => [due, count({ completed: 'false', due })])) as TaskCounts;
    counts.completed = count({ completed: 'true' });
    counts.reminders_due = count({ reminder_due: 'true' });
    return JSON.stringify(counts);
  }

  /** The list with `due` understood: its day ends at midnight in `tz` (default: the user's own `timezone`). */
  private withSections(tz: string | string[] | undefined, actor: Actor): ListDefinition {
    const zone = parseTimeZone('tz', tz === undefined ? this.timeZoneOf(actor) : single({ tz }, 'tz')!);
    const now = this.ctx.clock.now();
    const bounds = { now: isoSeconds(now), tomorrow: isoSeconds(startOfNextDay(now, zone)) };
    return { ...this.list, extraFilter: (name, value) => (name === 'due' ? dueFilter(value, bounds) : extraFilter(name, value)) };
  }

  /** The user's own `timezone` (`UTC+01:00`), where a client names none. */
  private timeZoneOf(actor: Actor): string {
    return (this.userTimeZone.get(actor.userId) as string | undefined) ?? 'UTC+00:00';
  }

  create(data: Record<string, unknown>, actor: Actor): number {
    const { values, errors } = checkFields('task', FIELDS, data);
    if (!errors.has('/content')) {
      if (values.content === undefined) errors.add('/content', 'missing', 'content is required.');
      else if (isBlank(values.content)) errors.add('/content', 'blank', "content can't be blank.");
    }
    const row = this.apply({ owner_id: actor.userId, completed: 0 }, values, errors);
    return this.store.insert(row, { creator_id: actor.userId }, actor.userId);
  }

  update(id: number, data: Record<string, unknown>, actor: Actor): void {
    const current = this.byId.get(id) as TaskRow | undefined;
    if (!current) throw notFound('task', id);
    const { values, errors } = checkFields('task', FIELDS, data);
    if (values.content !== undefined && isBlank(values.content) && !errors.has('/content')) errors.add('/content', 'blank', "content can't be blank.");
    const row = this.apply({ ...current }, values, errors);
    this.store.update(id, row, actor.userId);
  }

  delete(id: number, actor: Actor): void {
    if (!this.byId.get(id)) throw notFound('task', id);
    this.store.remove(id, actor.userId);
  }

  /** Merges checked values into the row and enforces the rules across fields; throws one 422 with every problem. */
  private apply(row: Partial<TaskRow>, values: Record<string, unknown>, errors: FieldErrors): Partial<TaskRow> {
    const out: Partial<TaskRow> = { ...row };
    for (const field of ['owner_id', 'resource_type', 'resource_id', 'content', 'due_date', 'remind_at'] as const) {
      if (values[field] !== undefined) (out as Record<string, unknown>)[field] = values[field];
    }
    if (values.completed !== undefined) {
      const completed = values.completed === true;
      // completed_at is the service's: set when a task becomes completed, cleared when it is reopened.
      if (completed && out.completed !== 1) out.completed_at = isoSeconds(this.ctx.clock.now());
      if (!completed) out.completed_at = null;
      out.completed = completed ? 1 : 0;
    }
    this.users.checkReference('owner_id', values.owner_id, errors);
    checkResourceLink(this.ctx.db, out, errors, { required: false, changed: values.resource_type !== undefined || values.resource_id !== undefined });
    if (out.remind_at && !errors.has('/remind_at') && !errors.has('/due_date')) {
      if (!out.due_date) errors.add('/remind_at', 'incorrect_value', 'remind_at needs a due_date to be earlier than.');
      else if (out.remind_at >= out.due_date) errors.add('/remind_at', 'incorrect_value', 'remind_at must be earlier than due_date.');
    }
    errors.throwIfAny();
    return out;
  }
}

/** Parameters the counts set themselves (per section), and paging, which counts have none of. */
const COUNTS_REFUSED = ['due', 'completed', 'reminder_due', 'inclusive', 'page', 'per_page', 'sort_by'];

/** Where each section's due dates lie, against now and the start of the user's next day (bound values, so the index range applies). */
const SECTION_SQL: Record<TaskDueSection, { sql: string; bounds: ('now' | 'tomorrow')[] }> = {
  overdue: { sql: 't.due_date < ?', bounds: ['now'] },
  today: { sql: '(t.due_date >= ? AND t.due_date < ?)', bounds: ['now', 'tomorrow'] },
  upcoming: { sql: 't.due_date >= ?', bounds: ['tomorrow'] },
  none: { sql: 't.due_date IS NULL', bounds: [] },
};

/** `due=overdue`, `due=today,upcoming`: the tasks in any of the sections named. */
function dueFilter(value: string, bounds: Record<'now' | 'tomorrow', string>): Clause {
  const sections = [...new Set(value.split(',').map((v) => enumParam('due', v.trim(), TASK_DUE_SECTIONS)))];
  const clauses = sections.map((section) => SECTION_SQL[section]);
  return { sql: `(${clauses.map((c) => c.sql).join(' OR ')})`, params: clauses.flatMap((c) => c.bounds.map((b) => bounds[b])) };
}

function extraFilter(name: string, value: string): Clause | undefined {
  switch (name) {
    case 'q':
      return ftsPrefixQuery('tasks_fts', 't.id', value);
    case 'type':
      return { sql: enumParam(name, value, ['floating', 'related']) === 'floating' ? 't.resource_type IS NULL' : 't.resource_type IS NOT NULL', params: [] };
    case 'overdue':
      return { sql: boolParam(name, value) ? `(${OVERDUE})` : `NOT (${OVERDUE})`, params: [] };
    // Extension: reminders whose time has come (remind_at passed) on open tasks, for notifications.
    case 'reminder_due':
      return { sql: boolParam(name, value) ? '(t.remind_at <= now_utc() AND t.completed = 0)' : 'NOT (t.remind_at IS NOT NULL AND t.remind_at <= now_utc() AND t.completed = 0)', params: [] };
    case 'remind':
      return { sql: boolParam(name, value) ? 't.remind_at IS NOT NULL' : 't.remind_at IS NULL', params: [] };
    default:
      return undefined;
  }
}
