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

describe('sections by due date and their counts (extensions due, tz, /v2/tasks/counts)', () => {
  // The clock stands at 2026-03-02T10:00:00Z: 05:00 in New York (UTC-5 until March 8), whose day ends at 05:00Z on the 3rd.
  const NOW = '2026-03-02T10:00:00Z';
  let rep: number;
  let token: string;
  const mine = (query: string) => call(hub, 'GET', `/v2/tasks?owner_id=${rep}&${query}`, { token });
  const counts = (query = '') => call(hub, 'GET', `/v2/tasks/counts?owner_id=${rep}${query}`, { token });

  /** Every page of a section, following next_page as a client does; the ids and how many pages it took. */
  async function allPages(query: string): Promise<{ tasks: any[]; pages: number }> {
    const tasks: any[] = [];
    let path: string | undefined = `/v2/tasks?owner_id=${rep}&${query}`;
    let pages = 0;
    while (path) {
      const answer: any = await call(hub, 'GET', path.replace(hub.url, ''), { token });
      expect(answer.status, answer.text).toBe(200);
      tasks.push(...answer.body.items.map((i: any) => i.data));
      path = answer.body.meta.links.next_page;
      pages++;
    }
    return { tasks, pages };
  }

  beforeAll(async () => {
    hub.clock.set(NOW);
    rep = await hub.engine.users.create({ email: 'rep@example.com', password: 'rep-secret-123', name: 'Ray Rep', role: 'user' });
    token = hub.tokenFor(rep);
    const actor = { userId: rep, role: 'user' as const, scopes: new Set(['write'] as const) };
    const create = (data: Record<string, unknown>) => hub.engine.tasks.create({ content: 'x', ...data }, actor);
    const at = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * 60_000).toISOString().replace('.000Z', 'Z');
    hub.engine.db.transaction(() => {
      // 777 overdue, spread over the four weeks before now; every fifth with a reminder that has come.
      for (let i = 0; i < 777; i++) {
        const due = at(NOW, -(i + 1) * 50);
        create({ content: `Overdue ${i}`, due_date: due, remind_at: i % 5 === 0 ? at(due, -30) : null });
      }
      for (let i = 0; i < 5; i++) create({ content: `Today ${i}`, due_date: at(NOW, (i + 1) * 60) });
      // 02:00Z on the 3rd: tomorrow in UTC, still today in New York.
      create({ content: 'Late tonight in New York', due_date: '2026-03-03T02:00:00Z' });
      for (let i = 0; i < 3; i++) create({ content: `Upcoming ${i}`, due_date: `2026-03-1${i}T09:00:00Z`, remind_at: `2026-03-1${i}T08:00:00Z` });
      create({ content: 'Some day' });
      create({ content: 'Some other day' });
      for (let i = 0; i < 4; i++) hub.engine.tasks.update(create({ content: `Done ${i}`, due_date: at(NOW, -i * 60) }), { completed: true }, actor);
    })();
  });
  afterAll(() => hub.clock.set('2026-03-02T10:00:00Z'));

  it('counts every section, in the time zone given or the user\'s own', async () => {
    const utc = await counts('&tz=UTC');
    expect(utc.status).toBe(200);
    expect(utc.body).toEqual({
      data: { overdue: 777, today: 5, upcoming: 4, none: 2, completed: 4, reminders_due: 156 },
      meta: { type: 'task_counts' },
    });
    expect((await counts('&tz=America/New_York')).body.data).toMatchObject({ overdue: 777, today: 6, upcoming: 3 });
    expect((await counts('&tz=UTC-05:00')).body.data).toMatchObject({ today: 6, upcoming: 3 });
    // Without tz, the user's own timezone (UTC+00:00 until changed).
    expect((await counts()).body.data).toMatchObject({ today: 5, upcoming: 4 });
    hub.engine.db.prepare("UPDATE users SET timezone = 'UTC-05:00' WHERE id = ?").run(rep);
    expect((await counts()).body.data).toMatchObject({ today: 6, upcoming: 3 });
    hub.engine.db.prepare("UPDATE users SET timezone = 'UTC+00:00' WHERE id = ?").run(rep);
  });

  it('pages through each section in due order, every task once', async () => {
    const overdue = await allPages('completed=false&due=overdue&sort_by=due_date&per_page=100&tz=UTC');
    expect(overdue.pages).toBe(8);
    expect(overdue.tasks).toHaveLength(777);
    expect(new Set(overdue.tasks.map((t) => t.id)).size).toBe(777);
    expect(overdue.tasks.every((t) => t.overdue && t.due_date < NOW)).toBe(true);
    const dues = overdue.tasks.map((t) => t.due_date);
    expect(dues).toEqual([...dues].sort());

    const today = await allPages('completed=false&due=today&sort_by=due_date&per_page=2&tz=UTC');
    expect(today.pages).toBe(3);
    expect(today.tasks.map((t) => t.content)).toEqual(['Today 0', 'Today 1', 'Today 2', 'Today 3', 'Today 4']);
    const upcoming = await allPages('completed=false&due=upcoming&sort_by=due_date&per_page=3&tz=UTC');
    expect(upcoming.tasks.map((t) => t.content)).toEqual(['Late tonight in New York', 'Upcoming 0', 'Upcoming 1', 'Upcoming 2']);
    expect(upcoming.pages).toBe(2);
    const none = await allPages('completed=false&due=none');
    expect(none.tasks.map((t) => t.content).sort()).toEqual(['Some day', 'Some other day']);
  });

  it('moves tasks between sections as the clock and the zone say', async () => {
    const newYork = await allPages('completed=false&due=today&sort_by=due_date&tz=America/New_York');
    expect(newYork.tasks.map((t) => t.content)).toContain('Late tonight in New York');
    // Past midnight in UTC, Today's tasks that were not done are overdue, and the next day's are today's.
    hub.clock.set('2026-03-03T00:30:00Z');
    expect((await counts('&tz=UTC')).body.data).toMatchObject({ overdue: 782, today: 1, upcoming: 3 });
    hub.clock.set(NOW);
  });

  it('takes several sections at once, and narrows even with inclusive=false', async () => {
    const both = await allPages('completed=false&due=overdue,today&per_page=100&tz=UTC');
    expect(both.tasks).toHaveLength(782);
    const ored = await call(hub, 'GET', `/v2/tasks?due=none&owner_id=${rep}&creator_id=${rep}&inclusive=false&per_page=100`, { token });
    expect(ored.body.items.map((i: any) => i.data.content).sort()).toEqual(['Some day', 'Some other day']);
  });

  it('lists due reminders newest first (sort remind_at) and counts them', async () => {
    const first = await mine('reminder_due=true&sort_by=remind_at:desc&per_page=5');
    const reminders = first.body.items.map((i: any) => i.data.remind_at);
    expect(reminders).toEqual([...reminders].sort().reverse());
    expect(reminders[0]).toBe('2026-03-02T08:40:00Z');
    const task = first.body.items[0].data;
    await call(hub, 'PUT', `/v2/tasks/${task.id}`, { token, data: { completed: true } });
    expect((await counts('&tz=UTC')).body.data).toMatchObject({ overdue: 776, completed: 5, reminders_due: 155 });
    await call(hub, 'PUT', `/v2/tasks/${task.id}`, { token, data: { completed: false } });
  });

  it('counts with the list\'s other filters, and refuses what it sets itself', async () => {
    expect((await call(hub, 'GET', `/v2/tasks/counts?owner_id=${rep}&q=tonight&tz=UTC`, { token })).body.data)
      .toEqual({ overdue: 0, today: 0, upcoming: 1, none: 0, completed: 0, reminders_due: 0 });
    for (const param of ['due=today', 'completed=true', 'per_page=10', 'inclusive=false', 'sort_by=due_date']) {
      expect(codes(await counts(`&${param}`)), param).toEqual(['invalid_param']);
    }
    expect(codes(await counts('&colour=red'))).toEqual(['invalid_param']);
  });

  it('refuses unknown sections and time zones', async () => {
    expect(codes(await mine('due=yesterday'))).toEqual(['invalid_param']);
    expect(codes(await mine('due=today&tz=Mars/Olympus'))).toEqual(['invalid_param']);
    expect(codes(await mine('due=today&tz=UTC%2B15:00'))).toEqual(['invalid_param']);
    expect(codes(await counts('&tz=UTC&tz=UTC'))).toEqual(['invalid_param']);
  });
});
