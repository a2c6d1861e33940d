import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, AGENT, call, startTestHub, type TestHub } from '../support/testHub.js';
import { startTestReplica, type TestReplica } from '../support/testReplica.js';
import { stablePort } from '../support/ports.js';
import { createHttpApp } from '../../electron/engine/http/app.js';
import { openEngine } from '../../electron/engine/engine.js';
import { Replica, HUB_UNREACHABLE } from '../../electron/engine/replica/replica.js';
import { startHub, type Hub } from '../../electron/engine/hub.js';
import { FIRST_PARTY_CLIENT_ID } from '../../shared/oauth.js';

/**
 * A replica kept current by its hub's change stream, told the truth about
 * its hub, and usable across restarts. Real engines on real SQLite files,
 * real HTTP on 127.0.0.1; "the hub goes down" is its HTTP server closing
 * (its engine stays, so it comes back on the same port with the same data).
 * No timings are asserted: the replicas here poll once a minute, so what
 * arrives sooner can only have come through the stream.
 */
const ONCE_A_MINUTE = 60_000;

let hub: TestHub;
let port: number;
const cleanup: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  port = await stablePort();
  hub = await startTestHub({}, { port });
});
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});
afterAll(() => hub.close());

/** The hub's HTTP server stops (its streams end, new connections are refused). */
async function hubDown(): Promise<void> {
  await hub.app.close();
}

/** The hub serves again on the same port, with the same data. */
async function hubUp(): Promise<void> {
  hub.app = await createHttpApp(hub.engine, { rateLimitPerHour: 0 });
  await hub.app.listen({ host: '127.0.0.1', port });
}

/** Polls `check` until it holds (the test's own timeout ends a wait that never does). */
async function eventually(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
}

async function startedReplica(userId = hub.agentId): Promise<TestReplica> {
  const device = await startTestReplica(hub, userId);
  await device.replica.sync();
  device.replica.start(ONCE_A_MINUTE);
  cleanup.push(async () => {
    await device.replica.stop();
    await device.close();
  });
  return device;
}

const onReplica = (device: TestReplica, method: string, path: string, data?: unknown) => call(device.local, method, path, { token: device.token, data });
const onHub = (method: string, path: string, data?: unknown) => call(hub, method, path, { token: hub.agentToken, data });

describe('the hub’s change stream', () => {
  it('needs the sync scope, and takes no query', async () => {
    const readOnly = await call(hub, 'GET', '/v2/sync/events', { token: hub.tokenFor(hub.agentId, ['read']) });
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.errors[0].error.code).toBe('insufficient_scope');
    const withQuery = await call(hub, 'GET', '/v2/sync/events?since=3', { token: hub.tokenFor(hub.agentId, ['sync']) });
    expect(withQuery.status).toBe(400);
  });

  it('says ready, then change with the new revision after a write', async () => {
    const response = await fetch(`${hub.url}/v2/sync/events`, { headers: { Authorization: `Bearer ${hub.tokenFor(hub.agentId, ['sync'])}` } });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes('event: ready')) text += (await reader.read()).value;
    await onHub('POST', '/v2/tasks', { content: 'Wake the replicas' });
    while (!text.includes('event: change')) text += (await reader.read()).value;
    const revision = Number(/event: change\ndata: \{"revision":(\d+)\}/.exec(text)![1]);
    expect(revision).toBe(hub.engine.ctx.changes.currentRevision());
    await reader.cancel();
  });
});

describe('a started replica', () => {
  it('pulls an edit made on the hub without waiting for its next poll', async () => {
    const device = await startedReplica();
    const contact = (await onHub('POST', '/v2/contacts', { last_name: 'Streamed', custom_fields: {} })).body.data;
    await eventually(async () => (await onReplica(device, 'GET', `/v2/contacts/${contact.id}`)).status === 200);
    await onHub('PUT', `/v2/contacts/${contact.id}`, { title: 'Edited on the hub' });
    await eventually(async () => (await onReplica(device, 'GET', `/v2/contacts/${contact.id}`)).body.data.title === 'Edited on the hub');
  });

  it('shows offline as soon as the hub goes, in plain words; catches up, and sends what waited, when it is back', async () => {
    const device = await startedReplica();
    await eventually(() => device.replica.status().state === 'up_to_date');
    await hubDown();
    try {
      await eventually(() => device.replica.status().state === 'offline');
      expect(device.replica.status().last_error).toBe(HUB_UNREACHABLE);
      const made = await onReplica(device, 'POST', '/v2/tasks', { content: 'Written while the hub was down' });
      expect(made.status).toBe(200);
      // The 1 s sync after a change fails: still offline, the change counted as pending, no socket error in sight.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const status = device.replica.status();
      expect(status).toMatchObject({ state: 'offline', pending: 1 });
      expect(JSON.stringify(status)).not.toMatch(/ECONN|fetch failed|socket/i);
    } finally {
      await hubUp();
    }
    await eventually(() => device.replica.status().state === 'up_to_date');
    const onTheHub = await onHub('GET', '/v2/tasks?per_page=100');
    expect(onTheHub.body.items.map((i: { data: { content: string } }) => i.data.content)).toContain('Written while the hub was down');
  });
});

describe('a replica’s sync', () => {
  it('counts deleting a record the hub deleted already as done, not as an issue', async () => {
    const device = await startTestReplica(hub, hub.agentId);
    cleanup.push(() => device.close());
    const task = (await onHub('POST', '/v2/tasks', { content: 'Deleted on both' })).body.data;
    await device.replica.sync();
    expect((await onHub('DELETE', `/v2/tasks/${task.id}`)).status).toBe(204);
    expect((await onReplica(device, 'DELETE', `/v2/tasks/${task.id}`)).status).toBe(204);
    const status = await device.replica.sync();
    expect(status).toMatchObject({ pending: 0, issues: 0, state: 'up_to_date' });
  });

  it('lists its issues a page at a time', async () => {
    const device = await startTestReplica(hub, hub.agentId);
    cleanup.push(() => device.close());
    await device.replica.sync();
    // Three changes the hub refuses: updates of a note that the hub deletes meanwhile.
    for (const content of ['one', 'two', 'three']) {
      const note = (await onHub('POST', '/v2/notes', { content, resource_type: 'contact', resource_id: (await onHub('POST', '/v2/contacts', { last_name: content })).body.data.id })).body.data;
      await device.replica.sync();
      await onReplica(device, 'PUT', `/v2/notes/${note.id}`, { content: `${content}, edited` });
      await onHub('DELETE', `/v2/notes/${note.id}`);
    }
    await device.replica.sync();
    const all = await onReplica(device, 'GET', '/v2/replica/issues?per_page=100');
    expect(all.status).toBe(200);
    expect(all.body.items).toHaveLength(3);
    const second = await onReplica(device, 'GET', '/v2/replica/issues?page=2&per_page=2');
    expect(second.body.items.map((i: { data: { id: number } }) => i.data.id)).toEqual([all.body.items[2].data.id]);
    expect(second.body.meta.links.prev_page).toBeDefined();
    expect((await onReplica(device, 'GET', '/v2/replica/issues?per_page=101')).status).toBe(400);
    expect((await onReplica(device, 'GET', '/v2/replica/issues?sort_by=id')).status).toBe(400);
  });

  it('serves a document’s file from the hub, and says so when the hub is out of reach', async () => {
    const device = await startTestReplica(hub, hub.agentId);
    cleanup.push(() => device.close());
    const contact = (await onHub('POST', '/v2/contacts', { last_name: 'Has a file' })).body.data;
    const content = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x80, 0x0a]);
    const uploaded = await fetch(`${hub.url}/v2/documents?resource_type=contact&resource_id=${contact.id}&name=quote.pdf`, {
      method: 'POST', headers: { Authorization: `Bearer ${hub.agentToken}`, 'Content-Type': 'application/pdf' }, body: content,
    });
    const document = ((await uploaded.json()) as { data: { id: number } }).data;
    await device.replica.sync();
    const local = (await onReplica(device, 'GET', `/v2/documents/${document.id}`)).body.data;
    expect(new URL(local.download_url).origin).toBe(new URL(device.local.url).origin);
    const file = await fetch(local.download_url);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(content);
    expect(file.headers.get('content-disposition')).toContain('quote.pdf');

    await hubDown();
    try {
      const offline = await fetch(local.download_url);
      expect(offline.status).toBe(503);
      expect(((await offline.json()) as { errors: { error: { message: string } }[] }).errors[0].error.message).toMatch(/kept on the hub/);
    } finally {
      await hubUp();
    }
    const forged = await fetch(local.download_url.replace(/signature=[0-9a-f]+/, `signature=${'0'.repeat(64)}`));
    expect(forged.status).toBe(403);
  });

  it('keeps when it last synced across a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'outpost-replica-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const open = () => {
      const engine = openEngine({ dataDir, clock: hub.clock, replica: true });
      return { engine, replica: new Replica(engine, { hubUrl: hub.url, token: hub.tokenFor(hub.agentId, ['read', 'write', 'profile', 'sync']) }) };
    };
    const first = open();
    const { last_synced_at: synced } = await first.replica.sync();
    expect(synced).not.toBeNull();
    first.engine.close();
    hub.clock.advance(3_600_000);
    const again = open();
    expect(again.replica.status().last_synced_at).toBe(synced);
    again.engine.close();
  });
});

describe('a headless replica (outpost serve --upstream)', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  async function replicaServer(dataDir: string): Promise<Hub> {
    const server = await startHub({ dataDir, host: '127.0.0.1', port: 0, rateLimitPerHour: 0, upstream: { url: hub.url } });
    return server;
  }

  const passwordGrant = (server: Hub, user: { email: string; password: string }) => fetch(`${server.url}/oauth2/token`, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from(`${FIRST_PARTY_CLIENT_ID}:`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: user.email, password: user.password }),
  });

  it('says the hub cannot be reached when signing in while it is down, never that the password is wrong', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'outpost-replica-'));
    dirs.push(dataDir);
    const server = await replicaServer(dataDir);
    await hubDown();
    try {
      const answer = await passwordGrant(server, AGENT);
      expect(answer.status).toBe(503);
      const body = (await answer.json()) as { error: string; error_description: string };
      expect(body.error).toBe('temporarily_unavailable');
      expect(body.error_description).toMatch(/the hub cannot be reached/i);
      expect(body.error_description).not.toMatch(/password is incorrect/i);
    } finally {
      await hubUp();
      await server.close();
    }
    // With the hub up, a wrong password is still just that.
    const again = await replicaServer(dataDir);
    const wrong = await passwordGrant(again, { ...AGENT, password: 'not-it' });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: string }).error).toBe('invalid_grant');
    await again.close();
  });

  it('once signed in, keeps working offline across its restarts, and syncs with the kept sign-in when the hub is back', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'outpost-replica-'));
    dirs.push(dataDir);
    let server = await replicaServer(dataDir);
    const signedIn = await passwordGrant(server, ADMIN);
    expect(signedIn.status).toBe(200);
    const { access_token: local } = (await signedIn.json()) as { access_token: string };
    await server.replica!.sync();
    await server.close();

    await hubDown();
    try {
      server = await replicaServer(dataDir);
      const asLocal = { token: local };
      expect((await call(server, 'GET', '/v2/contacts', asLocal)).status).toBe(200);
      const made = await call(server, 'POST', '/v2/contacts', { ...asLocal, data: { last_name: 'Restarted Offline' } });
      expect(made.status).toBe(200);
      await eventually(() => server.replica!.status().state === 'offline');
      await server.close();
      server = await replicaServer(dataDir);
      expect(server.replica!.status().pending).toBe(1);
    } finally {
      await hubUp();
    }
    // No one signs in again: the kept credentials carry the change to the hub.
    await eventually(() => server.replica!.status().state === 'up_to_date');
    const onTheHub = await call(hub, 'GET', '/v2/contacts?q=Restarted', { token: hub.adminToken });
    expect(onTheHub.body.items).toHaveLength(1);
    await server.close();
  });
});
