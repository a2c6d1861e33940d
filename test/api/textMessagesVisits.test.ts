import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, fields, startTestHub, type TestHub } from '../support/testHub.js';

let hub: TestHub;
let contactId: number;
const get = (path: string) => call(hub, 'GET', path, { token: hub.agentToken });
const ids = (answer: { body: any }) => answer.body.items.map((i: any) => i.data.id);

beforeAll(async () => {
  hub = await startTestHub();
  contactId = (await call(hub, 'POST', '/v2/contacts', { token: hub.agentToken, data: { last_name: 'Texted' } })).body.data.id;
});
afterAll(() => hub.close());

describe('text messages', () => {
  let first: number;
  let second: number;
  beforeAll(() => {
    const actor = { userId: hub.agentId, role: 'user' as const, scopes: new Set(['write'] as const) };
    first = hub.engine.textMessages.create({ content: 'On my way', resource_type: 'contact', resource_id: contactId, send_at: '2026-03-01T09:00:00+0000' }, actor);
    second = hub.engine.textMessages.create({ content: 'Running late', incoming: true }, actor);
  });

  it('are read-only, with the spec field names', async () => {
    const one = await get(`/v2/text_messages/${first}`);
    expect(one.body.meta.type).toBe('text_message');
    expect(Object.keys(one.body.data).sort()).toEqual([
      'associated_deal_ids', 'content', 'created_at', 'id', 'incoming', 'resource_id', 'resource_phone_number',
      'resource_type', 'send_at', 'updated_at', 'user_id', 'user_phone_number',
    ]);
    expect(one.body.data).toMatchObject({ send_at: '2026-03-01T09:00:00Z', associated_deal_ids: [], incoming: false });
    expect((await get(`/v2/text_messages/${second}`)).body.data.resource_type).toBe('none');
    expect((await call(hub, 'POST', '/v2/text_messages', { token: hub.agentToken, data: { content: 'x' } })).status).toBe(404);
  });

  it('list newest first by default, id:asc on request, resource filters together, page at most 1000', async () => {
    expect(ids(await get('/v2/text_messages'))).toEqual([second, first]);
    expect(ids(await get('/v2/text_messages?sort_by=id'))).toEqual([second, first]);
    expect(ids(await get('/v2/text_messages?sort_by=id:asc'))).toEqual([first, second]);
    expect(ids(await get(`/v2/text_messages?resource_type=contact&resource_id=${contactId}`))).toEqual([first]);
    expect(codes(await get('/v2/text_messages?resource_type=contact'))).toEqual(['invalid_param']);
    expect(codes(await get(`/v2/text_messages?resource_id=${contactId}`))).toEqual(['invalid_param']);
    expect(codes(await get('/v2/text_messages?page=1001'))).toEqual(['invalid_param']);
    expect(codes(await get('/v2/text_messages?sort_by=content'))).toEqual(['invalid_param']);
  });
});

describe('visits', () => {
  it('are recorded for an existing record and listed with the spec filters', async () => {
    const outcomes = await get('/v2/visit_outcomes');
    expect(outcomes.body.items.length).toBeGreaterThan(0);
    const outcome = outcomes.body.items[0].data.id;
    const visit = await call(hub, 'POST', '/v2/visits', { token: hub.agentToken, data: {
      resource_type: 'contact', resource_id: contactId, outcome_id: outcome, summary: 'Demoed the new range',
      rep_location_verification_status: 'verified', resource_address: '1 Main St',
    } });
    expect(visit.status).toBe(200);
    expect(visit.body.data).toMatchObject({ creator_id: hub.agentId, visited_at: '2026-03-02T10:00:00Z', rep_location_verification_status: 'verified' });
    expect(fields(await call(hub, 'POST', '/v2/visits', { token: hub.agentToken, data: { summary: 'x' } })).sort()).toEqual(['/resource_id', '/resource_type']);
    expect(fields(await call(hub, 'POST', '/v2/visits', { token: hub.agentToken, data: { resource_type: 'contact', resource_id: contactId, outcome_id: 999 } }))).toEqual(['/outcome_id']);
    const id = visit.body.data.id;
    expect(ids(await get(`/v2/visits?resource_type=contact&resource_id=${contactId}&outcome_id=${outcome}&rep_location_verification_status=verified&creator_id=${hub.agentId}&sort_by=visited_at:desc`))).toEqual([id]);
    expect(codes(await get(`/v2/visits?resource_id=${contactId}`))).toEqual(['invalid_param']);
    expect((await get('/v2/visits?resource_type=contact')).status).toBe(200);
    expect(codes(await get('/v2/visits?page=101'))).toEqual(['invalid_param']);
    expect(codes(await get('/v2/visits?per_page=101'))).toEqual(['invalid_param']);
    expect((await call(hub, 'PUT', `/v2/visits/${id}`, { token: hub.agentToken, data: { summary: 'x' } })).status).toBe(200);
  });
});
