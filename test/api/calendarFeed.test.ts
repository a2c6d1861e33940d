import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { call, codes, startTestHub, type TestHub } from '../support/testHub.js';
import { startTestReplica } from '../support/testReplica.js';

let hub: TestHub;
const FEED = '/v2/users/self/calendar_feed';
const as = (token: string) => (method: string, path: string, data?: unknown) => call(hub, method, path, { token, data });
const pathOf = (url: string) => new URL(url).pathname;
/** Fetches a feed as a calendar app does: no Authorization header. */
const fetchFeed = (url: string) => call(hub, 'GET', pathOf(url), { headers: { Accept: 'text/calendar' } });
const uids = (text: string) => new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent').map((e) => e.getFirstPropertyValue('uid') as string).sort();
const uid = (task: { id: number }) => `task-${task.id}@127.0.0.1`;

let agentTask: any;
let adminTask: any;
let recentlyDone: any;
let longDone: any;

beforeAll(async () => {
  hub = await startTestHub();
  const agent = as(hub.agentToken);
  const admin = as(hub.adminToken);
  hub.clock.set('2026-01-01T10:00:00Z');
  longDone = (await agent('POST', '/v2/tasks', { content: 'Done long ago', due_date: '2026-01-02T10:00:00Z', completed: true })).body.data;
  hub.clock.set('2026-03-01T10:00:00Z');
  recentlyDone = (await agent('POST', '/v2/tasks', { content: 'Done lately', due_date: '2026-03-01T12:00:00Z', completed: true })).body.data;
  hub.clock.set('2026-03-02T10:00:00Z');
  agentTask = (await agent('POST', '/v2/tasks', { content: 'Agent call', due_date: '2026-03-05T09:00:00Z', remind_at: '2026-03-05T08:45:00Z' })).body.data;
  adminTask = (await admin('POST', '/v2/tasks', { content: 'Admin call', due_date: '2026-03-05T10:00:00Z' })).body.data;
  // An admin's task assigned to the agent is the agent's.
  await admin('POST', '/v2/tasks', { content: 'Assigned', due_date: '2026-03-06T10:00:00Z', owner_id: hub.agentId });
});
afterAll(() => hub.close());

describe('the per-user calendar feed', () => {
  it('is off until turned on, and its state never shows the URL', async () => {
    const agent = as(hub.agentToken);
    const state = await agent('GET', FEED);
    expect(state.status).toBe(200);
    expect(state.body).toEqual({ data: { enabled: false, created_at: null }, meta: { type: 'calendar_feed' } });
  });

  it('gives a secret URL once, serving the user\'s own tasks to anyone holding it, without a token', async () => {
    const agent = as(hub.agentToken);
    const created = await agent('POST', FEED);
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({ url: expect.stringMatching(new RegExp(`^${hub.url}/calendar/[A-Za-z0-9_-]{43}\\.ics$`)), created_at: '2026-03-02T10:00:00Z' });
    expect((await agent('GET', FEED)).body.data).toEqual({ enabled: true, created_at: '2026-03-02T10:00:00Z' });

    const feed = await fetchFeed(created.body.data.url);
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const calendar = new ICAL.Component(ICAL.parse(feed.text));
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Outpost tasks (Sam Agent)');
    const feedUids = uids(feed.text);
    expect(feedUids).toContain(uid(agentTask));
    expect(feedUids).not.toContain(uid(adminTask));
    // Completed tasks of the last 30 days stay; older ones are gone.
    expect(feedUids).toContain(uid(recentlyDone));
    expect(feedUids).not.toContain(uid(longDone));
    expect(feedUids).toHaveLength(3);
  });

  it('keeps only a hash of the secret', async () => {
    const url = (await as(hub.agentToken)('POST', FEED)).body.data.url as string;
    const secret = /\/calendar\/(.+)\.ics$/.exec(url)![1];
    const rows = hub.engine.db.prepare('SELECT * FROM calendar_feeds').all() as Record<string, unknown>[];
    expect(rows).toEqual([{ user_id: hub.agentId, secret_hash: createHash('sha256').update(secret).digest('hex'), created_at: '2026-03-02T10:00:00Z' }]);
    expect(JSON.stringify(rows)).not.toContain(secret);
  });

  it('rotates: a new URL replaces the old, which answers 404 from then on', async () => {
    const agent = as(hub.agentToken);
    const first = (await agent('POST', FEED)).body.data.url;
    hub.clock.advance(60_000);
    const second = (await agent('POST', FEED)).body.data;
    expect(second.url).not.toBe(first);
    expect(second.created_at).toBe('2026-03-02T10:01:00Z');
    const old = await fetchFeed(first);
    expect(old.status).toBe(404);
    expect(codes(old)).toEqual(['not_found']);
    expect((await fetchFeed(second.url)).status).toBe(200);
  });

  it('turns off with DELETE: the URL answers 404', async () => {
    const agent = as(hub.agentToken);
    const url = (await agent('POST', FEED)).body.data.url;
    const deleted = await agent('DELETE', FEED);
    expect(deleted.status).toBe(204);
    expect((await agent('GET', FEED)).body.data).toEqual({ enabled: false, created_at: null });
    expect((await fetchFeed(url)).status).toBe(404);
    expect((await agent('DELETE', FEED)).status).toBe(204);
  });

  it('answers 404 for a deactivated user\'s feed, and serves it again once reactivated', async () => {
    const userId = await hub.engine.users.create({ email: 'leaver@example.com', name: 'Lee Leaver', role: 'user', password: 'leaver-secret-1' });
    const token = hub.tokenFor(userId);
    await as(token)('POST', '/v2/tasks', { content: 'Leaver task', due_date: '2026-03-09T10:00:00Z' });
    const url = (await as(token)('POST', FEED)).body.data.url;
    expect((await fetchFeed(url)).status).toBe(200);
    hub.engine.users.setStatus(userId, 'inactive');
    expect((await fetchFeed(url)).status).toBe(404);
    hub.engine.users.setStatus(userId, 'active');
    expect((await fetchFeed(url)).status).toBe(200);
  });

  it('answers 404 to unknown and malformed secrets, and needs a token for the settings', async () => {
    expect((await call(hub, 'GET', `/calendar/${'A'.repeat(43)}.ics`)).status).toBe(404);
    expect((await call(hub, 'GET', '/calendar/short.ics')).status).toBe(404);
    expect((await call(hub, 'GET', '/calendar/nothing')).status).toBe(404);
    expect((await call(hub, 'GET', FEED)).status).toBe(401);
    expect((await call(hub, 'POST', FEED)).status).toBe(401);
    expect(codes(await call(hub, 'POST', FEED, { token: hub.tokenFor(hub.agentId, ['read']) }))).toEqual(['insufficient_scope']);
  });

  it('is the hub\'s only: a desktop replica answers 409', async () => {
    const device = await startTestReplica(hub, hub.agentId);
    const { replica, local, token } = device;
    try {
      await replica.sync();
      for (const method of ['GET', 'POST', 'DELETE']) {
        const answer = await call(local, method, FEED, { token });
        expect(answer.status, method).toBe(409);
        expect(codes(answer)).toEqual(['conflict']);
      }
    } finally {
      await device.close();
    }
  });
});
