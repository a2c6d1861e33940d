import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, codes, fields, startTestHub, type TestHub } from '../support/testHub.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtpServer.js';
import { ENROLLMENT_SYNC } from '../../electron/engine/resources/enrollments.js';

let hub: TestHub;
let smtp: TestSmtpServer;
let templateId: number;
let sequenceId: number;

const admin = (method: string, path: string, data?: unknown) => call(hub, method, path, { token: hub.adminToken, data });
const agent = (method: string, path: string, data?: unknown) => call(hub, method, path, { token: hub.agentToken, data });
const run = () => hub.engine.scheduler!.tick();
const enrollment = async (id: number) => (await agent('GET', `/v2/sequence_enrollments/${id}`)).body.data;
const actions = async (id: number) => (await enrollment(id)).enrollment_steps.items.map((s: any) => s.data.action.data);
const sentTo = (address: string) => smtp.messages.filter((m) => m.to.includes(address));
const statuses = async (id: number) => (await actions(id)).map((a: any) => a.status);

const email = (delay: number, unit: string, isReply = false, template = () => templateId) =>
  ({ delay_from_previous_step: delay, delay_from_previous_step_unit: unit, action_type: 'automated_email', action_properties: { email_template_id: template(), is_reply: isReply } });
const task = (delay: number, unit: string, content: string) =>
  ({ delay_from_previous_step: delay, delay_from_previous_step_unit: unit, action_type: 'task', action_properties: { task_content: content } });

let names = 0;
async function sequence(steps: unknown[]): Promise<number> {
  const answer = await admin('POST', '/v2/sequences', { name: `Sequence ${++names}`, steps });
  expect(answer.status).toBe(200);
  return answer.body.data.id;
}
async function contact(data: Record<string, unknown> = {}): Promise<number> {
  names++;
  return (await agent('POST', '/v2/contacts', { first_name: 'Pat', last_name: `Prospect ${names}`, email: `pat${names}@example.com`, ...data })).body.data.id;
}
async function enroll(resourceId: number, seq = sequenceId, resourceType = 'contact'): Promise<number> {
  const answer = await agent('POST', '/v2/sequence_enrollments', { sequence_id: seq, resource_type: resourceType, resource_id: resourceId });
  expect(answer.status).toBe(200);
  return answer.body.data.id;
}

beforeAll(async () => {
  hub = await startTestHub();
  smtp = await startSmtpServer();
  expect((await admin('PUT', '/v2/accounts/self', { smtp_url: smtp.url })).status).toBe(200);
  templateId = (await admin('POST', '/v2/email_templates', { name: 'Intro', subject: 'Hi {{contact.first_name}}', body: 'Hello {{contact.first_name}}, {{user.name}} here.' })).body.data.id;
  sequenceId = await sequence([email(0, 'hours'), task(2, 'hours', 'Call them'), email(1, 'weekdays', true)]);
});
afterAll(async () => {
  await hub.close();
  await smtp.close();
});
beforeEach(() => {
  smtp.mode = 'accept';
  smtp.messages.length = 0;
});

describe('starting an enrollment', () => {
  it('copies the steps, schedules each from the previous one and answers the spec shape', async () => {
    hub.clock.set('2026-03-02T10:00:00Z');
    const id = await enroll(await contact());
    const answer = await agent('GET', `/v2/sequence_enrollments/${id}`);
    expect(answer.body.meta.type).toBe('sequence_enrollment');
    const data = answer.body.data;
    expect(data).toMatchObject({
      actor_id: hub.agentId, resource_type: 'contact', state: 'active', current_step_position: 0,
      finished_at: null, finished_reason: null, finished_actor_id: null,
      sequence: { meta: { type: 'sequence' }, data: { id: sequenceId, steps_total: 3, creator_id: hub.adminId, unsubscribe_settings: { enabled: false, locale: 'en' } } },
      enrollment_steps: { meta: { type: 'collection', count: 3 } },
    });
    expect(data.sequence.data.steps).toBeUndefined();
    const [first, second] = data.enrollment_steps.items;
    expect(first.meta.type).toBe('enrollment_step');
    expect(first.data).toEqual({
      position: 0, delay_from_previous_step: 0, delay_from_previous_step_unit: 'hours', overdue: false, action_type: 'automated_email',
      action_properties: { email_template_id: templateId, is_reply: false },
      action: { meta: { type: 'action' }, data: { status: 'scheduled', executed_at: null, estimated_execute_at: '2026-03-02T10:00:00Z', failure_reason: null } },
    });
    expect(second.data.action.data).toEqual({
      status: 'scheduled', executed_at: null, estimated_execute_at: '2026-03-02T12:00:00Z', failure_reason: null, task_content: 'Call them', task_id: null,
    });
    expect((await actions(id))[2].estimated_execute_at).toBe('2026-03-03T12:00:00Z');
  });

  it('checks every field, the resource, the actor and a running enrollment of the same resource', async () => {
    const missing = await agent('POST', '/v2/sequence_enrollments', {});
    expect(fields(missing)).toEqual(['/sequence_id', '/resource_type', '/resource_id']);
    expect(codes(missing)).toEqual(['missing', 'missing', 'missing']);
    const bad = await agent('POST', '/v2/sequence_enrollments', { sequence_id: 999999, resource_type: 'deal', resource_id: 1, actor_id: 999999, colour: 'red' });
    expect(fields(bad).sort()).toEqual(['/actor_id', '/colour', '/resource_type', '/sequence_id']);
    const person = await contact();
    expect(fields(await agent('POST', '/v2/sequence_enrollments', { sequence_id: sequenceId, resource_type: 'lead', resource_id: person }))).toEqual(['/resource_id']);
    const empty = (await admin('POST', '/v2/sequences', { name: 'No steps' })).body.data.id;
    expect(fields(await agent('POST', '/v2/sequence_enrollments', { sequence_id: empty, resource_type: 'contact', resource_id: person }))).toEqual(['/sequence_id']);
    await enroll(person);
    const twice = await agent('POST', '/v2/sequence_enrollments', { sequence_id: sequenceId, resource_type: 'contact', resource_id: person });
    expect(twice.status).toBe(422);
    expect(codes(twice)).toEqual(['already_exists']);
  });

  it('enrolls leads too, on behalf of another active user', async () => {
    const lead = (await agent('POST', '/v2/leads', { first_name: 'Lee', last_name: 'Lead', email: 'lee@example.com' })).body.data.id;
    const answer = await agent('POST', '/v2/sequence_enrollments', { sequence_id: sequenceId, resource_type: 'lead', resource_id: lead, actor_id: hub.adminId });
    expect(answer.body.data).toMatchObject({ resource_type: 'lead', resource_id: lead, actor_id: hub.adminId });
  });

  it('needs the outbound_sequences add-on (403 naming it)', async () => {
    await admin('PUT', '/v2/accounts/self', { addons: [] });
    const refused = await agent('POST', '/v2/sequence_enrollments', { sequence_id: sequenceId, resource_type: 'contact', resource_id: await contact() });
    await admin('PUT', '/v2/accounts/self', { addons: ['outbound_sequences'] });
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].error.message).toContain('outbound_sequences');
  });
});

describe('a whole sequence through the clock', () => {
  it('sends the email over SMTP, creates the task, waits for it, sends the reply email a weekday later and finishes', async () => {
    hub.clock.set('2026-03-05T09:00:00Z'); // Thursday
    const person = await contact({ first_name: 'Robin', email: 'robin@example.com' });
    const id = await enroll(person);
    await run();
    expect(sentTo('robin@example.com')).toHaveLength(1);
    const [first] = sentTo('robin@example.com');
    expect(first).toMatchObject({ from: 'agent@example.com', to: ['robin@example.com'], subject: 'Hi Robin' });
    expect(first.raw).toContain('Hello Robin, Sam Agent here.');
    expect((await actions(id))[0]).toMatchObject({ status: 'completed', executed_at: '2026-03-05T09:00:00Z' });
    expect((await enrollment(id)).current_step_position).toBe(1);

    hub.clock.set('2026-03-05T11:00:00Z');
    await run();
    expect(await statuses(id)).toEqual(['completed', 'in_progress', 'scheduled']);
    const taskId = (await actions(id))[1].task_id;
    const created = (await agent('GET', `/v2/tasks/${taskId}`)).body.data;
    expect(created).toMatchObject({ content: 'Call them', owner_id: hub.agentId, resource_type: 'contact', resource_id: person, completed: false });

    // The next step waits for the task, however long it takes.
    hub.clock.set('2026-03-06T15:00:00Z'); // Friday
    await run();
    expect(await statuses(id)).toEqual(['completed', 'in_progress', 'scheduled']);
    await agent('PUT', `/v2/tasks/${taskId}`, { completed: true });
    await run();
    expect(await statuses(id)).toEqual(['completed', 'completed', 'scheduled']);
    // One weekday after Friday 15:00 is Monday 15:00: the weekend does not count.
    expect((await actions(id))[2].estimated_execute_at).toBe('2026-03-09T15:00:00Z');
    hub.clock.set('2026-03-09T14:59:00Z');
    await run();
    expect(sentTo('robin@example.com')).toHaveLength(1);
    hub.clock.set('2026-03-09T15:00:00Z');
    await run();
    expect(sentTo('robin@example.com')).toHaveLength(2);
    expect(sentTo('robin@example.com')[1].subject).toBe('Re: Hi Robin');
    expect(sentTo('robin@example.com')[1].inReplyTo).toBe(first.messageId);
    expect(await enrollment(id)).toMatchObject({
      state: 'finished', finished_reason: 'all_steps_completed', finished_at: '2026-03-09T15:00:00Z', finished_actor_id: null, current_step_position: 2,
    });
  });

  it('counts hours across a weekend as plain hours', async () => {
    hub.clock.set('2026-03-06T20:00:00Z'); // Friday evening
    const seq = await sequence([email(0, 'hours'), email(30, 'hours')]);
    const id = await enroll(await contact(), seq);
    expect((await actions(id))[1].estimated_execute_at).toBe('2026-03-08T02:00:00Z');
    await run();
    hub.clock.set('2026-03-08T02:00:00Z');
    await run();
    expect(smtp.messages).toHaveLength(2);
    expect((await enrollment(id)).finished_reason).toBe('all_steps_completed');
  });

  it('shows a step overdue when its time passed and it has not run', async () => {
    hub.clock.set('2026-03-10T09:00:00Z');
    const seq = await sequence([email(1, 'hours')]);
    const id = await enroll(await contact(), seq);
    hub.clock.set('2026-03-10T11:00:00Z');
    expect((await enrollment(id)).enrollment_steps.items[0].data.overdue).toBe(true);
    await run();
    expect((await enrollment(id)).enrollment_steps.items[0].data.overdue).toBe(false);
  });
});

describe('failures block the step and the enrollment', () => {
  async function blockedBy(setup: () => Promise<number>): Promise<{ id: number; reason: string }> {
    hub.clock.set('2026-03-11T09:00:00Z');
    const id = await setup();
    await run();
    const data = await enrollment(id);
    expect(data.state).toBe('blocked');
    expect(data.enrollment_steps.items[0].data.action.data.status).toBe('blocked');
    return { id, reason: data.enrollment_steps.items[0].data.action.data.failure_reason };
  }

  it('recipient_invalid without a valid email address', async () => {
    expect((await blockedBy(async () => enroll(await contact({ email: null })))).reason).toBe('recipient_invalid');
    expect((await blockedBy(async () => enroll(await contact({ email: 'not an address' })))).reason).toBe('recipient_invalid');
    expect(smtp.messages).toHaveLength(0);
  });

  it('missing_merge_tags when a tag is unknown or empty', async () => {
    const unknown = (await admin('POST', '/v2/email_templates', { name: 'Broken', subject: 'Hi {{contact.nickname}}', body: 'x' })).body.data.id;
    const seq = await sequence([email(0, 'hours', false, () => unknown)]);
    expect((await blockedBy(async () => enroll(await contact(), seq))).reason).toBe('missing_merge_tags');
    expect((await blockedBy(async () => enroll(await contact({ first_name: null })))).reason).toBe('missing_merge_tags');
  });

  it('sendout_disabled without SMTP settings', async () => {
    await admin('PUT', '/v2/accounts/self', { smtp_url: null });
    const { reason } = await blockedBy(async () => enroll(await contact()));
    await admin('PUT', '/v2/accounts/self', { smtp_url: smtp.url });
    expect(reason).toBe('sendout_disabled');
  });

  it('auth when the SMTP server refuses the login (535)', async () => {
    smtp.mode = 'reject_auth';
    expect((await blockedBy(async () => enroll(await contact()))).reason).toBe('auth');
  });

  it('sendout_limited when the SMTP server answers 452', async () => {
    smtp.mode = 'rate_limit';
    expect((await blockedBy(async () => enroll(await contact()))).reason).toBe('sendout_limited');
  });

  it('quota_exceeded once the daily quota is used up, and sends again the next day when resumed', async () => {
    await admin('PUT', '/v2/accounts/self', { email_daily_quota: 1 });
    hub.clock.set('2026-03-12T09:00:00Z');
    const sent = await enroll(await contact(), await sequence([email(0, 'hours')]));
    const held = await enroll(await contact());
    await run();
    expect(smtp.messages).toHaveLength(1);
    expect((await enrollment(sent)).state).toBe('finished');
    expect((await actions(held))[0]).toMatchObject({ status: 'blocked', failure_reason: 'quota_exceeded' });
    hub.clock.set('2026-03-13T09:00:00Z');
    expect((await agent('PUT', `/v2/sequence_enrollments/${held}`, { state: 'active' })).body.data.state).toBe('active');
    await run();
    await admin('PUT', '/v2/accounts/self', { email_daily_quota: 500 });
    expect(smtp.messages).toHaveLength(2);
    expect((await actions(held))[0]).toMatchObject({ status: 'completed', failure_reason: null });
  });

  it('resuming retries the blocked step at once and the rest follows', async () => {
    smtp.mode = 'reject_auth';
    const { id } = await blockedBy(async () => enroll(await contact()));
    smtp.mode = 'accept';
    hub.clock.set('2026-03-11T10:30:00Z');
    const resumed = await agent('PUT', `/v2/sequence_enrollments/${id}`, { state: 'active' });
    expect(resumed.body.data.state).toBe('active');
    expect(resumed.body.data.enrollment_steps.items[0].data.action.data).toMatchObject({ status: 'scheduled', failure_reason: null, estimated_execute_at: '2026-03-11T10:30:00Z' });
    expect(resumed.body.data.enrollment_steps.items[1].data.action.data.estimated_execute_at).toBe('2026-03-11T12:30:00Z');
    await run();
    expect(smtp.messages).toHaveLength(1);
    expect(await statuses(id)).toEqual(['completed', 'scheduled', 'scheduled']);
  });
});

describe('state changes and finishing', () => {
  it('finishes manually: finished_actor_id is the caller, pending actions cancelled', async () => {
    hub.clock.set('2026-03-16T09:00:00Z');
    const id = await enroll(await contact());
    await run();
    const finished = await agent('PUT', `/v2/sequence_enrollments/${id}`, { state: 'finished' });
    expect(finished.status).toBe(200);
    expect(finished.body.data).toMatchObject({ state: 'finished', finished_reason: 'manual', finished_actor_id: hub.agentId, finished_at: '2026-03-16T09:00:00Z' });
    expect(await statuses(id)).toEqual(['completed', 'cancelled', 'cancelled']);
    hub.clock.set('2026-03-20T09:00:00Z');
    await run();
    expect(smtp.messages).toHaveLength(1);
  });

  it('refuses other fields and other transitions with a clear 422', async () => {
    hub.clock.set('2026-03-16T09:00:00Z');
    const id = await enroll(await contact());
    const other = await agent('PUT', `/v2/sequence_enrollments/${id}`, { state: 'finished', actor_id: hub.adminId });
    expect(other.status).toBe(422);
    expect(fields(other)).toEqual(['/actor_id']);
    expect(other.body.errors[0].error.message).toContain('Only the state');
    const resumeActive = await agent('PUT', `/v2/sequence_enrollments/${id}`, { state: 'active' });
    expect(resumeActive.status).toBe(422);
    expect(resumeActive.body.errors[0].error.message).toContain('active cannot become active');
    expect(codes(await agent('PUT', `/v2/sequence_enrollments/${id}`, { state: 'paused' }))).toEqual(['incorrect_value']);
    expect(codes(await agent('PUT', `/v2/sequence_enrollments/${id}`, {}))).toEqual(['missing']);
    await agent('PUT', `/v2/sequence_enrollments/${id}`, { state: 'finished' });
    expect((await agent('PUT', `/v2/sequence_enrollments/${id}`, { state: 'active' })).status).toBe(422);
    expect((await agent('PUT', `/v2/sequence_enrollments/999999`, { state: 'finished' })).status).toBe(404);
    expect((await agent('DELETE', `/v2/sequence_enrollments/${id}`)).status).toBe(404);
  });

  it('replied_to_email through the inbound-reply endpoint cancels the emails still to send', async () => {
    hub.clock.set('2026-03-17T09:00:00Z');
    const id = await enroll(await contact());
    await run();
    const replied = await agent('POST', `/v2/sequence_enrollments/${id}/replies`);
    expect(replied.body.data).toMatchObject({ state: 'finished', finished_reason: 'replied_to_email', finished_actor_id: null });
    expect(await statuses(id)).toEqual(['completed', 'cancelled', 'cancelled']);
    expect((await agent('POST', `/v2/sequence_enrollments/${id}/replies`)).status).toBe(422);
  });

  it('resource_deleted when the contact or lead is deleted', async () => {
    const person = await contact();
    const id = await enroll(person);
    expect((await agent('DELETE', `/v2/contacts/${person}`)).status).toBe(204);
    expect(await enrollment(id)).toMatchObject({ state: 'finished', finished_reason: 'resource_deleted' });
    const lead = (await agent('POST', '/v2/leads', { last_name: 'Gone', email: 'gone@example.com' })).body.data.id;
    const leadEnrollment = await enroll(lead, sequenceId, 'lead');
    await agent('DELETE', `/v2/leads/${lead}`);
    expect((await enrollment(leadEnrollment)).finished_reason).toBe('resource_deleted');
  });

  it('task_deleted when the sequence task is deleted', async () => {
    hub.clock.set('2026-03-18T09:00:00Z');
    const id = await enroll(await contact(), await sequence([task(0, 'hours', 'Visit'), email(1, 'hours')]));
    await run();
    const taskId = (await actions(id))[0].task_id;
    expect(taskId).toEqual(expect.any(Number));
    await agent('DELETE', `/v2/tasks/${taskId}`);
    await run();
    expect(await enrollment(id)).toMatchObject({ state: 'finished', finished_reason: 'task_deleted', current_step_position: 0 });
    expect(await statuses(id)).toEqual(['cancelled', 'cancelled']);
  });

  it('subscription_cancelled when the add-on is removed', async () => {
    const id = await enroll(await contact());
    await admin('PUT', '/v2/accounts/self', { addons: [] });
    await run();
    await admin('PUT', '/v2/accounts/self', { addons: ['outbound_sequences'] });
    expect(await enrollment(id)).toMatchObject({ state: 'finished', finished_reason: 'subscription_cancelled' });
  });
});

describe('listing and sync', () => {
  it('filters by ids, resource_ids with resource_type, and refuses unknown parameters', async () => {
    const person = await contact();
    const lead = (await agent('POST', '/v2/leads', { last_name: 'Listed', email: 'listed@example.com' })).body.data.id;
    const a = await enroll(person);
    const b = await enroll(lead, sequenceId, 'lead');
    const ids = async (query: string) => (await agent('GET', `/v2/sequence_enrollments?${query}`)).body.items.map((i: any) => i.data.id);
    expect(await ids(`ids=${a},${b}`)).toEqual([a, b]);
    expect(await ids(`resource_ids=${person},${lead}&resource_type=lead`)).toEqual([b]);
    expect(await ids(`resource_ids=${person}&resource_type=contact`)).toEqual([a]);
    expect((await agent('GET', '/v2/sequence_enrollments?colour=red')).status).toBe(400);
    expect((await agent('GET', '/v2/sequence_enrollments?resource_type=deal')).status).toBe(400);
  });

  it('logs every change, and the sync JSON equals GET', async () => {
    hub.clock.set('2026-03-19T09:00:00Z');
    const id = await enroll(await contact());
    const before = hub.engine.db.prepare("SELECT COUNT(*) FROM change_log WHERE resource_type = 'sequence_enrollment' AND resource_id = ?").pluck().get(id) as number;
    await run();
    const after = hub.engine.db.prepare("SELECT COUNT(*) FROM change_log WHERE resource_type = 'sequence_enrollment' AND resource_id = ?").pluck().get(id) as number;
    expect(after).toBeGreaterThan(before);
    const synced = hub.engine.db.prepare(`SELECT ${ENROLLMENT_SYNC.json} FROM ${ENROLLMENT_SYNC.from} WHERE ${ENROLLMENT_SYNC.idColumn} = ?`).pluck().get(id) as string;
    expect(JSON.parse(synced)).toEqual(await enrollment(id));
  });
});

describe('mail settings', () => {
  it('are set by admins and never served: everyone only sees whether SMTP is configured', async () => {
    const forAdmin = await admin('GET', '/v2/accounts/self');
    expect(forAdmin.body.data).toMatchObject({ smtp_configured: true, email_daily_quota: 500 });
    expect(forAdmin.body.data.smtp_url).toBeUndefined();
    expect(forAdmin.text).not.toContain('mail-secret');
    expect((await agent('GET', '/v2/accounts/self')).text).not.toContain('mail-secret');
    // What GET returned can be sent back, and keeps the stored URL.
    expect((await admin('PUT', '/v2/accounts/self', forAdmin.body.data)).status).toBe(200);
    expect(hub.engine.db.prepare('SELECT smtp_url FROM account').pluck().get()).toBe(smtp.url);
    expect(fields(await admin('PUT', '/v2/accounts/self', { smtp_url: 'http://example.com', email_daily_quota: -1 }))).toEqual(['/smtp_url', '/email_daily_quota']);
    expect((await agent('PUT', '/v2/accounts/self', { smtp_url: null })).status).toBe(403);
  });
});
