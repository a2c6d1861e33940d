import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, fields, startTestHub, type Answer, type TestHub } from '../support/testHub.js';
import { MAX_ACTIVE_SESSIONS, QUEUE_PAGE_SIZE, SESSION_IDLE_SECONDS } from '../../electron/engine/sync/sessions.js';

let hub: TestHub;
let agentSync: string;
let adminSync: string;

interface Item {
  data: { id: number } & Record<string, unknown>;
  meta: { type: string; sync: { event_type: string; ack_key: string; revision: number } };
}

const header = (uuid: string, name = 'X-Service-Device-UUID') => ({ [name]: uuid });
const start = (token: string, uuid: string, name?: string) => call(hub, 'POST', '/v2/sync/start', { token, headers: header(uuid, name) });
const queue = (token: string, uuid: string, session: string) => call(hub, 'GET', `/v2/sync/${session}/queues/main`, { token, headers: header(uuid) });
const ack = (token: string, uuid: string, keys: unknown) => call(hub, 'POST', '/v2/sync/ack', { token, headers: header(uuid), data: { ack_keys: keys } });

/** One whole session as a client runs it: start, every page (acknowledged unless told not to), until 204. */
async function sync(token: string, uuid: string, options: { ack?: boolean; maxPages?: number } = {}): Promise<{ started: Answer; items: Item[] }> {
  const started = await start(token, uuid);
  const items: Item[] = [];
  if (started.status === 204) return { started, items };
  expect(started.status).toBe(201);
  for (let page = 0; page < (options.maxPages ?? Infinity); page++) {
    const answer = await queue(token, uuid, started.body.data.id);
    if (answer.status === 204) break;
    expect(answer.status).toBe(200);
    items.push(...answer.body.items);
    if (options.ack !== false) expect((await ack(token, uuid, answer.body.items.map((i: Item) => i.meta.sync.ack_key))).status).toBe(202);
  }
  return { started, items };
}

const of = (items: Item[], type: string, id?: number) => items.filter((i) => i.meta.type === type && (id === undefined || i.data.id === id));
const post = async (path: string, data: unknown, token = hub.agentToken) => (await call(hub, 'POST', path, { token, data })).body.data;

beforeAll(async () => {
  hub = await startTestHub();
  agentSync = hub.tokenFor(hub.agentId, ['read', 'write', 'sync']);
  adminSync = hub.tokenFor(hub.adminId, ['read', 'write', 'sync']);
});
afterAll(() => hub.close());

describe('sync: authentication and the device header', () => {
  it('needs a token (401), the sync scope (403) and a well-formed device UUID (400)', async () => {
    const uuid = randomUUID();
    expect((await start('', uuid)).status).toBe(401);
    const noSync = await start(hub.agentToken, uuid);
    expect([noSync.status, codes(noSync)]).toEqual([403, ['insufficient_scope']]);
    for (const path of [`/v2/sync/${randomUUID()}/queues/main`]) {
      expect((await call(hub, 'GET', path, { token: hub.agentToken, headers: header(uuid) })).status).toBe(403);
    }
    expect((await ack(hub.agentToken, uuid, [])).status).toBe(403);

    const missing = await call(hub, 'POST', '/v2/sync/start', { token: agentSync });
    expect([missing.status, codes(missing), fields(missing)]).toEqual([400, ['invalid_header'], ['X-Service-Device-UUID']]);
    expect(missing.body.meta.logref).toBe(missing.headers.get('x-request-id'));
    for (const bad of ['not-a-uuid', '1234', `${uuid}x`]) {
      const answer = await start(agentSync, bad);
      expect([answer.status, codes(answer)], bad).toEqual([400, ['invalid_header']]);
    }
    expect(codes(await call(hub, 'POST', '/v2/sync/start', { token: agentSync, headers: { ...header(uuid), ...header(randomUUID(), 'X-Basecrm-Device-UUID') } }))).toEqual(['invalid_header']);
    expect(codes(await ack(agentSync, 'nope', []))).toEqual(['invalid_header']);
    expect(codes(await call(hub, 'GET', `/v2/sync/${randomUUID()}/queues/main`, { token: agentSync }))).toEqual(['invalid_header']);
  });

  it('accepts the header names existing clients send, in any case, and empty bodies of any content type', async () => {
    for (const name of ['X-Basecrm-Device-UUID', 'X-Basecrm-Device-Uuid', 'x-service-device-uuid']) {
      expect((await start(agentSync, randomUUID(), name)).status, name).toBe(201);
    }
    // Python and PHP send an empty POST; Ruby an empty body typed as a form.
    const ruby = await call(hub, 'POST', '/v2/sync/start', { token: agentSync, headers: header(randomUUID()), raw: '', contentType: 'application/x-www-form-urlencoded' });
    expect(ruby.status).toBe(201);
    expect(codes(await call(hub, 'POST', '/v2/sync/start?full=1', { token: agentSync, headers: header(randomUUID()) }))).toEqual(['invalid_param']);
  });
});

describe('sync: sessions and the main queue', () => {
  it('starts with the sync_session envelope real clients read, then serves every record once and 204', async () => {
    const uuid = randomUUID();
    const started = await start(agentSync, uuid);
    expect(started.status).toBe(201);
    expect(started.body.meta).toEqual({ type: 'sync_session' });
    const { id, queues } = started.body.data;
    expect(typeof id).toBe('string');
    expect(queues).toHaveLength(1);
    const [main] = queues;
    expect(main.meta.type).toBe('sync_queue');
    expect(main.meta.links.self).toBe(`${hub.url}/v2/sync/${id}/queues/main`);
    expect(main.data).toMatchObject({ name: 'main', pages: 1 });
    expect(Number.isInteger(main.data.total_count) && main.data.total_count > 0).toBe(true);

    const page = await queue(agentSync, uuid, id);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(page.body.meta).toMatchObject({ type: 'collection', count: main.data.total_count, count_left: 0, failed_objects: [] });
    const items: Item[] = page.body.items;
    // A fresh hub already has what every client needs: the account, the users, the outcome lists.
    expect(of(items, 'account')).toHaveLength(1);
    expect(of(items, 'user').map((i) => i.data.email).sort()).toEqual(['admin@example.com', 'agent@example.com']);
    expect(of(items, 'call_outcome').length).toBeGreaterThan(0);
    expect(of(items, 'visit_outcome').length).toBeGreaterThan(0);
    for (const item of items) {
      expect(item.meta.sync.event_type).toBe('created');
      expect(typeof item.meta.sync.ack_key).toBe('string');
      expect(Number.isInteger(item.meta.sync.revision)).toBe(true);
    }
    const revisions = items.map((i) => i.meta.sync.revision);
    expect(revisions).toEqual([...revisions].sort((a, b) => a - b));
    // Drained: 204, never an empty 200 (the Java and Ruby clients stop only on 204).
    expect((await queue(agentSync, uuid, id)).status).toBe(204);
    expect((await queue(agentSync, uuid, id)).status).toBe(204);
    // Nothing acknowledged yet: the next session serves the same records again.
    const again = await sync(agentSync, uuid);
    expect(again.items.map((i) => i.meta.sync.ack_key)).toEqual(items.map((i) => i.meta.sync.ack_key));
    expect((await start(agentSync, uuid)).status).toBe(204);
  });

  it('writes nothing when a current device starts again within the same second, and notes it seen once the clock moves on', async () => {
    const uuid = randomUUID();
    await sync(agentSync, uuid);
    const { db } = hub.engine;
    // Writes to the database: SQLite counts them; on PostgreSQL the device row's version (xmin) moves with each write of it.
    const writes = () => (db.dialect === 'sqlite'
      ? db.prepare('SELECT total_changes()').pluck().get() as number
      : db.prepare('SELECT CAST(xmin AS text) FROM sync_devices WHERE uuid = ?').pluck().get(uuid) as string);
    const seen = () => db.prepare('SELECT last_seen_at FROM sync_devices WHERE uuid = ?').pluck().get(uuid) as string;
    expect((await start(agentSync, uuid)).status).toBe(204);
    const before = writes();
    expect((await start(agentSync, uuid)).status).toBe(204);
    expect((await start(agentSync, uuid)).status).toBe(204);
    expect(writes()).toBe(before);
    const lastSeen = seen();
    hub.clock.advance(2000);
    expect((await start(agentSync, uuid)).status).toBe(204);
    if (db.dialect === 'sqlite') expect(writes()).toBe((before as number) + 1);
    else expect(writes()).not.toBe(before);
    expect(Date.parse(seen()) - Date.parse(lastSeen)).toBe(2000);
  });

  it('serves records as their GET does, a create and its updates once in the latest form, and deletes as ids', async () => {
    const uuid = randomUUID();
    await sync(agentSync, uuid);
    const contact = await post('/v2/contacts', { last_name: 'Synced', tags: ['sync'] });
    await call(hub, 'PUT', `/v2/contacts/${contact.id}`, { token: hub.agentToken, data: { title: 'Buyer' } });
    await call(hub, 'PUT', `/v2/contacts/${contact.id}`, { token: hub.agentToken, data: { title: 'Head buyer' } });
    const task = await post('/v2/tasks', { content: 'Call back', resource_type: 'contact', resource_id: contact.id });
    const fleeting = await post('/v2/notes', { resource_type: 'contact', resource_id: contact.id, content: 'Gone before any device saw it' });
    await call(hub, 'DELETE', `/v2/notes/${fleeting.id}`, { token: hub.agentToken });

    const first = await sync(agentSync, uuid);
    expect(first.started.body.data.queues[0].data.total_count).toBe(first.items.length);
    const [synced] = of(first.items, 'contact', contact.id);
    expect(of(first.items, 'contact', contact.id)).toHaveLength(1);
    expect(synced.meta.sync.event_type).toBe('created');
    expect(synced.data).toEqual((await call(hub, 'GET', `/v2/contacts/${contact.id}`, { token: hub.agentToken })).body.data);
    expect(synced.data.title).toBe('Head buyer');
    expect(of(first.items, 'task', task.id)[0].data).toEqual((await call(hub, 'GET', `/v2/tasks/${task.id}`, { token: hub.agentToken })).body.data);
    expect(of(first.items, 'tag').map((i) => i.data.name)).toContain('sync');
    expect(of(first.items, 'note', fleeting.id)).toEqual([]);

    await call(hub, 'PUT', `/v2/tasks/${task.id}`, { token: hub.agentToken, data: { completed: true } });
    await call(hub, 'DELETE', `/v2/contacts/${contact.id}`, { token: hub.agentToken });
    const second = await sync(agentSync, uuid);
    // Deleting the contact took its task with it: both arrive as deletes carrying only the id.
    expect(second.items.map((i) => [i.meta.type, i.data, i.meta.sync.event_type])).toEqual([
      ['task', { id: task.id }, 'deleted'],
      ['contact', { id: contact.id }, 'deleted'],
    ]);
    expect(second.items[0].meta.sync.ack_key).toMatch(/deleted/);
    expect((await start(agentSync, uuid)).status).toBe(204);
  });

  it('pages a large backlog in revision order, and an interrupted session leaves the rest for the next', async () => {
    const uuid = randomUUID();
    await sync(agentSync, uuid);
    const actor = { userId: hub.agentId, role: 'user' as const, scopes: new Set(['read', 'write'] as const) };
    const count = QUEUE_PAGE_SIZE + 250;
    const ids = hub.engine.db.transaction(() => Array.from({ length: count }, (_, i) => hub.engine.tasks.create({ content: `Bulk task ${i}` }, actor)))();

    const started = await start(agentSync, uuid);
    expect(started.body.data.queues[0].data).toMatchObject({ pages: 2, total_count: count });
    const session = started.body.data.id;
    const first = await queue(agentSync, uuid, session);
    expect(first.body.meta).toMatchObject({ count: QUEUE_PAGE_SIZE, count_left: 250 });
    expect(first.body.items.map((i: Item) => i.data.id)).toEqual(ids.slice(0, QUEUE_PAGE_SIZE));
    await ack(agentSync, uuid, first.body.items.map((i: Item) => i.meta.sync.ack_key));
    // The device stops here (no further queue reads). Its next session holds exactly the rest.
    const resumed = await sync(agentSync, uuid);
    expect(resumed.started.body.data.queues[0].data).toMatchObject({ pages: 1, total_count: 250 });
    expect(resumed.items.map((i) => i.data.id)).toEqual(ids.slice(QUEUE_PAGE_SIZE));
    // The abandoned session is gone once a new one starts.
    expect((await queue(agentSync, uuid, session)).status).toBe(404);
    expect((await start(agentSync, uuid)).status).toBe(204);
  });

  it('delivers a record changed after its key was issued again, whatever order the ack and the change take', async () => {
    const uuid = randomUUID();
    await sync(agentSync, uuid);
    const task = await post('/v2/tasks', { content: 'Racing' });
    const started = await start(agentSync, uuid);
    const page = await queue(agentSync, uuid, started.body.data.id);
    const [item] = of(page.body.items, 'task', task.id);
    // Changed on the hub between serving and acknowledging.
    await call(hub, 'PUT', `/v2/tasks/${task.id}`, { token: hub.agentToken, data: { content: 'Racing, changed' } });
    await ack(agentSync, uuid, page.body.items.map((i: Item) => i.meta.sync.ack_key));
    const next = await sync(agentSync, uuid);
    expect(next.items.map((i) => [i.data.id, i.data.content, i.meta.sync.event_type])).toEqual([[task.id, 'Racing, changed', 'updated']]);
    expect(next.items[0].meta.sync.revision).toBeGreaterThan(item.meta.sync.revision);
    // An old key arriving late never undoes a newer acknowledgement.
    await ack(agentSync, uuid, [item.meta.sync.ack_key]);
    expect((await start(agentSync, uuid)).status).toBe(204);
  });

  it('keeps devices independent: each gets every change until it acknowledges it itself', async () => {
    const [laptop, phone] = [randomUUID(), randomUUID()];
    await sync(agentSync, laptop);
    await sync(agentSync, phone);
    const task = await post('/v2/tasks', { content: 'Seen by both' });
    expect(of((await sync(agentSync, laptop)).items, 'task', task.id)).toHaveLength(1);
    expect((await start(agentSync, laptop)).status).toBe(204);
    expect(of((await sync(agentSync, phone)).items, 'task', task.id)).toHaveLength(1);
    expect((await start(agentSync, phone)).status).toBe(204);
    // One device UUID signed in as two users is two devices: each user's view is its own.
    const shared = randomUUID();
    await sync(agentSync, shared);
    expect((await sync(adminSync, shared)).items.length).toBeGreaterThan(0);
  });

  it('shows each device only what its user may see: restricted notes never reach others, and leave when restricted', async () => {
    const [agentDevice, adminDevice] = [randomUUID(), randomUUID()];
    await sync(agentSync, agentDevice);
    await sync(adminSync, adminDevice);
    const contact = await post('/v2/contacts', { last_name: 'Private matters' });
    const secret = await post('/v2/notes', { resource_type: 'contact', resource_id: contact.id, content: 'Only mine', type: 'restricted' });
    const open = await post('/v2/notes', { resource_type: 'contact', resource_id: contact.id, content: 'Everyone may read this' });

    expect(of((await sync(agentSync, agentDevice)).items, 'note').map((i) => i.data.id)).toEqual([secret.id, open.id]);
    const adminItems = (await sync(adminSync, adminDevice)).items;
    expect(of(adminItems, 'note').map((i) => i.data.id)).toEqual([open.id]);

    // The admin's device holds the open note; once restricted, it must delete its copy.
    await call(hub, 'PUT', `/v2/notes/${open.id}`, { token: hub.agentToken, data: { type: 'restricted' } });
    const adminNext = (await sync(adminSync, adminDevice)).items;
    expect(adminNext.map((i) => [i.meta.type, i.data, i.meta.sync.event_type])).toEqual([['note', { id: open.id }, 'deleted']]);
    const agentNext = (await sync(agentSync, agentDevice)).items;
    expect(agentNext.map((i) => [i.data.id, i.data.type, i.meta.sync.event_type])).toEqual([[open.id, 'restricted', 'updated']]);
    // Made regular again, it comes back to the admin's device as a new record.
    await call(hub, 'PUT', `/v2/notes/${open.id}`, { token: hub.agentToken, data: { type: 'regular' } });
    expect((await sync(adminSync, adminDevice)).items.map((i) => [i.data.id, i.meta.sync.event_type])).toEqual([[open.id, 'created']]);
    // A device that never held the secret note is never told about its deletion either.
    await call(hub, 'DELETE', `/v2/notes/${secret.id}`, { token: hub.agentToken });
    expect((await start(adminSync, adminDevice)).status).toBe(204);
    expect((await sync(agentSync, agentDevice)).items.map((i) => [i.data.id, i.meta.sync.event_type])).toEqual([[open.id, 'updated'], [secret.id, 'deleted']]);
  });

  it('deletes a record served but never acknowledged (the device may hold it after a crash)', async () => {
    const uuid = randomUUID();
    await sync(agentSync, uuid);
    const task = await post('/v2/tasks', { content: 'Applied, ack lost' });
    expect(of((await sync(agentSync, uuid, { ack: false })).items, 'task', task.id)).toHaveLength(1);
    await call(hub, 'DELETE', `/v2/tasks/${task.id}`, { token: hub.agentToken });
    expect((await sync(agentSync, uuid)).items.map((i) => [i.data, i.meta.sync.event_type])).toEqual([[{ id: task.id }, 'deleted']]);
  });

  it('serves every resource type the change log records, each as its GET answers it', async () => {
    const uuid = randomUUID();
    await sync(agentSync, uuid);
    const contact = await post('/v2/contacts', { last_name: 'Everything', tags: ['all-types'] });
    const call_ = await post('/v2/calls', { phone_number: '+1 555 0100', resource_type: 'contact', resource_id: contact.id });
    const visit = await post('/v2/visits', { resource_type: 'contact', resource_id: contact.id, summary: 'On site' });
    const outcome = await post('/v2/call_outcomes', { name: 'Sync tested' }, hub.adminToken);
    const message = hub.engine.textMessages.create({ content: 'On my way', resource_type: 'contact', resource_id: contact.id }, { userId: hub.agentId, role: 'user', scopes: new Set() });
    const upload = await fetch(`${hub.url}/v2/documents?resource_type=contact&resource_id=${contact.id}&name=quote.txt`, {
      method: 'POST', headers: { Authorization: `Bearer ${hub.agentToken}`, 'Content-Type': 'text/plain' }, body: 'Quote',
    });
    const document = ((await upload.json()) as { data: { id: number } }).data;
    const { items } = await sync(agentSync, uuid);
    for (const [type, path, id] of [
      ['call', '/v2/calls', call_.id], ['visit', '/v2/visits', visit.id], ['call_outcome', '/v2/call_outcomes', outcome.id],
      ['text_message', '/v2/text_messages', message], ['contact', '/v2/contacts', contact.id],
    ] as const) {
      expect(of(items, type, id).map((i) => i.data), type).toEqual([(await call(hub, 'GET', `${path}/${id}`, { token: hub.agentToken })).body.data]);
    }
    const [served] = of(items, 'document', document.id);
    expect(served.data.download_url).toMatch(new RegExp(`^${hub.url}/downloads/documents/${document.id}\\?expires=`));
    expect((await fetch(String(served.data.download_url))).status).toBe(200);
    // Every type that has ever been logged is one a device can read: nothing ends up in failed_objects.
    const logged = hub.engine.db.prepare('SELECT DISTINCT resource_type FROM change_log').pluck().all() as string[];
    const everything = (await sync(agentSync, randomUUID())).items;
    expect([...new Set(everything.map((i) => i.meta.type))].sort()).toEqual(logged.sort());
  });

  it('lists records it cannot serve in failed_objects instead of dropping them in silence', async () => {
    const uuid = randomUUID();
    await sync(agentSync, uuid);
    hub.engine.db.transaction(() => hub.engine.ctx.changes.record('gadget', 7, 'created', null))();
    const started = await start(agentSync, uuid);
    const page = await queue(agentSync, uuid, started.body.data.id);
    expect(page.body.items).toEqual([]);
    expect(page.body.meta.failed_objects).toEqual([{ id: 7, type: 'gadget' }]);
    hub.engine.db.prepare("DELETE FROM record_revisions WHERE resource_type = 'gadget'").run();
    expect((await start(agentSync, uuid)).status).toBe(204);
  });

  it('counts for a new device exactly what its first session serves: deletions, cascades, what others may not see', async () => {
    const contact = await post('/v2/contacts', { last_name: 'Counted' });
    const gone = await post('/v2/contacts', { last_name: 'Deleted before any device' });
    await call(hub, 'DELETE', `/v2/contacts/${gone.id}`, { token: hub.agentToken });
    // A deal's associated contact goes with the deal (ON DELETE CASCADE, and its own deletion logged).
    const deal = await post('/v2/deals', { name: 'Counted deal', contact_id: contact.id });
    await call(hub, 'POST', `/v2/deals/${deal.id}/associated_contacts`, { token: hub.agentToken, data: { contact_id: contact.id, role: 'involved' } });
    await call(hub, 'DELETE', `/v2/deals/${deal.id}`, { token: hub.agentToken });
    // The agent's restricted note: counted for the agent's device, not for the admin's.
    await post('/v2/notes', { resource_type: 'contact', resource_id: contact.id, content: 'Mine alone', type: 'restricted' });
    // A type with no source is counted, and listed in failed_objects.
    hub.engine.db.transaction(() => hub.engine.ctx.changes.record('gizmo', 3, 'created', null))();
    try {
      for (const token of [agentSync, adminSync]) {
        const { started, items } = await sync(token, randomUUID());
        // Served: every item, and the gizmo as a failed object.
        expect(started.body.data.queues[0].data.total_count).toBe(items.length + 1);
      }
    } finally {
      hub.engine.db.prepare("DELETE FROM record_revisions WHERE resource_type = 'gizmo'").run();
    }
    // A device that holds records is counted the general way: each revision it lacks.
    const holder = randomUUID();
    expect((await sync(agentSync, holder)).items.length).toBeGreaterThan(3);
    await call(hub, 'PUT', `/v2/contacts/${contact.id}`, { token: hub.agentToken, data: { title: 'Recounted' } });
    expect((await start(agentSync, holder)).body.data.queues[0].data.total_count).toBe(1);
  });

  it('answers 404 for an unknown, foreign, expired or replaced session and for other queues', async () => {
    const uuid = randomUUID();
    const session = (await start(agentSync, uuid)).body.data.id;
    const unknown = await queue(agentSync, uuid, randomUUID());
    expect([unknown.status, codes(unknown)]).toEqual([404, ['not_found']]);
    expect((await queue(agentSync, randomUUID(), session)).status).toBe(404);
    expect((await queue(adminSync, uuid, session)).status).toBe(404);
    expect((await call(hub, 'GET', `/v2/sync/${session}/queues/other`, { token: agentSync, headers: header(uuid) })).status).toBe(404);
    hub.clock.advance((SESSION_IDLE_SECONDS + 1) * 1000);
    expect((await queue(agentSync, uuid, session)).status).toBe(404);
  });
});

describe('sync: acknowledgements', () => {
  it('answers 202 with no body and refuses anything but an array of issued keys with a 422', async () => {
    const uuid = randomUUID();
    const accepted = await ack(agentSync, uuid, ['contact:1:1', 'note:2:3:deleted']);
    expect([accepted.status, accepted.text]).toEqual([202, '']);
    expect((await ack(agentSync, uuid, [])).status).toBe(202);
    const cases: [unknown, string[], string[]][] = [
      [undefined, ['missing'], ['/ack_keys']],
      [null, ['missing'], ['/ack_keys']],
      ['contact:1:1', ['invalid_type'], ['/ack_keys']],
      [['contact:1:1', 5], ['invalid_type'], ['/ack_keys/1']],
      [['contact:1:1', 'contact:1', 'DROP TABLE'], ['incorrect_value', 'incorrect_value'], ['/ack_keys/1', '/ack_keys/2']],
    ];
    for (const [keys, expectedCodes, expectedFields] of cases) {
      const answer = await ack(agentSync, uuid, keys);
      expect([answer.status, codes(answer), fields(answer)], JSON.stringify(keys)).toEqual([422, expectedCodes, expectedFields]);
    }
    const noData = await call(hub, 'POST', '/v2/sync/ack', { token: agentSync, headers: header(uuid), raw: '{}' });
    expect([noData.status, codes(noData)]).toEqual([422, ['missing']]);
    const extra = await call(hub, 'POST', '/v2/sync/ack', { token: agentSync, headers: header(uuid), data: { ack_keys: [], keys: [] } });
    expect([extra.status, codes(extra), fields(extra)]).toEqual([422, ['unknown'], ['/keys']]);
    const broken = await call(hub, 'POST', '/v2/sync/ack', { token: agentSync, headers: header(uuid), raw: '{"data":' });
    expect([broken.status, codes(broken)]).toEqual([400, ['invalid_payload']]);
  });
});

describe('sync: session limit', () => {
  it(`allows ${MAX_ACTIVE_SESSIONS} active sessions per user, refuses the next with 429 and Retry-After, and lets idle ones expire`, async () => {
    hub.clock.advance((SESSION_IDLE_SECONDS + 1) * 1000);
    const user = await hub.engine.users.create({ email: 'many@example.com', name: 'Many Devices', password: 'many-devices-1', role: 'user' });
    const token = hub.tokenFor(user, ['sync']);
    for (let i = 0; i < MAX_ACTIVE_SESSIONS; i++) expect((await start(token, randomUUID())).status).toBe(201);
    hub.clock.advance(60_000);
    const refused = await start(token, randomUUID());
    expect([refused.status, codes(refused)]).toEqual([429, ['too_many_sessions']]);
    expect(Number(refused.headers.get('retry-after'))).toBe(SESSION_IDLE_SECONDS - 60);
    // Other users are not affected, and a device starting again replaces its own session.
    expect((await start(agentSync, randomUUID())).status).toBe(201);
    hub.clock.advance((SESSION_IDLE_SECONDS - 60 + 1) * 1000);
    expect((await start(token, randomUUID())).status).toBe(201);
  });
});
