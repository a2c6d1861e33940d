import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestHub, type TestHub } from '../support/testHub.js';
import { toQueryString } from '../../shared/bridge.js';
import { fetchDueReminders } from '../../electron/desktop/dueReminders.js';
import type { EngineGet } from '../../electron/desktop/overdueBadge.js';

/** The reminders the desktop announces, read from a real engine over real HTTP as the main process reads it (a GET as its user). */
let hub: TestHub;
const asAgent: EngineGet = async (path, query) => {
  const answer = await call(hub, 'GET', `${path}${toQueryString(query)}`, { token: hub.agentToken });
  return { status: answer.status, body: answer.body };
};

beforeAll(async () => {
  hub = await startTestHub();
  const task = (token: string, i: number) => call(hub, 'POST', '/v2/tasks', {
    token, data: { content: `Reminder ${i}`, due_date: '2026-03-02T12:00:00Z', remind_at: new Date(Date.parse('2026-03-01T00:00:00Z') + i * 60_000).toISOString() },
  });
  for (let i = 0; i < 30; i++) await task(hub.agentToken, i);
  // Someone else's, later than all of the agent's: never announced to the agent.
  await task(hub.adminToken, 100);
});
afterAll(() => hub.close());

describe('due reminders for system notifications', () => {
  it("reads the user's own, the latest first, so a new one is never behind the backlog", async () => {
    const due = await fetchDueReminders(asAgent);
    expect(due).toHaveLength(20);
    expect(due[0]).toMatchObject({ content: 'Reminder 29', remind_at: '2026-03-01T00:29:00Z' });
    expect(due.map((t) => t.content)).not.toContain('Reminder 100');
  });

  it('reads none when the engine cannot say who the user is', async () => {
    expect(await fetchDueReminders(async () => ({ status: 401, body: null }))).toEqual([]);
  });
});
