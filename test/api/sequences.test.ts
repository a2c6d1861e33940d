import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, startTestHub, type TestHub } from '../support/testHub.js';
import { startTestReplica } from '../support/testReplica.js';
import { SEQUENCE_SYNC } from '../../electron/engine/resources/sequences.js';

let hub: TestHub;
const get = (path: string, token = hub.agentToken) => call(hub, 'GET', path, { token });
const admin = (method: string, path: string, data?: unknown) => call(hub, method, path, { token: hub.adminToken, data });
const agent = (method: string, path: string, data?: unknown) => call(hub, method, path, { token: hub.agentToken, data });
const names = (answer: { body: any }) => answer.body.items.map((i: any) => i.data.name);
const problems = (answer: { body: any }) => Object.fromEntries(answer.body.errors.map((e: any) => [e.error.field, e.error.code]));

let templateId: number;
let otherTemplateId: number;

const email = (delay: number, unit: string, id = templateId, isReply = false) =>
  ({ delay_from_previous_step: delay, delay_from_previous_step_unit: unit, action_type: 'automated_email', action_properties: { email_template_id: id, is_reply: isReply } });
const task = (delay: number, unit: string, content: string) =>
  ({ delay_from_previous_step: delay, delay_from_previous_step_unit: unit, action_type: 'task', action_properties: { task_content: content } });

beforeAll(async () => {
  hub = await startTestHub();
  const template = { subject: 'Hi {{contact.first_name}}', body: 'Hello from {{user.name}}' };
  templateId = (await admin('POST', '/v2/email_templates', { name: 'First touch', ...template })).body.data.id;
  otherTemplateId = (await admin('POST', '/v2/email_templates', { name: 'Follow-up', ...template })).body.data.id;
});
afterAll(() => hub.close());

describe('sequences over REST', () => {
  it('are created by admins with their steps in order, positions from zero and steps_total', async () => {
    const created = await admin('POST', '/v2/sequences', {
      name: ' Outreach ', unsubscribe_settings: { enabled: true, locale: 'pt-BR' },
      steps: [email(0, 'hours'), task(2, 'weekdays', 'Call them'), email(24, 'hours', otherTemplateId, true)],
    });
    expect(created.status).toBe(200);
    expect(created.body.meta.type).toBe('sequence');
    expect(created.body.data).toEqual({
      id: expect.any(Number), name: 'Outreach', creator_id: hub.adminId, steps_total: 3,
      unsubscribe_settings: { enabled: true, locale: 'pt-BR' },
      steps: [
        { position: 0, ...email(0, 'hours') },
        { position: 1, ...task(2, 'weekdays', 'Call them') },
        { position: 2, ...email(24, 'hours', otherTemplateId, true) },
      ],
      created_at: '2026-03-02T10:00:00Z', updated_at: '2026-03-02T10:00:00Z',
    });
    expect((await get(`/v2/sequences/${created.body.data.id}`)).body.data).toEqual(created.body.data);
  });

  it('default to no steps and unsubscribe disabled in English; is_reply defaults to false', async () => {
    const plain = (await admin('POST', '/v2/sequences', { name: 'Empty' })).body.data;
    expect(plain).toMatchObject({ steps_total: 0, steps: [], unsubscribe_settings: { enabled: false, locale: 'en' } });
    const noReply = await admin('POST', '/v2/sequences', {
      name: 'No reply flag', steps: [{ delay_from_previous_step: 1, delay_from_previous_step_unit: 'hours', action_type: 'automated_email', action_properties: { email_template_id: templateId } }],
    });
    expect(noReply.body.data.steps[0].action_properties).toEqual({ email_template_id: templateId, is_reply: false });
  });

  it('refuse every write from an agent with 403, while agents read them', async () => {
    const id = (await admin('POST', '/v2/sequences', { name: 'Admins only' })).body.data.id;
    expect(codes(await agent('POST', '/v2/sequences', { name: 'By agent' }))).toEqual(['forbidden']);
    expect(codes(await agent('PUT', `/v2/sequences/${id}`, { name: 'Renamed' }))).toEqual(['forbidden']);
    expect(codes(await agent('DELETE', `/v2/sequences/${id}`))).toEqual(['forbidden']);
    expect((await get(`/v2/sequences/${id}`)).body.data.name).toBe('Admins only');
  });

  it('need a unique, non-blank name', async () => {
    expect(problems(await admin('POST', '/v2/sequences', {}))).toEqual({ '/name': 'missing' });
    expect(problems(await admin('POST', '/v2/sequences', { name: '  ' }))).toEqual({ '/name': 'blank' });
    expect(problems(await admin('POST', '/v2/sequences', { name: 'Outreach' }))).toEqual({ '/name': 'already_exists' });
    const id = (await admin('POST', '/v2/sequences', { name: 'Second' })).body.data.id;
    expect(problems(await admin('PUT', `/v2/sequences/${id}`, { name: 'Outreach' }))).toEqual({ '/name': 'already_exists' });
    expect((await admin('PUT', `/v2/sequences/${id}`, { name: 'Second' })).status).toBe(200);
  });

  it('check every step and answer every problem in one 422 pointing into steps', async () => {
    const bad = await admin('POST', '/v2/sequences', {
      name: 'Broken', colour: 'red',
      steps: [
        { delay_from_previous_step: -1, delay_from_previous_step_unit: 'days', action_type: 'automated_email', action_properties: { email_template_id: 999999, is_reply: 'no' } },
        { delay_from_previous_step: 1.5, action_type: 'task', action_properties: { task_content: '  ', email_template_id: templateId }, extra: 1 },
        { delay_from_previous_step: '3', delay_from_previous_step_unit: 'hours', action_type: 'call' },
        { delay_from_previous_step_unit: 'hours', action_type: 'automated_email', action_properties: {} },
        { delay_from_previous_step: 0, delay_from_previous_step_unit: 'hours', action_type: 'task' },
        'not a step',
      ],
    });
    expect(bad.status).toBe(422);
    expect(problems(bad)).toEqual({
      '/colour': 'unknown',
      '/steps/0/delay_from_previous_step': 'incorrect_value',
      '/steps/0/delay_from_previous_step_unit': 'incorrect_value',
      '/steps/0/action_properties/email_template_id': 'incorrect_value',
      '/steps/0/action_properties/is_reply': 'invalid_type',
      '/steps/1/extra': 'unknown',
      '/steps/1/delay_from_previous_step': 'invalid_type',
      '/steps/1/delay_from_previous_step_unit': 'missing',
      '/steps/1/action_properties/email_template_id': 'unknown',
      '/steps/1/action_properties/task_content': 'blank',
      '/steps/2/delay_from_previous_step': 'invalid_type',
      '/steps/2/action_type': 'incorrect_value',
      '/steps/3/delay_from_previous_step': 'missing',
      '/steps/3/action_properties/email_template_id': 'missing',
      '/steps/4/action_properties': 'missing',
      '/steps/5': 'invalid_type',
    });
    expect(names(await get('/v2/sequences?name=Broken'))).toEqual([]);
  });

  it('refuse a reply before any email, steps that are not an array, and bad unsubscribe settings', async () => {
    const reply = await admin('POST', '/v2/sequences', { name: 'Reply first', steps: [task(0, 'hours', 'Look them up'), email(1, 'hours', templateId, true)] });
    expect(problems(reply)).toEqual({ '/steps/1/action_properties/is_reply': 'incorrect_value' });
    expect(problems(await admin('POST', '/v2/sequences', { name: 'Not array', steps: { 0: task(0, 'hours', 'x') } }))).toEqual({ '/steps': 'invalid_type' });
    expect(problems(await admin('POST', '/v2/sequences', { name: 'Too long', steps: Array.from({ length: 51 }, () => task(0, 'hours', 'x')) }))).toEqual({ '/steps': 'incorrect_value' });
    expect(problems(await admin('POST', '/v2/sequences', { name: 'Unsub', unsubscribe_settings: { enabled: 'yes', locale: 'english!', footer: 'x' } }))).toEqual({
      '/unsubscribe_settings/enabled': 'invalid_type', '/unsubscribe_settings/locale': 'incorrect_value', '/unsubscribe_settings/footer': 'unknown',
    });
    expect(problems(await admin('POST', '/v2/sequences', { name: 'Unsub', unsubscribe_settings: null }))).toEqual({ '/unsubscribe_settings': 'invalid_type' });
  });

  it('take back what GET served (PUT round-trip changes nothing but updated_at)', async () => {
    const served = (await get('/v2/sequences?name=Outreach')).body.items[0].data;
    hub.clock.advance(60_000);
    const again = await admin('PUT', `/v2/sequences/${served.id}`, served);
    expect(again.status).toBe(200);
    expect({ ...again.body.data, updated_at: served.updated_at }).toEqual(served);
    expect(again.body.data.updated_at).toBe('2026-03-02T10:01:00Z');
  });

  it('replace their steps as a whole when steps are written, and keep them when not', async () => {
    const id = (await admin('POST', '/v2/sequences', { name: 'Editable', steps: [email(0, 'hours'), task(1, 'hours', 'Old')] })).body.data.id;
    const renamed = (await admin('PUT', `/v2/sequences/${id}`, { name: 'Edited', unsubscribe_settings: { enabled: true } })).body.data;
    expect(renamed).toMatchObject({ name: 'Edited', steps_total: 2, unsubscribe_settings: { enabled: true, locale: 'en' } });
    // Positions come from the order given: a sent `position` is ignored.
    const replaced = (await admin('PUT', `/v2/sequences/${id}`, { steps: [{ position: 7, ...task(3, 'weekdays', 'New') }] })).body.data;
    expect(replaced.steps).toEqual([{ position: 0, ...task(3, 'weekdays', 'New') }]);
    expect(replaced.steps_total).toBe(1);
    expect(hub.engine.db.prepare('SELECT COUNT(*) FROM sequence_steps WHERE sequence_id = ?').pluck().get(id)).toBe(1);
    // A refused write changes nothing.
    expect((await admin('PUT', `/v2/sequences/${id}`, { name: 'Half', steps: [task(0, 'hours', '')] })).status).toBe(422);
    expect((await get(`/v2/sequences/${id}`)).body.data).toMatchObject({ name: 'Edited', steps_total: 1 });
    expect(codes(await admin('PUT', '/v2/sequences/999999', { name: 'x' }))).toEqual(['not_found']);
  });

  it('list with ids, name and creator filters and sorts; unknown parameters are 400', async () => {
    const all = (await get('/v2/sequences?per_page=100')).body.items.map((i: any) => i.data);
    expect(all.map((s: any) => s.id)).toEqual([...all.map((s: any) => s.id)].sort((a: number, b: number) => a - b));
    expect(names(await get(`/v2/sequences?ids=${all[1].id},${all[0].id}`))).toEqual([all[0].name, all[1].name]);
    expect(names(await get('/v2/sequences?name=Outreach'))).toEqual(['Outreach']);
    expect(names(await get(`/v2/sequences?creator_id=${hub.agentId}`))).toEqual([]);
    const byName = names(await get('/v2/sequences?sort_by=name&per_page=100'));
    expect(byName).toEqual([...byName].sort());
    expect(codes(await get('/v2/sequences?steps_total=1'))).toEqual(['invalid_param']);
    expect(codes(await get('/v2/sequences?sort_by=steps_total'))).toEqual(['invalid_param']);
  });

  it('are deleted with their steps (204, then 404) and logged for devices', async () => {
    const id = (await admin('POST', '/v2/sequences', { name: 'Short lived', steps: [task(0, 'hours', 'x')] })).body.data.id;
    expect((await admin('DELETE', `/v2/sequences/${id}`)).status).toBe(204);
    expect(codes(await get(`/v2/sequences/${id}`))).toEqual(['not_found']);
    expect(hub.engine.db.prepare('SELECT COUNT(*) FROM sequence_steps WHERE sequence_id = ?').pluck().get(id)).toBe(0);
    const logged = hub.engine.db.prepare("SELECT event_type FROM change_log WHERE resource_type = 'sequence' AND resource_id = ? ORDER BY revision").pluck().all(id);
    expect(logged).toEqual(['created', 'deleted']);
  });

  it('cannot be deleted once enrolled in (422), the enrollments keeping their sequence', async () => {
    const id = (await admin('POST', '/v2/sequences', { name: 'Enrolled', steps: [task(0, 'hours', 'x')] })).body.data.id;
    const { db } = hub.engine;
    db.prepare(`INSERT INTO sequence_enrollments (id, sequence_id, actor_id, resource_type, resource_id, state, current_step_position, sequence_json, created_at, updated_at)
      VALUES (900001, ?, ?, 'lead', 1, 'finished', 0, '{}', '2026-03-02T10:00:00Z', '2026-03-02T10:00:00Z')`).run(id, hub.adminId);
    const refused = await admin('DELETE', `/v2/sequences/${id}`);
    expect(refused.status).toBe(422);
    expect(codes(refused)).toEqual(['incorrect_value']);
    expect((await get(`/v2/sequences/${id}`)).status).toBe(200);
    db.prepare('DELETE FROM sequence_enrollments WHERE id = 900001').run();
    expect((await admin('DELETE', `/v2/sequences/${id}`)).status).toBe(204);
  });
});

describe('snapshot, what an enrollment copies', () => {
  it('is the sequence as GET serves it now, steps included, and undefined for no sequence', async () => {
    const served = (await get('/v2/sequences?name=Outreach')).body.items[0].data;
    const snapshot = hub.engine.sequences.snapshot(served.id);
    expect(snapshot).toEqual(served);
    expect(hub.engine.sequences.snapshot(999999)).toBeUndefined();
    // A copy: later edits do not reach it.
    await admin('PUT', `/v2/sequences/${served.id}`, { steps: [] });
    expect(snapshot!.steps).toHaveLength(3);
    await admin('PUT', `/v2/sequences/${served.id}`, { steps: served.steps });
  });
});

describe('sequences on devices', () => {
  it('are served by sync with the JSON GET answers', async () => {
    const served = (await get('/v2/sequences?name=Outreach')).body.items[0].data;
    const json = hub.engine.db.prepare(`SELECT ${SEQUENCE_SYNC.json} FROM ${SEQUENCE_SYNC.from} WHERE ${SEQUENCE_SYNC.idColumn} = ?`).pluck().get(served.id) as string;
    expect(JSON.parse(json)).toEqual(served);
  });

  it('reach a desktop replica with their steps and unsubscribe settings, and follow edits and deletes', async () => {
    const device = await startTestReplica(hub, hub.agentId);
    const { engine, replica, local, token } = device;
    const view = async (target: { url: string }, path: string, as: string) => (await call(target, 'GET', `${path}?per_page=100`, { token: as })).body.items.map((i: any) => i.data);
    try {
      await replica.sync();
      expect(await view(local, '/v2/sequences', token)).toEqual(await view(hub, '/v2/sequences', hub.agentToken));
      expect(await view(local, '/v2/email_templates', token)).toEqual(await view(hub, '/v2/email_templates', hub.agentToken));
      expect((await view(local, '/v2/sequences', token)).find((s: any) => s.name === 'Outreach').steps).toHaveLength(3);

      const id = (await admin('POST', '/v2/sequences', { name: 'Later', unsubscribe_settings: { enabled: true, locale: 'de' }, steps: [email(0, 'hours'), task(1, 'weekdays', 'Ring')] })).body.data.id;
      await replica.sync();
      expect((await call(local, 'GET', `/v2/sequences/${id}`, { token })).body.data).toEqual((await get(`/v2/sequences/${id}`)).body.data);
      await admin('PUT', `/v2/sequences/${id}`, { steps: [task(5, 'hours', 'Only step')], unsubscribe_settings: { enabled: false } });
      await replica.sync();
      expect((await call(local, 'GET', `/v2/sequences/${id}`, { token })).body.data).toEqual((await get(`/v2/sequences/${id}`)).body.data);
      await admin('DELETE', `/v2/sequences/${id}`);
      await replica.sync();
      expect(codes(await call(local, 'GET', `/v2/sequences/${id}`, { token }))).toEqual(['not_found']);
      expect(engine.db.prepare('SELECT COUNT(*) FROM sequence_steps WHERE sequence_id = ?').pluck().get(id)).toBe(0);
    } finally {
      await device.close();
    }
  });
});
