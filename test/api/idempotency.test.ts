import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, startTestHub, type TestHub } from '../support/testHub.js';
import { IDEMPOTENCY_KEY_SECONDS } from '../../electron/engine/http/idempotency.js';

let hub: TestHub;
beforeAll(async () => {
  hub = await startTestHub();
});
afterAll(() => hub.close());

const withKey = (key: string) => ({ 'Idempotency-Key': key });
const count = (table: string) => hub.engine.db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number;

describe('Idempotency-Key', () => {
  it('runs a create once and answers a retry with the same answer, marked as replayed', async () => {
    const key = randomUUID();
    const before = count('contacts');
    const first = await call(hub, 'POST', '/v2/contacts', { token: hub.agentToken, data: { last_name: 'Once' }, headers: withKey(key) });
    const again = await call(hub, 'POST', '/v2/contacts', { token: hub.agentToken, data: { last_name: 'Once' }, headers: withKey(key) });
    expect(first.status).toBe(200);
    expect([again.status, again.text]).toEqual([200, first.text]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(count('contacts')).toBe(before + 1);
    // Without a key, or with another one, it runs again.
    await call(hub, 'POST', '/v2/contacts', { token: hub.agentToken, data: { last_name: 'Once' }, headers: withKey(randomUUID()) });
    expect(count('contacts')).toBe(before + 2);
  });

  it('keeps refusals and deletes too, but lets a key of another user, or after a day, run again', async () => {
    const key = randomUUID();
    const bad = await call(hub, 'POST', '/v2/tasks', { token: hub.agentToken, data: {}, headers: withKey(key) });
    expect(bad.status).toBe(422);
    expect((await call(hub, 'POST', '/v2/tasks', { token: hub.agentToken, data: {}, headers: withKey(key) })).text).toBe(bad.text);

    const task = (await call(hub, 'POST', '/v2/tasks', { token: hub.agentToken, data: { content: 'Gone' } })).body.data;
    const deleteKey = randomUUID();
    expect((await call(hub, 'DELETE', `/v2/tasks/${task.id}`, { token: hub.agentToken, headers: withKey(deleteKey) })).status).toBe(204);
    const replayed = await call(hub, 'DELETE', `/v2/tasks/${task.id}`, { token: hub.agentToken, headers: withKey(deleteKey) });
    expect([replayed.status, replayed.headers.get('idempotent-replayed')]).toEqual([204, 'true']);

    const shared = randomUUID();
    const before = count('tasks');
    await call(hub, 'POST', '/v2/tasks', { token: hub.agentToken, data: { content: 'Mine' }, headers: withKey(shared) });
    await call(hub, 'POST', '/v2/tasks', { token: hub.adminToken, data: { content: 'Mine' }, headers: withKey(shared) });
    expect(count('tasks')).toBe(before + 2);
    hub.clock.advance((IDEMPOTENCY_KEY_SECONDS + 1) * 1000);
    await call(hub, 'POST', '/v2/tasks', { token: hub.agentToken, data: { content: 'Mine' }, headers: withKey(shared) });
    expect(count('tasks')).toBe(before + 3);
  });

  it('refuses a key reused for a different request (422) and a malformed key (400)', async () => {
    const key = randomUUID();
    await call(hub, 'POST', '/v2/tasks', { token: hub.agentToken, data: { content: 'First' }, headers: withKey(key) });
    const other = await call(hub, 'POST', '/v2/tasks', { token: hub.agentToken, data: { content: 'Second' }, headers: withKey(key) });
    expect([other.status, codes(other)]).toEqual([422, ['incorrect_value']]);
    const malformed = await call(hub, 'POST', '/v2/tasks', { token: hub.agentToken, data: { content: 'x' }, headers: withKey('has spaces in it') });
    expect([malformed.status, codes(malformed)]).toEqual([400, ['invalid_header']]);
    // Reads ignore the header.
    expect((await call(hub, 'GET', '/v2/tasks', { token: hub.agentToken, headers: withKey('has spaces in it') })).status).toBe(200);
  });

  it('creates once when the same request races with itself; the others get the answer or a 409 to retry', async () => {
    const key = randomUUID();
    const before = count('tasks');
    const answers = await Promise.all(Array.from({ length: 12 }, () =>
      call(hub, 'POST', '/v2/tasks', { token: hub.agentToken, data: { content: 'Raced' }, headers: withKey(key) })));
    expect(count('tasks')).toBe(before + 1);
    const created = answers.find((a) => a.status === 200 && a.headers.get('idempotent-replayed') === null)!;
    for (const answer of answers) {
      if (answer.status === 409) expect([codes(answer), answer.headers.get('retry-after')]).toEqual([['conflict'], '1']);
      else expect([answer.status, answer.text]).toEqual([200, created.text]);
    }
  });

  it('keeps the answer in the write\'s own transaction: when it cannot be kept, the change is not made either', async () => {
    const task = (await call(hub, 'POST', '/v2/tasks', { token: hub.agentToken, data: { content: 'Before' } })).body.data;
    const { db } = hub.engine;
    // A failing store of answers, as a full disk would make it (a trigger each backend spells its own way); the key's
    // claim before the request runs (a row without a status) still goes in.
    db.exec(db.dialect === 'sqlite'
      ? "CREATE TEMP TRIGGER refuse_answers BEFORE INSERT ON idempotency_keys WHEN NEW.status IS NOT NULL BEGIN SELECT RAISE(ABORT, 'disk full'); END"
      : `CREATE FUNCTION refuse_answers() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$;
         CREATE TRIGGER refuse_answers BEFORE INSERT ON idempotency_keys FOR EACH ROW WHEN (NEW.status IS NOT NULL) EXECUTE FUNCTION refuse_answers()`);
    try {
      const refused = await call(hub, 'PUT', `/v2/tasks/${task.id}`, { token: hub.agentToken, data: { content: 'After' }, headers: withKey(randomUUID()) });
      expect(refused.status).toBe(500);
      expect(db.prepare('SELECT content FROM tasks WHERE id = ?').pluck().get(task.id)).toBe('Before');
    } finally {
      db.exec(db.dialect === 'sqlite' ? 'DROP TRIGGER temp.refuse_answers' : 'DROP TRIGGER refuse_answers ON idempotency_keys; DROP FUNCTION refuse_answers()');
    }
    const key = randomUUID();
    const kept = await call(hub, 'PUT', `/v2/tasks/${task.id}`, { token: hub.agentToken, data: { content: 'After' }, headers: withKey(key) });
    expect(kept.status).toBe(200);
    expect(db.prepare('SELECT status, body FROM idempotency_keys WHERE key = ?').get(key)).toEqual({ status: 200, body: kept.text });
  });
});
