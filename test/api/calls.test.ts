import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, fields, startTestHub, type TestHub } from '../support/testHub.js';

let hub: TestHub;
let contactId: number;
const post = (data: unknown, token = hub.agentToken) => call(hub, 'POST', '/v2/calls', { token, data });
const get = (path: string) => call(hub, 'GET', path, { token: hub.agentToken });
const ids = (answer: { body: any }) => answer.body.items.map((i: any) => i.data.id);

beforeAll(async () => {
  hub = await startTestHub();
  contactId = (await call(hub, 'POST', '/v2/contacts', { token: hub.agentToken, data: { last_name: 'Caller' } })).body.data.id;
});
afterAll(() => hub.close());

describe('call outcomes', () => {
  it('come with a default set, sorted by id, readable with per_page=1', async () => {
    const all = await get('/v2/call_outcomes');
    expect(all.body.items.length).toBeGreaterThanOrEqual(5);
    const list = all.body.items.map((i: any) => i.data.id);
    expect(list).toEqual([...list].sort((a: number, b: number) => a - b));
    expect((await get('/v2/call_outcomes?per_page=1')).body.items).toHaveLength(1);
    expect(all.body.items[0].meta.type).toBe('call_outcome');
  });

  it('are managed by admins only', async () => {
    expect(codes(await call(hub, 'POST', '/v2/call_outcomes', { token: hub.agentToken, data: { name: 'Booked demo' } }))).toEqual(['forbidden']);
    const created = await call(hub, 'POST', '/v2/call_outcomes', { token: hub.adminToken, data: { name: 'Booked demo' } });
    expect(created.body.data).toMatchObject({ name: 'Booked demo', creator_id: hub.adminId });
    // Names may repeat: the spec demands unique names only of lead sources and tags.
    expect((await call(hub, 'POST', '/v2/call_outcomes', { token: hub.adminToken, data: { name: 'Booked demo' } })).status).toBe(200);
    const logged = (await post({ phone_number: '+1 555 0100', outcome_id: created.body.data.id })).body.data;
    expect((await call(hub, 'DELETE', `/v2/call_outcomes/${created.body.data.id}`, { token: hub.adminToken })).status).toBe(204);
    expect((await get(`/v2/calls/${logged.id}`)).body.data.outcome_id).toBeNull();
  });
});

describe('calls', () => {
  it('logs a call with defaults: the caller as user, made now', async () => {
    const answer = await post({ phone_number: '+1 555 0101', summary: 'Discussed renewal', duration: 125 });
    expect(answer.status).toBe(200);
    expect(answer.body.meta.type).toBe('call');
    expect(answer.body.data).toMatchObject({
      user_id: hub.agentId, phone_number: '+1 555 0101', duration: 125, incoming: false, missed: false,
      made_at: '2026-03-02T10:00:00Z', resource_type: null, resource_id: null, associated_deal_ids: [], external_id: null,
    });
  });

  it('checks the phone number, the outcome, the user, the resource pair and deals', async () => {
    expect(codes(await post({}))).toEqual(['missing']);
    expect(codes(await post({ phone_number: '' }))).toEqual(['blank']);
    expect(fields(await post({ phone_number: '1', outcome_id: 999 }))).toEqual(['/outcome_id']);
    expect(fields(await post({ phone_number: '1', user_id: 999 }))).toEqual(['/user_id']);
    expect(fields(await post({ phone_number: '1', resource_type: 'contact' }))).toEqual(['/resource_id']);
    expect(fields(await post({ phone_number: '1', resource_id: contactId }))).toEqual(['/resource_type']);
    expect(codes(await post({ phone_number: '1', resource_type: 'deal', resource_id: 1 }))).toEqual(['incorrect_value']);
    expect(fields(await post({ phone_number: '1', associated_deal_ids: [1] }))).toEqual(['/associated_deal_ids']);
    expect(codes(await post({ phone_number: '1', duration: -5 }))).toEqual(['incorrect_value']);
    expect(codes(await post({ phone_number: '1', duration: 'long' }))).toEqual(['invalid_type']);
  });

  it('updates, re-attaches and deletes calls', async () => {
    const logged = (await post({ phone_number: '+1 555 0102', made_at: '2026-03-01T08:00:00+0100' })).body.data;
    expect(logged.made_at).toBe('2026-03-01T07:00:00Z');
    const updated = await call(hub, 'PUT', `/v2/calls/${logged.id}`, { token: hub.agentToken, data: { resource_type: 'contact', resource_id: contactId, missed: true, external_id: 'pbx-42' } });
    expect(updated.body.data).toMatchObject({ resource_type: 'contact', resource_id: contactId, missed: true, external_id: 'pbx-42' });
    expect((await call(hub, 'DELETE', `/v2/calls/${logged.id}`, { token: hub.agentToken })).status).toBe(204);
    expect(codes(await get(`/v2/calls/${logged.id}`))).toEqual(['not_found']);
  });

  it('lists newest first with the spec filters, page at most 1000', async () => {
    const older = (await post({ phone_number: '1', made_at: '2026-02-01T00:00:00Z', resource_type: 'contact', resource_id: contactId })).body.data.id;
    const newer = (await post({ phone_number: '2', made_at: '2026-02-02T00:00:00Z', resource_type: 'contact', resource_id: contactId })).body.data.id;
    expect(ids(await get(`/v2/calls?resource_type=contact&resource_id=${contactId}`))).toEqual([newer, older]);
    expect(ids(await get(`/v2/calls?ids=${older}`))).toEqual([older]);
    expect(ids(await get('/v2/calls?associated_deal_id=5'))).toEqual([]);
    expect((await get('/v2/calls?page=1000')).status).toBe(200);
    expect(codes(await get('/v2/calls?page=1001'))).toEqual(['invalid_param']);
    expect(codes(await get('/v2/calls?sort_by=made_at'))).toEqual(['invalid_param']);
  });
});
