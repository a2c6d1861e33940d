import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, startTestHub, type TestHub } from '../support/testHub.js';
import { RecordStore } from '../../electron/engine/resources/recordStore.js';

/**
 * RecordStore.update writes only the columns whose value changed (plus
 * updated_at), so unchanged columns' indexes and `AFTER UPDATE OF` triggers
 * are left alone. TEMP triggers on the engine's own connection record which
 * columns an UPDATE named.
 */
let hub: TestHub;
const put = (path: string, data: unknown) => call(hub, 'PUT', path, { token: hub.agentToken, data });
const post = (path: string, data: unknown) => call(hub, 'POST', path, { token: hub.agentToken, data });
const search = async (q: string) =>
  (await call(hub, 'GET', `/v2/tasks?q=${encodeURIComponent(q)}`, { token: hub.agentToken })).body.items.map((i: any) => i.data.id);

/** Names of the watch triggers that fired since the last reset, sorted (SQLite's trigger order is not part of the contract). */
const fired = () => (hub.engine.db.prepare('SELECT name FROM temp.fired').pluck().all() as string[]).sort();

beforeAll(async () => {
  hub = await startTestHub();
  hub.engine.db.exec(`
    CREATE TEMP TABLE fired (name TEXT NOT NULL);
    CREATE TEMP TRIGGER watch_task_due AFTER UPDATE OF due_date ON main.tasks BEGIN INSERT INTO fired VALUES ('task due_date'); END;
    CREATE TEMP TRIGGER watch_task_content AFTER UPDATE OF content ON main.tasks BEGIN INSERT INTO fired VALUES ('task content'); END;
    CREATE TEMP TRIGGER watch_contact_search AFTER UPDATE OF name, email, phone, mobile ON main.contacts BEGIN INSERT INTO fired VALUES ('contact search'); END;
    CREATE TEMP TRIGGER watch_contact_any AFTER UPDATE ON main.contacts BEGIN INSERT INTO fired VALUES ('contact any'); END;
  `);
});
afterAll(() => hub.close());
beforeEach(() => {
  hub.engine.db.exec('DELETE FROM temp.fired');
});

describe('updating a task writes only the changed columns', () => {
  it('does not touch due_date when only content changes, and does when due_date changes', async () => {
    const id = (await post('/v2/tasks', { content: 'Ring the depot', due_date: '2026-03-10T09:00:00Z' })).body.data.id;
    hub.engine.db.exec('DELETE FROM temp.fired');

    expect((await put(`/v2/tasks/${id}`, { content: 'Ring the warehouse' })).status).toBe(200);
    expect(fired()).toEqual(['task content']);

    hub.engine.db.exec('DELETE FROM temp.fired');
    const moved = await put(`/v2/tasks/${id}`, { due_date: '2026-03-11T09:00:00Z' });
    expect(moved.body.data).toMatchObject({ content: 'Ring the warehouse', due_date: '2026-03-11T09:00:00Z' });
    expect(fired()).toEqual(['task due_date']);
  });

  it('sending a field with its current value does not count as a change', async () => {
    const id = (await post('/v2/tasks', { content: 'Same again', due_date: '2026-03-10T09:00:00Z' })).body.data.id;
    hub.engine.db.exec('DELETE FROM temp.fired');
    expect((await put(`/v2/tasks/${id}`, { content: 'Same again', due_date: '2026-03-10T09:00:00Z' })).status).toBe(200);
    expect(fired()).toEqual([]);
  });

  it('keeps the search index right: new words found, old ones gone, untouched content still found', async () => {
    const id = (await post('/v2/tasks', { content: 'Quote for marmalade' })).body.data.id;
    expect(await search('marmalade')).toEqual([id]);

    await put(`/v2/tasks/${id}`, { content: 'Quote for rhubarb' });
    expect(await search('rhubarb')).toEqual([id]);
    expect(await search('marmalade')).toEqual([]);

    await put(`/v2/tasks/${id}`, { due_date: '2026-04-01T08:00:00Z', completed: true });
    expect(await search('rhubarb')).toEqual([id]);
  });

  it('still bumps updated_at and logs an update when nothing else changed', async () => {
    const created = (await post('/v2/tasks', { content: 'Unchanged' })).body.data;
    hub.clock.advance(60_000);
    const answer = await put(`/v2/tasks/${created.id}`, { content: 'Unchanged' });
    expect(answer.body.data.updated_at).not.toBe(created.updated_at);
    expect(answer.body.data.updated_at).toBe(new Date(hub.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z'));
    const events = hub.engine.db
      .prepare("SELECT event_type FROM change_log WHERE resource_type = 'task' AND resource_id = ? ORDER BY revision").pluck().all(created.id);
    expect(events).toEqual(['created', 'updated']);
  });
});

describe('updating a contact writes only the changed columns', () => {
  it('leaves the search columns alone when another field changes, yet the stored document follows', async () => {
    const id = (await post('/v2/contacts', { first_name: 'Ona', last_name: 'Pike', email: 'ona@example.com' })).body.data.id;
    hub.engine.db.exec('DELETE FROM temp.fired');
    const answer = await put(`/v2/contacts/${id}`, { description: 'Buys in spring' });
    expect(answer.body.data).toMatchObject({ description: 'Buys in spring', email: 'ona@example.com' });
    expect(fired()).toEqual(['contact any']);
    const fetched = await call(hub, 'GET', `/v2/contacts/${id}`, { token: hub.agentToken });
    expect(fetched.body.data.description).toBe('Buys in spring');

    hub.engine.db.exec('DELETE FROM temp.fired');
    await put(`/v2/contacts/${id}`, { last_name: 'Pikes' });
    expect(fired()).toEqual(['contact any', 'contact search']);
    expect((await call(hub, 'GET', `/v2/contacts/${id}`, { token: hub.agentToken })).body.data.name).toBe('Ona Pikes');
  });
});

describe('comparing stored values', () => {
  it('treats a Buffer with the same bytes as unchanged and other bytes or types as changed', () => {
    const { ctx } = hub.engine;
    ctx.db.exec(`
      CREATE TEMP TABLE blobs (id INTEGER PRIMARY KEY, data BLOB, label TEXT, updated_at TEXT);
      CREATE TEMP TRIGGER watch_blob AFTER UPDATE OF data ON blobs BEGIN INSERT INTO fired VALUES ('blob data'); END;
      CREATE TEMP TRIGGER watch_label AFTER UPDATE OF label ON blobs BEGIN INSERT INTO fired VALUES ('blob label'); END;
      INSERT INTO blobs (id, data, label) VALUES (1, x'0102', '5');
    `);
    const store = new RecordStore(ctx, 'temp.blobs', 'blob_test', ['data', 'label']);

    store.update(1, { data: Buffer.from([1, 2]), label: '5' }, hub.adminId);
    expect(fired()).toEqual([]);

    store.update(1, { data: Buffer.from([1, 3]), label: 5 }, hub.adminId);
    expect(fired()).toEqual(['blob data', 'blob label']);
    expect(ctx.db.prepare('SELECT data, label FROM temp.blobs WHERE id = 1').get()).toEqual({ data: Buffer.from([1, 3]), label: '5.0' });
    ctx.db.exec("DELETE FROM change_log WHERE resource_type = 'blob_test'");
  });
});
