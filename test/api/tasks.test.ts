import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, fields, startTestHub, type TestHub } from '../support/testHub.js';

let hub: TestHub;
let contactId: number;
const post = (data: unknown, token = hub.agentToken) => call(hub, 'POST', '/v2/tasks', { token, data });
const put = (id: number, data: unknown, token = hub.agentToken) => call(hub, 'PUT', `/v2/tasks/${id}`, { token, data });
const get = (path: string) => call(hub, 'GET', path, { token: hub.agentToken });
const ids = (answer: { body: any }) => answer.body.items.map((i: any) => i.data.id);

beforeAll(async () => {
  hub = await startTestHub();
  contactId = (await call(hub, 'POST', '/v2/contacts', { token: hub.agentToken, data: { last_name: 'Tasked' } })).body.data.id;
});
afterAll(() => hub.close());

describe('creating tasks', () => {
  it('creates a floating task with the creator as owner', async () => {
    const answer = await post({ content: 'Call back about pricing' });
    expect(answer.status).toBe(200);
    expect(answer.body.meta.type).toBe('task');
    expect(answer.body.data).toMatchObject({
      content: 'Call back about pricing', owner_id: hub.agentId, creator_id: hub.agentId, resource_type: null, resource_id: null,
      completed: false, completed_at: null, due_date: null, overdue: false, remind_at: null,
    });
  });

  it('requires content', async () => {
    expect(codes(await post({}))).toEqual(['missing']);
    expect(codes(await post({ content: '   ' }))).toEqual(['blank']);
    expect(fields(await post({ content: 'x', colour: 'red' }))).toEqual(['/colour']);
  });

  it('relates a task to an existing record, with resource_type and resource_id together', async () => {
    const related = await post({ content: 'Visit', resource_type: 'contact', resource_id: contactId });
    expect(related.body.data).toMatchObject({ resource_type: 'contact', resource_id: contactId });
    expect(fields(await post({ content: 'x', resource_type: 'contact' }))).toEqual(['/resource_id']);
    expect(fields(await post({ content: 'x', resource_id: contactId }))).toEqual(['/resource_type']);
    expect(fields(await post({ content: 'x', resource_type: 'contact', resource_id: 999999 }))).toEqual(['/resource_id']);
    expect(codes(await post({ content: 'x', resource_type: 'planet', resource_id: 1 }))).toEqual(['incorrect_value']);
  });

  it('accepts date-times with offsets and stores them in UTC', async () => {
    const answer = await post({ content: 'Offsets', due_date: '2026-03-05T12:00:00+0200', remind_at: '2026-03-05T09:30:00+01:00' });
    expect(answer.body.data).toMatchObject({ due_date: '2026-03-05T10:00:00Z', remind_at: '2026-03-05T08:30:00Z' });
    expect(codes(await post({ content: 'x', due_date: 'next tuesday' }))).toEqual(['invalid_type']);
  });

  it('needs remind_at earlier than due_date, on create and on update of either', async () => {
    expect(fields(await post({ content: 'x', due_date: '2026-03-05T10:00:00Z', remind_at: '2026-03-05T10:00:00Z' }))).toEqual(['/remind_at']);
    expect(fields(await post({ content: 'x', remind_at: '2026-03-05T10:00:00Z' }))).toEqual(['/remind_at']);
    const task = (await post({ content: 'Remind me', due_date: '2026-03-05T10:00:00Z', remind_at: '2026-03-05T09:00:00Z' })).body.data;
    expect(fields(await put(task.id, { due_date: '2026-03-05T08:00:00Z' }))).toEqual(['/remind_at']);
    expect(fields(await put(task.id, { remind_at: '2026-03-05T11:00:00Z' }))).toEqual(['/remind_at']);
    expect((await put(task.id, { remind_at: null, due_date: null })).status).toBe(200);
  });
});

describe('completing and updating tasks', () => {
  it('sets completed_at when completed and clears it when reopened', async () => {
    const task = (await post({ content: 'Finish me' })).body.data;
    const done = await put(task.id, { completed: true });
    expect(done.body.data.completed).toBe(true);
    expect(done.body.data.completed_at).toBe('2026-03-02T10:00:00Z');
    hub.clock.advance(60_000);
    expect((await put(task.id, { completed: true })).body.data.completed_at).toBe('2026-03-02T10:00:00Z');
    const reopened = await put(task.id, { completed: false });
    expect(reopened.body.data).toMatchObject({ completed: false, completed_at: null });
  });

  it('computes overdue from due_date and the clock', async () => {
    const task = (await post({ content: 'Due soon', due_date: '2026-03-02T12:00:00Z' })).body.data;
    expect(task.overdue).toBe(false);
    hub.clock.set('2026-03-02T12:00:01Z');
    expect((await get(`/v2/tasks/${task.id}`)).body.data.overdue).toBe(true);
    expect(ids(await get('/v2/tasks?overdue=true'))).toContain(task.id);
    expect(ids(await get('/v2/tasks?overdue=false'))).not.toContain(task.id);
    hub.clock.set('2026-03-02T10:00:00Z');
  });

  it('answers 404 for tasks that do not exist and deletes with 204', async () => {
    expect(codes(await get('/v2/tasks/999999'))).toEqual(['not_found']);
    const task = (await post({ content: 'Short-lived' })).body.data;
    expect((await call(hub, 'DELETE', `/v2/tasks/${task.id}`, { token: hub.agentToken })).status).toBe(204);
    expect((await get(`/v2/tasks/${task.id}`)).status).toBe(404);
  });

  it('deletes the tasks of a deleted contact', async () => {
    const contact = (await call(hub, 'POST', '/v2/contacts', { token: hub.agentToken, data: { last_name: 'Gone' } })).body.data;
    const task = (await post({ content: 'Orphan?', resource_type: 'contact', resource_id: contact.id })).body.data;
    await call(hub, 'DELETE', `/v2/contacts/${contact.id}`, { token: hub.agentToken });
    expect((await get(`/v2/tasks/${task.id}`)).status).toBe(404);
  });
});

describe('listing tasks', () => {
  let floating: number;
  let related: number;
  beforeAll(async () => {
    floating = (await post({ content: 'Prepare quarterly forecast', due_date: '2026-04-01T09:00:00Z', remind_at: '2026-04-01T08:00:00Z' }, hub.adminToken)).body.data.id;
    related = (await post({ content: 'Send brochure to Tasked', resource_type: 'contact', resource_id: contactId, owner_id: hub.adminId })).body.data.id;
  });

  it('filters by type, resource, owner, creator, completed and remind', async () => {
    expect(ids(await get('/v2/tasks?type=floating&per_page=100'))).toContain(floating);
    expect(ids(await get('/v2/tasks?type=floating&per_page=100'))).not.toContain(related);
    expect(ids(await get(`/v2/tasks?type=related&resource_type=contact&resource_id=${contactId}`))).toContain(related);
    expect(ids(await get(`/v2/tasks?owner_id=${hub.adminId}&creator_id=${hub.agentId}`))).toEqual([related]);
    expect(ids(await get(`/v2/tasks?remind=true&creator_id=${hub.adminId}`))).toEqual([floating]);
    expect(ids(await get('/v2/tasks?completed=true&per_page=100'))).not.toContain(floating);
    expect(codes(await get('/v2/tasks?type=sideways'))).toEqual(['invalid_param']);
    expect(codes(await get('/v2/tasks?sort_by=content'))).toEqual(['invalid_param']);
  });

  it('finds reminders that are due, by the injected clock (extension reminder_due)', async () => {
    const due = `/v2/tasks?reminder_due=true&creator_id=${hub.adminId}`;
    expect(ids(await get(due))).toEqual([]);
    hub.clock.set('2026-04-01T08:00:00Z');
    expect(ids(await get(due))).toEqual([floating]);
    await put(floating, { completed: true }, hub.adminToken);
    expect(ids(await get(due))).toEqual([]);
    await put(floating, { completed: false }, hub.adminToken);
    hub.clock.set('2026-03-02T10:00:00Z');
  });

  it('searches content as you type (q)', async () => {
    expect(ids(await get('/v2/tasks?q=quarter'))).toEqual([floating]);
    expect(ids(await get('/v2/tasks?q=brochure%20tas'))).toEqual([related]);
    // A search without sort_by lists the newest first; sort_by still applies when given.
    const both = (await post({ content: 'Quarterly review, second round' })).body.data.id;
    expect(ids(await get('/v2/tasks?q=quarter'))).toEqual([both, floating]);
    expect(ids(await get('/v2/tasks?q=quarter&sort_by=due_date:desc'))).toEqual([floating, both]);
  });

  it('sorts by every sort of the spec', async () => {
    for (const sort of ['resource_type', 'completed_at', 'due_date', 'created_at', 'updated_at']) {
      expect((await get(`/v2/tasks?sort_by=${sort}:desc`)).status, sort).toBe(200);
    }
    const byDue = await get(`/v2/tasks?sort_by=due_date:desc&per_page=1`);
    expect(byDue.body.items[0].data.id).toBe(floating);
  });
});
