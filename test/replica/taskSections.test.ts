import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestHub, type TestHub } from '../support/testHub.js';
import { startTestReplica, type TestReplica } from '../support/testReplica.js';

/**
 * The rep's day on a desktop replica: the Tasks screen's sections, their
 * counts and the due reminders are answered by the replica's own engine, from
 * what it pulled and what the rep did offline (records with temporary ids).
 */

let hub: TestHub;
let copy: TestReplica;
const onHub = (method: string, path: string, data?: unknown) => call(hub, method, path, { token: hub.agentToken, data });
const onCopy = (method: string, path: string, data?: unknown) => call(copy.local, method, path, { token: copy.token, data });
const synced = async () => expect(await copy.replica.sync()).toMatchObject({ state: 'up_to_date', pending: 0, issues: 0, last_error: null });
const counts = (on: typeof onHub) => on('GET', `/v2/tasks/counts?owner_id=${hub.agentId}&tz=Europe/Paris`).then((a) => a.body.data);

beforeAll(async () => {
  hub = await startTestHub();
  // 10:00Z on 2 March: 11:00 in Paris, whose day ends at 23:00Z.
  for (let i = 1; i <= 30; i++) {
    const due = new Date(Date.parse('2026-03-02T10:00:00Z') - i * 3600_000).toISOString().replace('.000Z', 'Z');
    expect((await onHub('POST', '/v2/tasks', { content: `Overdue ${i}`, due_date: due, remind_at: i <= 4 ? '2026-02-01T08:00:00Z' : null })).status).toBe(200);
  }
  await onHub('POST', '/v2/tasks', { content: 'Tonight', due_date: '2026-03-02T22:30:00Z' });
  await onHub('POST', '/v2/tasks', { content: 'Past midnight in Paris', due_date: '2026-03-02T23:30:00Z' });
  await onHub('POST', '/v2/tasks', { content: 'Whenever' });
  copy = await startTestReplica(hub, hub.agentId);
  await synced();
});
afterAll(async () => {
  await copy.close();
  await hub.close();
});

describe('task sections on a replica', () => {
  it('counts and pages as the hub does', async () => {
    expect(await counts(onCopy)).toEqual({ overdue: 30, today: 1, upcoming: 1, none: 1, completed: 0, reminders_due: 4 });
    expect(await counts(onCopy)).toEqual(await counts(onHub));
    const page = (on: typeof onHub) => on('GET', `/v2/tasks?owner_id=${hub.agentId}&completed=false&due=overdue&sort_by=due_date&per_page=20&page=2&tz=Europe/Paris`);
    expect((await page(onCopy)).body.items).toHaveLength(10);
    expect((await page(onCopy)).body.items).toEqual((await page(onHub)).body.items);
  });

  it('counts what the rep did offline: a new task, a snoozed reminder, a task done', async () => {
    const created = (await onCopy('POST', '/v2/tasks', { content: 'Written offline', due_date: '2026-03-02T18:00:00Z' })).body.data;
    expect(created.id).toBeLessThan(0);
    const due = (await onCopy('GET', `/v2/tasks?owner_id=${hub.agentId}&reminder_due=true&sort_by=remind_at:desc&tz=Europe/Paris`)).body.items.map((i: any) => i.data);
    // Snoozed: the reminder moves past now (and the due date after it); done: the task is completed.
    await onCopy('PUT', `/v2/tasks/${due[0].id}`, { remind_at: '2026-03-02T11:00:00Z', due_date: '2026-03-02T12:00:00Z' });
    await onCopy('PUT', `/v2/tasks/${due[1].id}`, { completed: true });
    expect(await counts(onCopy)).toEqual({ overdue: 28, today: 3, upcoming: 1, none: 1, completed: 1, reminders_due: 2 });
    const today = await onCopy('GET', `/v2/tasks?owner_id=${hub.agentId}&completed=false&due=today&sort_by=due_date&tz=Europe/Paris`);
    expect(today.body.items.map((i: any) => i.data.content)).toEqual([due[0].content, 'Written offline', 'Tonight']);
    await synced();
    expect(await counts(onHub)).toEqual(await counts(onCopy));
  });
});
