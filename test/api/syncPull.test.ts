import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { call, startTestHub, type TestHub } from '../support/testHub.js';
import { PAGES_AHEAD, pullOnce, SyncHttpError, type SyncItem } from '../../electron/engine/replica/pull.js';
import { hubFetch, type HubFetch } from '../../electron/engine/replica/hubFetch.js';
import { ServerState } from '../../electron/engine/replica/serverState.js';
import { QUEUE_PAGE_SIZE } from '../../electron/engine/sync/sessions.js';
import { asSqliteDb } from '../../electron/engine/db/database.js';

/**
 * A device pulling from a real hub over loopback HTTP into its own SQLite
 * file, as the desktop replica does: after every pull, its copy of each
 * resource equals what the hub's API answers that user.
 */
let hub: TestHub;
let deviceDir: string;
let token: string;

beforeAll(async () => {
  hub = await startTestHub();
  token = hub.tokenFor(hub.agentId, ['read', 'write', 'sync']);
  deviceDir = mkdtempSync(join(tmpdir(), 'outpost-device-'));
});
afterAll(async () => {
  await hub.close();
  rmSync(deviceDir, { recursive: true, force: true });
});

function device() {
  const db = asSqliteDb(new Database(join(deviceDir, `${randomUUID()}.sqlite`)));
  const state = new ServerState(db);
  const uuid = randomUUID();
  const pull = (apply: (items: SyncItem[]) => void = (items) => state.apply(items), fetch?: HubFetch) =>
    pullOnce({ hubUrl: hub.url, token, deviceUuid: uuid, apply, fetch });
  return { db, state, pull };
}

/** Every record of a list endpoint as the hub's API answers the agent. */
async function hubView(path: string): Promise<unknown[]> {
  const out: unknown[] = [];
  for (let page = 1; ; page++) {
    const answer = await call(hub, 'GET', `${path}?per_page=100&page=${page}&sort_by=created_at`, { token: hub.agentToken });
    out.push(...answer.body.items.map((i: { data: unknown }) => i.data));
    if (!answer.body.meta.links.next_page) return out.sort((a: any, b: any) => a.id - b.id);
  }
}

async function expectConverged(state: ServerState): Promise<void> {
  for (const [type, path] of [['contact', '/v2/contacts'], ['task', '/v2/tasks'], ['note', '/v2/notes']] as const) {
    expect(state.all(type), type).toEqual(await hubView(path));
  }
}

describe('pulling into a device', () => {
  it('copies, updates and deletes records until the device equals the hub, across interruptions', async () => {
    const actor = { userId: hub.agentId, role: 'user' as const, scopes: new Set(['read', 'write'] as const) };
    const contactId = hub.engine.contacts.create({ last_name: 'Replicated', tags: ['field'] }, actor);
    hub.engine.db.transaction(() => {
      for (let i = 0; i < QUEUE_PAGE_SIZE + 100; i++) hub.engine.tasks.create({ content: `Visit ${i}`, resource_type: 'contact', resource_id: contactId }, actor);
    })();
    hub.engine.notes.create({ resource_type: 'contact', resource_id: contactId, content: 'Mine alone', type: 'restricted' }, actor);
    hub.engine.notes.create({ resource_type: 'contact', resource_id: contactId, content: "The admin's secret", type: 'restricted' }, { ...actor, userId: hub.adminId, role: 'admin' });

    const { db, state, pull } = device();
    // The device fails while applying its second page: the first is durable and acknowledged, the rest comes next time.
    let pages = 0;
    const failing = pull((items) => {
      if (++pages === 2) throw new Error('disk full');
      state.apply(items);
    });
    await expect(failing).rejects.toThrow('disk full');
    expect(db.prepare('SELECT COUNT(*) FROM server_records').pluck().get()).toBe(QUEUE_PAGE_SIZE);
    const resumed = await pull();
    expect(resumed.items).toBeGreaterThanOrEqual(100);
    await expectConverged(state);
    expect(state.all('note').map((n) => n.content)).toEqual(['Mine alone']);

    const [first, second] = state.all('task') as { id: number }[];
    await call(hub, 'PUT', `/v2/tasks/${first.id}`, { token: hub.agentToken, data: { completed: true } });
    await call(hub, 'DELETE', `/v2/tasks/${second.id}`, { token: hub.agentToken });
    await call(hub, 'PUT', `/v2/contacts/${contactId}`, { token: hub.agentToken, data: { tags: ['field', 'key-account'] } });
    const changes = await pull();
    // The two tasks, the contact, and the tag its new tag name created.
    expect(changes).toMatchObject({ items: 4, pages: 1, failed: 0 });
    await expectConverged(state);
    expect(state.get('contact', contactId)?.tags).toEqual(['field', 'key-account']);
    expect(await pull()).toMatchObject({ items: 0, pages: 0, failed: 0 });
  });

  it('asks for the next pages while it applies one, and loses none when the hub answers them out of order', async () => {
    const { state, pull } = device();
    // Queue requests go through this cable; the first of a pull leaves only once the second was answered,
    // so the hub hands the page to the second request and "nothing more" (204) to the first.
    let queueRequests = 0;
    let inFlight = 0;
    let mostInFlight = 0;
    let answeredSecond = () => undefined as void;
    const secondAnswered = new Promise<void>((resolve) => (answeredSecond = resolve));
    const cable: HubFetch = async (url, init) => {
      if (!url.endsWith('/queues/main')) return hubFetch(url, init);
      const n = ++queueRequests;
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      try {
        if (n === 1) await secondAnswered;
        const answer = await hubFetch(url, init);
        if (n === 2) answeredSecond();
        return answer;
      } finally {
        inFlight -= 1;
      }
    };
    const contact = await call(hub, 'POST', '/v2/contacts', { token: hub.agentToken, data: { last_name: 'Out of order' } });
    for (const content of ['First', 'Second']) {
      await call(hub, 'POST', '/v2/tasks', { token: hub.agentToken, data: { content, resource_type: 'contact', resource_id: contact.body.data.id } });
    }
    // Everything the hub has for this user fits one page only after the first pull: pull once plainly, then change three records.
    await pull();
    await call(hub, 'PUT', `/v2/contacts/${contact.body.data.id}`, { token: hub.agentToken, data: { title: 'Buyer' } });
    const tasks = state.all('task') as { id: number; content: string }[];
    for (const task of tasks.filter((t) => t.content === 'First' || t.content === 'Second')) {
      await call(hub, 'PUT', `/v2/tasks/${task.id}`, { token: hub.agentToken, data: { completed: true } });
    }
    const result = await pull(undefined, cable);
    expect(result).toMatchObject({ items: 3, pages: 1 });
    expect(mostInFlight).toBe(PAGES_AHEAD);
    expect(PAGES_AHEAD).toBeGreaterThan(1);
    await expectConverged(state);
    expect((state.get('contact', contact.body.data.id) as { title: string }).title).toBe('Buyer');
  });

  it('surfaces a refused request as an error with the status', async () => {
    const error = await pullOnce({ hubUrl: hub.url, token: hub.agentToken, deviceUuid: randomUUID(), apply: () => undefined }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyncHttpError);
    expect((error as SyncHttpError).status).toBe(403);
  });
});
