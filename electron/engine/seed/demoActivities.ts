import { faker } from '@faker-js/faker';
import type { Engine } from '../engine.js';
import type { Db } from '../db/database.js';
import { isoSeconds } from '../clock.js';
import { newRecordId } from '../context.js';

export interface ActivityCounts {
  tasks?: number;
  notes?: number;
  textMessages?: number;
}

const TASK_VERBS = ['Call', 'Email', 'Visit', 'Send quote to', 'Follow up with', 'Book demo for', 'Prepare proposal for'];
const NOTE_TOPICS = ['pricing', 'renewal', 'delivery dates', 'budget', 'competitor offer', 'training needs', 'contract terms'];

/**
 * Demo tasks, notes and text messages on existing contacts, written in one
 * transaction with their change-log entries (the search indexes follow by
 * trigger). For demos and for the search benchmark at 100 000 records.
 */
export function seedActivities(engine: Engine, counts: ActivityCounts, seed = 7): void {
  const { db } = engine;
  const contacts = db.prepare('SELECT id, name FROM contacts ORDER BY id').all() as { id: number; name: string }[];
  if (contacts.length === 0) throw new Error('No contacts yet: seed some with --contacts first.');
  const users = db.prepare('SELECT id FROM users WHERE deleted_at IS NULL').pluck().all() as number[];
  faker.seed(seed);
  const now = engine.clock.now();
  db.transaction(() => {
    insertMany(engine, 'tasks', 'task', counts.tasks ?? 0, () => {
      const contact = faker.helpers.arrayElement(contacts);
      const due = faker.date.soon({ days: 30, refDate: faker.date.recent({ days: 20, refDate: now }) });
      const done = faker.number.int(3) === 0;
      return {
        creator_id: faker.helpers.arrayElement(users), owner_id: faker.helpers.arrayElement(users),
        resource_type: 'contact', resource_id: contact.id,
        content: `${faker.helpers.arrayElement(TASK_VERBS)} ${contact.name} about ${faker.helpers.arrayElement(NOTE_TOPICS)}`,
        completed: done ? 1 : 0, completed_at: done ? isoSeconds(now) : null, due_date: isoSeconds(due),
        remind_at: faker.number.int(4) === 0 ? isoSeconds(new Date(due.getTime() - 3600_000)) : null,
      };
    });
    insertMany(engine, 'notes', 'note', counts.notes ?? 0, () => ({
      creator_id: faker.helpers.arrayElement(users), resource_type: 'contact', resource_id: faker.helpers.arrayElement(contacts).id,
      content: `${faker.helpers.arrayElement(NOTE_TOPICS)}: ${faker.lorem.sentence()}`,
      is_important: faker.number.int(9) === 0 ? 1 : 0, type: faker.number.int(9) === 0 ? 'restricted' : 'regular',
    }));
    insertMany(engine, 'text_messages', 'text_message', counts.textMessages ?? 0, () => {
      const incoming = faker.datatype.boolean();
      return {
        user_id: faker.helpers.arrayElement(users), content: faker.lorem.sentence(), incoming: incoming ? 1 : 0,
        resource_type: 'contact', resource_id: faker.helpers.arrayElement(contacts).id,
        resource_phone_number: faker.phone.number({ style: 'international' }),
        send_at: isoSeconds(faker.date.recent({ days: 60, refDate: now })),
      };
    });
  })();
}

function insertMany(engine: Engine, table: string, type: string, count: number, row: () => Record<string, unknown>): void {
  if (count === 0) return;
  const now = isoSeconds(engine.clock.now());
  const first = { ...row(), created_at: now, updated_at: now };
  const columns = ['id', ...Object.keys(first)];
  const insert = (engine.db as Db).prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`);
  // Ids after every id ever used: a deleted record's id is never given again (devices may hold it).
  const firstId = newRecordId(engine.ctx, table, type);
  for (let i = 0; i < count; i++) {
    const values = i === 0 ? first : { ...row(), created_at: now, updated_at: now };
    insert.run({ ...values, id: firstId + i });
    engine.ctx.changes.record(type, firstId + i, 'created', null);
  }
}
