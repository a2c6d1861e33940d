import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, startTestHub, type TestHub } from '../support/testHub.js';

// REST writes share commits (db/commitGroups.ts): these check what a client sees of that over real HTTP.
let hub: TestHub;
beforeAll(async () => {
  hub = await startTestHub();
});
afterAll(() => hub.close());

const contentOf = (id: number) => hub.engine.db.prepare('SELECT content FROM tasks WHERE id = ?').pluck().get(id);

describe('writes and their commits', () => {
  it('answers writes that arrive together each with its own change, all of them kept', async () => {
    const tasks = await Promise.all(Array.from({ length: 8 }, (_, i) =>
      call(hub, 'POST', '/v2/tasks', { token: hub.agentToken, data: { content: `Together ${i}` }, headers: { 'Idempotency-Key': randomUUID() } })));
    expect(tasks.map((t) => t.status)).toEqual(Array(8).fill(200));
    const edits = await Promise.all(tasks.map((t, i) =>
      call(hub, 'PUT', `/v2/tasks/${t.body.data.id}`, { token: hub.agentToken, data: { content: `Edited ${i}` } })));
    expect(edits.map((e) => e.body.data.content)).toEqual(tasks.map((_, i) => `Edited ${i}`));
    expect(tasks.map((t) => contentOf(t.body.data.id))).toEqual(tasks.map((_, i) => `Edited ${i}`));
  });

  it('answers 503 when the commit fails, keeping neither the change nor its answer, so a retry runs again', async () => {
    const task = (await call(hub, 'POST', '/v2/tasks', { token: hub.agentToken, data: { content: 'Before' } })).body.data;
    const { db } = hub.engine;
    // A deferred foreign key is checked at COMMIT: a failing commit, as a full disk would make one (each backend's trigger).
    db.exec(`CREATE TABLE IF NOT EXISTS commit_probe (user_id INTEGER REFERENCES users(id) DEFERRABLE INITIALLY DEFERRED);
      ${db.dialect === 'sqlite'
        ? 'CREATE TEMP TRIGGER break_commits AFTER UPDATE ON main.tasks BEGIN INSERT INTO commit_probe VALUES (-1); END'
        : `CREATE FUNCTION break_commits() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO commit_probe VALUES (-1); RETURN NULL; END $$;
           CREATE TRIGGER break_commits AFTER UPDATE ON tasks FOR EACH ROW EXECUTE FUNCTION break_commits()`}`);
    const key = randomUUID();
    try {
      const failed = await call(hub, 'PUT', `/v2/tasks/${task.id}`, { token: hub.agentToken, data: { content: 'After' }, headers: { 'Idempotency-Key': key } });
      expect([failed.status, codes(failed)]).toEqual([503, ['temporarily_unavailable']]);
      expect(contentOf(task.id)).toBe('Before');
      expect(db.prepare('SELECT COUNT(*) FROM idempotency_keys WHERE key = ?').pluck().get(key)).toBe(0);
    } finally {
      db.exec(db.dialect === 'sqlite' ? 'DROP TRIGGER temp.break_commits' : 'DROP TRIGGER break_commits ON tasks; DROP FUNCTION break_commits()');
    }
    const retried = await call(hub, 'PUT', `/v2/tasks/${task.id}`, { token: hub.agentToken, data: { content: 'After' }, headers: { 'Idempotency-Key': key } });
    expect([retried.status, retried.headers.get('idempotent-replayed')]).toEqual([200, null]);
    expect(contentOf(task.id)).toBe('After');
  });
});
