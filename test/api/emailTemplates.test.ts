import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, fields, startTestHub, type TestHub } from '../support/testHub.js';
import { EMAIL_TEMPLATE_SYNC, type MergeContext } from '../../electron/engine/resources/emailTemplates.js';

let hub: TestHub;
const get = (path: string, token = hub.agentToken) => call(hub, 'GET', path, { token });
const admin = (method: string, path: string, data?: unknown) => call(hub, method, path, { token: hub.adminToken, data });
const agent = (method: string, path: string, data?: unknown) => call(hub, method, path, { token: hub.agentToken, data });
const names = (answer: { body: any }) => answer.body.items.map((i: any) => i.data.name);

beforeAll(async () => {
  hub = await startTestHub();
});
afterAll(() => hub.close());

const template = (name: string, extra: Record<string, unknown> = {}) =>
  ({ name, subject: 'Hello {{contact.first_name}}', body: 'Hi {{ contact.first_name }},\n\n{{user.name}}', ...extra });

describe('email templates over REST', () => {
  it('are created by admins (200, with creator and times) and read by everyone', async () => {
    const created = await admin('POST', '/v2/email_templates', template('  Intro  '));
    expect(created.status).toBe(200);
    expect(created.body.meta.type).toBe('email_template');
    expect(created.body.data).toEqual({
      id: expect.any(Number), name: 'Intro', subject: 'Hello {{contact.first_name}}', body: 'Hi {{ contact.first_name }},\n\n{{user.name}}',
      creator_id: hub.adminId, created_at: '2026-03-02T10:00:00Z', updated_at: '2026-03-02T10:00:00Z',
    });
    const one = await get(`/v2/email_templates/${created.body.data.id}`);
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(created.body.data);
    expect(names(await get('/v2/email_templates'))).toContain('Intro');
  });

  it('refuse every write from an agent with 403', async () => {
    const id = (await admin('POST', '/v2/email_templates', template('Agent target'))).body.data.id;
    expect(codes(await agent('POST', '/v2/email_templates', template('By agent')))).toEqual(['forbidden']);
    expect(codes(await agent('PUT', `/v2/email_templates/${id}`, { name: 'Renamed' }))).toEqual(['forbidden']);
    expect(codes(await agent('DELETE', `/v2/email_templates/${id}`))).toEqual(['forbidden']);
    expect((await get(`/v2/email_templates/${id}`)).body.data.name).toBe('Agent target');
  });

  it('list every problem of a create in one 422: missing, blank, unknown, wrong type', async () => {
    const missing = await admin('POST', '/v2/email_templates', {});
    expect(missing.status).toBe(422);
    expect(codes(missing)).toEqual(['missing', 'missing', 'missing']);
    expect(fields(missing)).toEqual(['/name', '/subject', '/body']);
    const bad = await admin('POST', '/v2/email_templates', { name: ' ', subject: 5, body: '', colour: 'red' });
    expect(bad.status).toBe(422);
    expect(Object.fromEntries(bad.body.errors.map((e: any) => [e.error.field, e.error.code]))).toEqual({
      '/name': 'blank', '/subject': 'invalid_type', '/body': 'blank', '/colour': 'unknown',
    });
  });

  it('keep names unique (already_exists), also on rename', async () => {
    await admin('POST', '/v2/email_templates', template('Unique one'));
    const other = (await admin('POST', '/v2/email_templates', template('Unique two'))).body.data.id;
    expect(codes(await admin('POST', '/v2/email_templates', template('Unique one')))).toEqual(['already_exists']);
    expect(codes(await admin('PUT', `/v2/email_templates/${other}`, { name: 'Unique one' }))).toEqual(['already_exists']);
    // Renaming to its own name is no clash.
    expect((await admin('PUT', `/v2/email_templates/${other}`, { name: 'Unique two' })).status).toBe(200);
  });

  it('update what is given, accept the GET body back, and log the time', async () => {
    const created = (await admin('POST', '/v2/email_templates', template('Editable'))).body.data;
    hub.clock.advance(60_000);
    const updated = await admin('PUT', `/v2/email_templates/${created.id}`, { ...created, subject: 'New subject' });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ name: 'Editable', subject: 'New subject', body: created.body, created_at: created.created_at });
    expect(updated.body.data.updated_at > created.updated_at).toBe(true);
    expect(codes(await admin('PUT', '/v2/email_templates/99999', { name: 'x' }))).toEqual(['not_found']);
  });

  it('filter by name and creator, sort by name; unknown parameters are 400', async () => {
    expect(names(await get('/v2/email_templates?name=Intro'))).toEqual(['Intro']);
    expect(names(await get(`/v2/email_templates?creator_id=${hub.agentId}`))).toEqual([]);
    const sorted = names(await get('/v2/email_templates?sort_by=name:desc&per_page=100'));
    expect(sorted).toEqual([...sorted].sort().reverse());
    expect(codes(await get('/v2/email_templates?subject=x'))).toEqual(['invalid_param']);
    expect(codes(await get('/v2/email_templates?sort_by=body'))).toEqual(['invalid_param']);
  });

  it('are deleted (204, then 404), unless a sequence step sends them (422)', async () => {
    const free = (await admin('POST', '/v2/email_templates', template('Disposable'))).body.data.id;
    expect((await admin('DELETE', `/v2/email_templates/${free}`)).status).toBe(204);
    expect(codes(await get(`/v2/email_templates/${free}`))).toEqual(['not_found']);
    expect(codes(await admin('DELETE', `/v2/email_templates/${free}`))).toEqual(['not_found']);

    const used = (await admin('POST', '/v2/email_templates', template('In use'))).body.data.id;
    const sequence = (await admin('POST', '/v2/sequences', {
      name: 'Uses a template',
      steps: [{ delay_from_previous_step: 0, delay_from_previous_step_unit: 'hours', action_type: 'automated_email', action_properties: { email_template_id: used, is_reply: false } }],
    })).body.data;
    const refused = await admin('DELETE', `/v2/email_templates/${used}`);
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].error.message).toContain('Uses a template');
    // Once no step sends it, it can go.
    await admin('PUT', `/v2/sequences/${sequence.id}`, { steps: [] });
    expect((await admin('DELETE', `/v2/email_templates/${used}`)).status).toBe(204);
  });

  it('are not deleted while an enrollment step still to run sends them; completed ones do not hold them', async () => {
    const id = (await admin('POST', '/v2/email_templates', template('Enrolled template'))).body.data.id;
    const { db } = hub.engine;
    db.prepare(`INSERT INTO sequence_enrollments (id, sequence_id, actor_id, resource_type, resource_id, state, sequence_json, created_at, updated_at)
      VALUES (800001, 1, ?, 'lead', 1, 'active', '{}', '2026-03-02T10:00:00Z', '2026-03-02T10:00:00Z')`).run(hub.adminId);
    db.prepare(`INSERT INTO enrollment_steps (id, enrollment_id, position, delay_from_previous_step, delay_from_previous_step_unit, action_type, action_properties, status)
      VALUES (800001, 800001, 0, 0, 'hours', 'automated_email', ?, 'scheduled')`).run(JSON.stringify({ email_template_id: id, is_reply: false }));
    const refused = await admin('DELETE', `/v2/email_templates/${id}`);
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].error.message).toContain('enrollments');
    db.prepare("UPDATE enrollment_steps SET status = 'completed' WHERE id = 800001").run();
    expect((await admin('DELETE', `/v2/email_templates/${id}`)).status).toBe(204);
    db.prepare('DELETE FROM sequence_enrollments WHERE id = 800001').run();
  });

  it('are logged in the change log for devices, with the JSON GET serves', async () => {
    const id = (await admin('POST', '/v2/email_templates', template('Synced'))).body.data.id;
    const logged = hub.engine.db.prepare("SELECT event_type FROM change_log WHERE resource_type = 'email_template' AND resource_id = ?").pluck().all(id);
    expect(logged).toEqual(['created']);
    const source = EMAIL_TEMPLATE_SYNC;
    const served = hub.engine.db.prepare(`SELECT ${source.json} FROM ${source.from} WHERE ${source.idColumn} = ?`).pluck().get(id) as string;
    expect(JSON.parse(served)).toEqual((await get(`/v2/email_templates/${id}`)).body.data);
  });
});

describe('rendering a template with merge tags', () => {
  let id: number;
  const contact = { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com', title: '', address: { city: 'Arlington', line1: null }, customer_status: null, id: 7, is_organization: false };
  const lead = { first_name: 'Alan', last_name: 'Turing', organization_name: 'Bletchley' };
  const user = { name: 'Ada Admin', email: 'admin@example.com', phone_number: null };
  const render = (subject: string, body: string, context: MergeContext) => {
    hub.engine.db.prepare('UPDATE email_templates SET subject = ?, body = ? WHERE id = ?').run(subject, body, id);
    return hub.engine.emailTemplates.render(id, context);
  };

  beforeAll(async () => {
    id = (await admin('POST', '/v2/email_templates', template('Render target'))).body.data.id;
  });

  it('fills contact, lead and user fields in subject and body, with spaces inside braces tolerated', () => {
    expect(render('Hello {{contact.first_name}}', 'Dear {{ contact.first_name }} {{contact.last_name  }},\n— {{  user.name}} <{{user.email}}>', { contact, user })).toEqual({
      ok: true, subject: 'Hello Grace', body: 'Dear Grace Hopper,\n— Ada Admin <admin@example.com>',
    });
    expect(render('{{lead.organization_name}}', 'Hi {{lead.first_name}} {{lead.last_name}}', { lead, user })).toEqual({
      ok: true, subject: 'Bletchley', body: 'Hi Alan Turing',
    });
  });

  it('fills nested fields, numbers and booleans; leaves text without tags alone', () => {
    expect(render('In {{contact.address.city}}', 'id {{contact.id}} org {{contact.is_organization}} {single} { {x} }', { contact, user })).toEqual({
      ok: true, subject: 'In Arlington', body: 'id 7 org false {single} { {x} }',
    });
  });

  it('fails with missing_merge_tags listing each unknown or empty tag once, in order', () => {
    const result = render(
      'Hi {{contact.nickname}} {{ contact.title }}',
      '{{contact.customer_status}} {{user.phone_number}} {{contact.nickname}} {{contact.address.line1}} {{contact.address.zip}} {{contact.first_name}}',
      { contact, user },
    );
    expect(result).toEqual({
      ok: false, reason: 'missing_merge_tags',
      tags: ['contact.nickname', 'contact.title', 'contact.customer_status', 'user.phone_number', 'contact.address.line1', 'contact.address.zip'],
    });
  });

  it('fails for unknown objects, objects not in the context, bare names, whole objects and inherited properties', () => {
    const context = { contact, user };
    expect(render('{{deal.name}}', '', context)).toEqual({ ok: false, reason: 'missing_merge_tags', tags: ['deal.name'] });
    expect(render('{{lead.first_name}}', '', context)).toEqual({ ok: false, reason: 'missing_merge_tags', tags: ['lead.first_name'] });
    expect(render('{{first_name}} {{}}', '', context)).toEqual({ ok: false, reason: 'missing_merge_tags', tags: ['first_name', ''] });
    expect(render('{{contact.address}} {{contact}}', '', context)).toEqual({ ok: false, reason: 'missing_merge_tags', tags: ['contact.address', 'contact'] });
    expect(render('{{contact.constructor}} {{user.toString}} {{contact.first_name.length}}', '', context)).toEqual({
      ok: false, reason: 'missing_merge_tags', tags: ['contact.constructor', 'user.toString', 'contact.first_name.length'],
    });
  });

  it('uses the template as stored now, and names an unknown template as not found', () => {
    expect(render('plain', 'text', { user })).toEqual({ ok: true, subject: 'plain', body: 'text' });
    expect(() => hub.engine.emailTemplates.render(987654, { user })).toThrow(/not found/);
  });
});
