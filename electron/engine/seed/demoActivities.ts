import { faker } from '@faker-js/faker';
import type { Engine } from '../engine.js';
import type { Db } from '../db/database.js';
import { withIndexesBuiltAfter } from '../db/deferredIndexes.js';
import { isoSeconds } from '../clock.js';
import { newRecordId } from '../context.js';
import { DAY, Pool, runSeed } from './demoSetup.js';
import { noteText, taskText, textMessage, type Slots } from './phrases.js';

export interface ActivityCounts {
  tasks?: number;
  notes?: number;
  textMessages?: number;
}

/** When a task is due, relative to now: what the task list's views show. */
export const TASK_BUCKETS = ['overdue', 'today', 'upcoming', 'no due date', 'completed'] as const;
export type TaskBucket = (typeof TASK_BUCKETS)[number];
const BUCKET_WEIGHTS: Record<TaskBucket, number> = { overdue: 20, today: 15, upcoming: 35, 'no due date': 15, completed: 15 };

export interface ActivitySummary {
  tasks: number;
  /** Tasks per bucket, in TASK_BUCKETS order. */
  taskBuckets: Map<TaskBucket, number>;
  notes: number;
  textMessages: number;
}

/** A record tasks and notes can be about, with the names their text is filled with. */
interface Subject {
  type: 'contact' | 'lead' | 'deal';
  id: number;
  slots: Slots;
  phone: string | null;
}

/**
 * Contacts, leads not converted yet (a converted lead's activities belong
 * to its contacts) and deals, with their names.
 */
function subjects(engine: Engine): Record<Subject['type'], Pool<Subject>> {
  const shape = (type: Subject['type']) => (row: Record<string, unknown>): Subject => ({
    type, id: row.id as number, phone: row.phone as string | null,
    slots: { first: (row.first as string | null) ?? undefined, person: (row.person as string | null) ?? undefined, company: (row.company as string | null) ?? undefined },
  });
  return {
    contact: new Pool(engine, 'SELECT id FROM contacts ORDER BY id', `SELECT c.id, c.first_name AS first, CASE c.is_organization WHEN 1 THEN NULL ELSE c.name END AS person,
      CASE c.is_organization WHEN 1 THEN c.name ELSE o.name END AS company, coalesce(c.mobile, c.phone) AS phone
      FROM contacts c LEFT JOIN contacts o ON o.id = c.contact_id WHERE c.id = ?`, shape('contact')),
    lead: new Pool(engine, "SELECT id FROM leads WHERE status <> 'Converted' ORDER BY id", `SELECT id, first_name AS first,
      nullif(trim(coalesce(first_name, '') || ' ' || coalesce(last_name, '')), '') AS person, organization_name AS company, coalesce(mobile, phone) AS phone
      FROM leads WHERE id = ?`, shape('lead')),
    deal: new Pool(engine, 'SELECT id FROM deals ORDER BY id', `SELECT d.id, p.first_name AS first, CASE p.is_organization WHEN 0 THEN p.name END AS person,
      coalesce(o.name, CASE p.is_organization WHEN 1 THEN p.name END) AS company, NULL AS phone
      FROM deals d LEFT JOIN contacts p ON p.id = d.contact_id LEFT JOIN contacts o ON o.id = d.organization_id WHERE d.id = ?`, shape('deal')),
  };
}

/**
 * Demo tasks, notes and text messages in English (phrases.ts), on existing
 * contacts and, when there are any, leads and deals; owners and authors
 * spread over the active users. Tasks fall into every bucket of the task
 * list: overdue, due today, upcoming, without a due date, and completed.
 *
 * Unlike the other parts of the demo data these rows go in through prepared
 * statements, with their change-log entries in one transaction (the search
 * indexes follow by trigger; a batch that at least doubles its table builds
 * the table's other indexes at the end: db/deferredIndexes.ts): the benchmark seeds 100 000 of each, and the
 * services' per-record checks take about twice as long. The values are
 * what the services accept (the tests pass seeded tasks and notes back
 * through them).
 */
export function seedActivities(engine: Engine, counts: ActivityCounts, seed = 7): ActivitySummary {
  const { db } = engine;
  const summary: ActivitySummary = { tasks: counts.tasks ?? 0, taskBuckets: new Map(TASK_BUCKETS.map((b) => [b, 0])), notes: counts.notes ?? 0, textMessages: counts.textMessages ?? 0 };
  if (summary.tasks + summary.notes + summary.textMessages === 0) return summary;
  const all = subjects(engine);
  if (all.contact.size === 0) throw new Error('No contacts yet: seed some with --contacts first.');
  const team = db.prepare("SELECT id, timezone FROM users WHERE status = 'active' AND deleted_at IS NULL ORDER BY id").all() as { id: number; timezone: string }[];
  const users = team.map((user) => user.id);
  const offsets = new Map(team.map((user) => [user.id, offsetMinutes(user.timezone)]));
  faker.seed(runSeed(engine, 'tasks', seed));
  const now = engine.clock.now();
  // Mostly contacts; leads and deals when there are some.
  const kinds = [{ value: all.contact, weight: 70 }, { value: all.lead, weight: 15 }, { value: all.deal, weight: 15 }].filter((k) => k.value.size > 0);
  const subject = () => faker.helpers.weightedArrayElement(kinds).draw();
  const buckets = TASK_BUCKETS.map((value) => ({ value, weight: BUCKET_WEIGHTS[value] }));
  db.transaction(() => {
    insertMany(engine, 'tasks', 'task', summary.tasks, () => {
      const about = subject();
      const bucket = faker.helpers.weightedArrayElement(buckets);
      summary.taskBuckets.set(bucket, summary.taskBuckets.get(bucket)! + 1);
      const owner = faker.helpers.arrayElement(users);
      return {
        creator_id: owner, owner_id: owner, resource_type: about.type, resource_id: about.id, content: taskText(about.slots),
        ...taskDates(bucket, now, offsets.get(owner)!),
      };
    });
    insertMany(engine, 'notes', 'note', summary.notes, () => {
      const about = subject();
      return {
        creator_id: faker.helpers.arrayElement(users), resource_type: about.type, resource_id: about.id, content: noteText(about.slots),
        is_important: faker.number.int(9) === 0 ? 1 : 0, type: faker.number.int(9) === 0 ? 'restricted' : 'regular',
      };
    });
    // Text messages are with a person: a contact or a lead.
    const texted = [{ value: all.contact, weight: 80 }, { value: all.lead, weight: 20 }].filter((k) => k.value.size > 0);
    insertMany(engine, 'text_messages', 'text_message', summary.textMessages, () => {
      const to = faker.helpers.weightedArrayElement(texted).draw();
      const incoming = faker.datatype.boolean();
      return {
        user_id: faker.helpers.arrayElement(users), content: textMessage(incoming, to.slots), incoming: incoming ? 1 : 0,
        resource_type: to.type, resource_id: to.id,
        resource_phone_number: to.phone ?? faker.phone.number({ style: 'international' }),
        send_at: isoSeconds(faker.date.recent({ days: 60, refDate: now })),
      };
    });
  }).immediate();
  return summary;
}

/**
 * A task's due date, reminder and completion for its bucket, as the Tasks
 * screen sorts them: "today" is the rest of the owner's day, which ends at
 * midnight in the owner's time zone (`offset`, minutes ahead of UTC).
 */
export function taskDates(bucket: TaskBucket, now: Date, offset = 0): { due_date: string | null; remind_at: string | null; completed: number; completed_at: string | null } {
  const at = (time: number) => isoSeconds(new Date(time));
  const t = now.getTime();
  const wall = t + offset * 60_000;
  const tomorrow = Math.floor(wall / DAY) * DAY + DAY - offset * 60_000;
  const open = { remind_at: null, completed: 0, completed_at: null };
  switch (bucket) {
    case 'overdue':
      return { ...open, due_date: at(t - faker.number.int({ min: 3_600_000, max: 14 * DAY })) };
    case 'today':
      // A minute from now at the earliest, a minute before midnight at the latest (whole seconds).
      return { ...open, due_date: at(t + 60_000 + faker.number.int({ min: 0, max: Math.max(0, tomorrow - t - 120_000) })) };
    case 'upcoming': {
      // Some working hour of one of the next 30 days.
      const due = tomorrow + faker.number.int({ min: 0, max: 29 }) * DAY + faker.number.int({ min: 16, max: 35 }) * 1_800_000;
      return { ...open, due_date: at(due), remind_at: faker.number.int(2) === 0 ? at(due - 3_600_000) : null };
    }
    case 'no due date':
      return { ...open, due_date: null };
    case 'completed': {
      const due = t - faker.number.int({ min: 1, max: 30 }) * DAY;
      return { due_date: at(due), remind_at: null, completed: 1, completed_at: at(Math.min(t, due + faker.number.int({ min: -2 * DAY, max: DAY }))) };
    }
  }
}

/** Minutes ahead of UTC of a user's `timezone` (`UTC+01:00`); 0 for anything else. */
function offsetMinutes(zone: string): number {
  const match = /^UTC([+-])(\d{2}):(\d{2})$/.exec(zone);
  return match ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
}

function insertMany(engine: Engine, table: string, type: string, count: number, row: () => Record<string, unknown>): void {
  if (count === 0) return;
  const now = isoSeconds(engine.clock.now());
  const first = { ...row(), created_at: now, updated_at: now };
  const columns = ['id', ...Object.keys(first)];
  const insert = (engine.db as Db).prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`);
  // Ids after every id ever used: a deleted record's id is never given again (devices may hold it).
  const firstId = newRecordId(engine.ctx, table, type);
  withIndexesBuiltAfter(engine.db, table, count, () => {
    for (let i = 0; i < count; i++) {
      const values: Record<string, unknown> = i === 0 ? first : { ...row(), created_at: now, updated_at: now };
      insert.run({ ...values, id: firstId + i });
      engine.ctx.changes.record(type, firstId + i, 'created', (values.creator_id ?? values.user_id) as number);
    }
  });
}
