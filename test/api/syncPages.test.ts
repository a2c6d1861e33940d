import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestHub, type Answer, type TestHub } from '../support/testHub.js';
import { QUEUE_PAGE_SIZE } from '../../electron/engine/sync/sessions.js';
import type { Actor } from '../../electron/engine/context.js';

// How a page is filled (revisions read a window at a time) and how a page of acknowledgements is written
// (one statement on PostgreSQL, a statement per key on SQLite), on whichever backend the suite runs.
let hub: TestHub;
let agentSync: string;
let adminSync: string;
let agent: Actor;
let admin: Actor;

interface Item {
  data: { id: number };
  meta: { type: string; sync: { event_type: string; ack_key: string; revision: number } };
}

const header = (uuid: string) => ({ 'X-Service-Device-UUID': uuid });
const start = (token: string, uuid: string) => call(hub, 'POST', '/v2/sync/start', { token, headers: header(uuid) });
const queue = (token: string, uuid: string, session: string) => call(hub, 'GET', `/v2/sync/${session}/queues/main`, { token, headers: header(uuid) });
const ack = (token: string, uuid: string, keys: string[]) => call(hub, 'POST', '/v2/sync/ack', { token, headers: header(uuid), data: { ack_keys: keys } });
const keysOf = (page: Answer) => (page.body.items as Item[]).map((i) => i.meta.sync.ack_key);

/** Every page of one session, each acknowledged unless told not to. */
async function pages(token: string, uuid: string, options: { ack?: boolean } = {}): Promise<Answer[]> {
  const started = await start(token, uuid);
  if (started.status === 204) return [];
  const answers: Answer[] = [];
  for (;;) {
    const page = await queue(token, uuid, started.body.data.id);
    if (page.status === 204) return answers;
    expect(page.status).toBe(200);
    answers.push(page);
    if (options.ack !== false) expect((await ack(token, uuid, keysOf(page))).status).toBe(202);
  }
}

/** What the hub notes the device holds: `type:id` → revision (0: served, not acknowledged). */
function held(uuid: string): Record<string, number> {
  const rows = hub.engine.db.prepare(`SELECT r.resource_type AS type, r.resource_id AS id, r.revision FROM sync_device_records r
    JOIN sync_devices d ON d.id = r.device_id WHERE d.uuid = ?`).all(uuid) as { type: string; id: number; revision: number }[];
  return Object.fromEntries(rows.map((r) => [`${r.type}:${r.id}`, Number(r.revision)]));
}

beforeAll(async () => {
  hub = await startTestHub();
  agentSync = hub.tokenFor(hub.agentId, ['read', 'write', 'sync']);
  adminSync = hub.tokenFor(hub.adminId, ['read', 'write', 'sync']);
  agent = { userId: hub.agentId, role: 'user', scopes: new Set(['read', 'write']) };
  admin = { userId: hub.adminId, role: 'admin', scopes: new Set(['read', 'write']) };
});
afterAll(() => hub.close());

describe('sync: a page of acknowledgements', () => {
  it('keeps the highest revision of duplicates, never lowers one on a late re-ack, and forgets acknowledged deletes', async () => {
    const uuid = randomUUID();
    const contact = hub.engine.contacts.create({ last_name: 'Acked' }, agent);
    const kept = hub.engine.tasks.create({ content: 'Kept', resource_type: 'contact', resource_id: contact }, agent);
    const gone = hub.engine.tasks.create({ content: 'Gone', resource_type: 'contact', resource_id: contact }, agent);
    await pages(agentSync, uuid, { ack: false });
    expect(held(uuid)).toMatchObject({ [`task:${kept}`]: 0, [`task:${gone}`]: 0, [`contact:${contact}`]: 0 });

    // One request: duplicates of a key at three revisions, a hold then a delete of the same record, and a
    // record the device was never served (the hub issued such a key to some session: it is held from now on).
    const accepted = await ack(agentSync, uuid, [
      `task:${kept}:40`, `task:${kept}:90`, `task:${kept}:40`, `task:${gone}:50`, `task:${gone}:60:deleted`, `contact:${contact}:70`, 'note:777:80',
    ]);
    expect(accepted.status).toBe(202);
    // Written in the background: a new session starts from everything acknowledged.
    expect(await start(agentSync, uuid).then((s) => s.status)).toBe(201);
    const written = held(uuid);
    expect(written).toMatchObject({ [`task:${kept}`]: 90, [`contact:${contact}`]: 70, 'note:777': 80 });
    expect(written[`task:${gone}`]).toBeUndefined();

    // Late keys of lower revisions, and a delete older than what is held: nothing changes.
    await ack(agentSync, uuid, [`task:${kept}:41`, `contact:${contact}:69:deleted`, 'note:777:79']);
    await start(agentSync, uuid);
    expect(held(uuid)).toEqual(written);
  });

  it("writes a device's pending acknowledgements with its next page request, and on their own soon after", async () => {
    const [uuid, idle] = [randomUUID(), randomUUID()];
    const task = hub.engine.tasks.create({ content: 'Applied' }, agent);
    for (const device of [uuid, idle]) await pages(agentSync, device, { ack: false });

    const started = await start(agentSync, uuid);
    const page = await queue(agentSync, uuid, started.body.data.id);
    const key = keysOf(page).find((k) => k.startsWith(`task:${task}:`))!;
    await ack(agentSync, uuid, keysOf(page));
    // The next request of the session (its end, 204) writes them first.
    expect((await queue(agentSync, uuid, started.body.data.id)).status).toBe(204);
    expect(held(uuid)[`task:${task}`]).toBe(Number(key.split(':')[2]));

    // A device that asks nothing more: the keys are written shortly after all the same.
    await ack(agentSync, idle, [key]);
    const deadline = Date.now() + 5000;
    while (held(idle)[`task:${task}`] === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(held(idle)[`task:${task}`]).toBe(Number(key.split(':')[2]));
  });
});

describe('sync: filling a page', () => {
  it('fills every page but the last, in revision order, past records the device holds or may not see', async () => {
    const [agentDevice, adminDevice] = [randomUUID(), randomUUID()];
    // Devices that hold everything so far: their next sessions carry only the notes below.
    await pages(agentSync, agentDevice);
    await pages(adminSync, adminDevice);
    const contact = hub.engine.contacts.create({ last_name: 'Noted' }, agent);
    const regular: number[] = [];
    const restricted: number[] = [];
    hub.engine.db.transaction(() => {
      for (let i = 0; i < QUEUE_PAGE_SIZE + 30; i++) {
        regular.push(hub.engine.notes.create({ resource_type: 'contact', resource_id: contact, content: `Note ${i}` }, agent));
        // The admin's own notes, which the agent may not see: runs of them between the agent's.
        if (i % 7 === 0) for (let j = 0; j < 3; j++) restricted.push(hub.engine.notes.create({ resource_type: 'contact', resource_id: contact, content: 'Own', type: 'restricted' }, admin));
      }
    })();

    const [first, second] = await pages(agentSync, agentDevice, { ack: false });
    const ids = (page: Answer) => (page.body.items as Item[]).filter((i) => i.meta.type === 'note').map((i) => i.data.id);
    expect(first.body.meta).toMatchObject({ count: QUEUE_PAGE_SIZE, count_left: 31 });
    expect(ids(first)).toEqual(regular.slice(0, QUEUE_PAGE_SIZE - 1));
    expect(ids(second)).toEqual(regular.slice(QUEUE_PAGE_SIZE - 1));
    expect(second.body.meta).toMatchObject({ count: 31, count_left: 0 });

    // The first page acknowledged, five of its notes changed since: the next session is those five (updated),
    // and the second page again (served, never acknowledged), in revision order.
    await ack(agentSync, agentDevice, keysOf(first));
    const changed = regular.slice(10, 15);
    for (const id of changed) hub.engine.notes.update(id, { content: 'Changed' }, agent);
    const again = (await pages(agentSync, agentDevice)).flatMap((page) => page.body.items as Item[]);
    expect(again.map((i) => i.data.id)).toEqual([...regular.slice(QUEUE_PAGE_SIZE - 1), ...changed]);
    expect(again.filter((i) => i.meta.sync.event_type === 'updated').map((i) => i.data.id)).toEqual(changed);

    // The admin's device gets every note.
    const adminItems = (await pages(adminSync, adminDevice)).flatMap((page) => page.body.items as Item[]);
    expect(adminItems.filter((i) => i.meta.type === 'note').map((i) => i.data.id).sort((a, b) => a - b))
      .toEqual([...regular, ...restricted].sort((a, b) => a - b));
  });
});
