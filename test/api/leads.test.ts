import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, fields, startTestHub, type TestHub } from '../support/testHub.js';

let hub: TestHub;
const post = (data: unknown, token = hub.agentToken) => call(hub, 'POST', '/v2/leads', { token, data });
const put = (id: number, data: unknown, token = hub.agentToken) => call(hub, 'PUT', `/v2/leads/${id}`, { token, data });
const get = (path: string, token = hub.agentToken) => call(hub, 'GET', path, { token });
const ids = (answer: { body: any }) => answer.body.items.map((i: any) => i.data.id);
const created = async (data: unknown) => {
  const answer = await post(data);
  expect(answer.status).toBe(200);
  return answer.body.data;
};

/** The id of an existing entry of a named list (`/v2/lead_sources`, …) by name. */
async function entryId(path: string, name: string): Promise<number> {
  const answer = await get(`${path}?name=${encodeURIComponent(name)}`);
  return answer.body.items[0].data.id;
}

beforeAll(async () => {
  hub = await startTestHub();
});
afterAll(() => hub.close());

describe('creating leads', () => {
  it('needs a last_name or an organization_name: an empty lead is one error', async () => {
    const empty = await post({});
    expect(empty.status).toBe(422);
    expect(codes(empty)).toEqual(['missing']);
    expect(empty.body.errors).toHaveLength(1);
    expect(codes(await post({ first_name: 'Only', last_name: '  ', organization_name: '' }))).toEqual(['blank']);
  });

  it('accepts a last_name alone, an organization_name alone, or both', async () => {
    const person = await post({ last_name: 'Johnson' });
    expect(person.status).toBe(200);
    expect(person.body.meta.type).toBe('lead');
    expect(person.body.data).toMatchObject({
      last_name: 'Johnson', first_name: null, organization_name: null, status: 'New', owner_id: hub.agentId, creator_id: hub.agentId,
      source_id: null, unqualified_reason_id: null, tags: [], custom_fields: {},
      address: { line1: null, city: null, postal_code: null, state: null, country: null },
      created_at: '2026-03-02T10:00:00Z', updated_at: '2026-03-02T10:00:00Z',
    });
    expect((await post({ organization_name: 'Design Services Company' })).body.data.organization_name).toBe('Design Services Company');
    expect((await post({ first_name: 'Mark', last_name: 'Johnson', organization_name: 'Design Services Company' })).status).toBe(200);
  });

  it('takes every field of the real service', async () => {
    const sourceId = await entryId('/v2/lead_sources', 'Website');
    const reasonId = await entryId('/v2/lead_unqualified_reasons', 'No budget');
    const lead = await created({
      first_name: 'Mark', last_name: 'Johnson', organization_name: 'Design Services Company', status: 'Unqualified',
      owner_id: hub.adminId, source_id: sourceId, unqualified_reason_id: reasonId, title: 'CEO', description: 'I know him via Tom',
      industry: 'Design Services', website: 'www.designservice.com', email: 'mark@designservices.com', phone: '508-778-6516',
      mobile: '508-778-6516', fax: '+44-208-1234567', twitter: 'mjohnson', facebook: 'mjohnson', linkedin: 'mjohnson', skype: 'mjohnson',
      address: { line1: '2726 Smith Street', city: 'Hyannis', postal_code: '02601', state: 'MA', country: 'US' },
      tags: ['important'],
    });
    expect(lead).toMatchObject({
      status: 'Unqualified', owner_id: hub.adminId, creator_id: hub.agentId, source_id: sourceId, unqualified_reason_id: reasonId,
      title: 'CEO', skype: 'mjohnson', address: { line1: '2726 Smith Street', city: 'Hyannis', postal_code: '02601', state: 'MA', country: 'US' },
      tags: ['important'],
    });
    expect((await get(`/v2/leads/${lead.id}`)).body.data).toEqual(lead);
  });

  it('refuses unknown attributes, bad owners, sources and reasons, listing every problem', async () => {
    expect(fields(await post({ last_name: 'X', colour: 'red' }))).toEqual(['/colour']);
    expect(codes(await post({ last_name: 'X', colour: 'red' }))).toEqual(['unknown']);
    const dealSource = (await call(hub, 'POST', '/v2/deal_sources', { token: hub.agentToken, data: { name: 'Deals only' } })).body.data.id;
    const answer = await post({ last_name: 'X', owner_id: 999999, source_id: dealSource, unqualified_reason_id: 999999 });
    expect(answer.status).toBe(422);
    expect(fields(answer)).toEqual(['/owner_id', '/source_id', '/unqualified_reason_id']);
    expect(codes(answer)).toEqual(['incorrect_value', 'incorrect_value', 'incorrect_value']);
    expect(codes(await post({ last_name: 'X', source_id: 'web' }))).toEqual(['invalid_type']);
    expect(codes(await post({ last_name: 'X', owner_id: null }))).toEqual(['blank']);
    expect(codes(await post({ last_name: 'X', status: '' }))).toEqual(['blank']);
    expect(fields(await post({ last_name: 'X', address: { town: 'Nowhere' } }))).toEqual(['/address/town']);
  });

  it('creates tags as needed, as lead tags', async () => {
    const lead = await created({ last_name: 'Tagged', tags: ['brand-new-lead-tag', 'hot'] });
    expect(lead.tags).toEqual(['brand-new-lead-tag', 'hot']);
    const tags = await get('/v2/tags?name=brand-new-lead-tag');
    expect(tags.body.items.map((i: any) => i.data)).toMatchObject([{ name: 'brand-new-lead-tag', resource_type: 'lead' }]);
  });

  it('validates custom fields against the lead definitions (GET /v2/lead/custom_fields)', async () => {
    await call(hub, 'POST', '/v2/lead/custom_fields', { token: hub.adminToken, data: { name: 'Budget', type: 'number' } });
    const definitions = await get('/v2/lead/custom_fields');
    expect(definitions.status).toBe(200);
    expect(definitions.body.items.map((i: any) => i.data.name)).toEqual(['Budget']);
    const lead = await created({ last_name: 'Custom', custom_fields: { Budget: '1500' } });
    expect(lead.custom_fields).toEqual({ Budget: 1500 });
    expect(fields(await post({ last_name: 'Custom', custom_fields: { Budget: 'lots' } }))).toEqual(['/custom_fields/Budget']);
    expect(codes(await post({ last_name: 'Custom', custom_fields: { Colour: 'red' } }))).toEqual(['unknown']);
    // Contact custom fields are not lead custom fields.
    await call(hub, 'POST', '/v2/contact/custom_fields', { token: hub.adminToken, data: { name: 'Seats', type: 'number' } });
    expect(codes(await post({ last_name: 'Custom', custom_fields: { Seats: 3 } }))).toEqual(['unknown']);
  });
});

describe('updating leads', () => {
  it('accepts back what GET returned', async () => {
    const lead = await created({ first_name: 'Round', last_name: 'Trip', tags: ['a', 'b'], address: { city: 'Oslo' }, custom_fields: { Budget: 10 } });
    hub.clock.advance(1000);
    const body = (await get(`/v2/leads/${lead.id}`)).body.data;
    const answer = await put(lead.id, body);
    expect(answer.status).toBe(200);
    expect({ ...answer.body.data, updated_at: lead.updated_at }).toEqual(lead);
    expect(answer.body.data.updated_at).toBe('2026-03-02T10:00:01Z');
    hub.clock.set('2026-03-02T10:00:00Z');
  });

  it('changes only what is sent; tags and address are replaced as a whole', async () => {
    const lead = await created({ first_name: 'Part', last_name: 'Ial', email: 'p@x.test', tags: ['one'], address: { city: 'Oslo', country: 'NO' } });
    const answer = await put(lead.id, { status: 'Working', tags: ['two'], address: { city: 'Bergen' } });
    expect(answer.body.data).toMatchObject({
      first_name: 'Part', email: 'p@x.test', status: 'Working', tags: ['two'], address: { city: 'Bergen', country: null },
    });
  });

  it('must not leave a lead with neither last_name nor organization_name', async () => {
    const person = await created({ last_name: 'Solo' });
    expect(codes(await put(person.id, { last_name: null }))).toEqual(['blank']);
    expect((await put(person.id, { organization_name: 'Solo Inc', last_name: null })).body.data).toMatchObject({ last_name: null, organization_name: 'Solo Inc' });
    expect(codes(await put(person.id, { organization_name: '' }))).toEqual(['blank']);
    expect((await get(`/v2/leads/${person.id}`)).body.data.organization_name).toBe('Solo Inc');
  });

  it('loses its source or unqualified reason when that is deleted', async () => {
    const source = (await call(hub, 'POST', '/v2/lead_sources', { token: hub.agentToken, data: { name: 'Short-lived' } })).body.data.id;
    const reason = (await call(hub, 'POST', '/v2/lead_unqualified_reasons', { token: hub.adminToken, data: { name: 'Short-lived' } })).body.data.id;
    const lead = await created({ last_name: 'Orphan', source_id: source, unqualified_reason_id: reason });
    expect((await call(hub, 'DELETE', `/v2/lead_sources/${source}`, { token: hub.agentToken })).status).toBe(204);
    expect((await call(hub, 'DELETE', `/v2/lead_unqualified_reasons/${reason}`, { token: hub.adminToken })).status).toBe(204);
    expect((await get(`/v2/leads/${lead.id}`)).body.data).toMatchObject({ source_id: null, unqualified_reason_id: null });
  });

  it('checks references on update too, and 404s for a missing lead', async () => {
    const lead = await created({ last_name: 'Refs' });
    expect(fields(await put(lead.id, { source_id: 999999 }))).toEqual(['/source_id']);
    expect(codes(await put(999999, { last_name: 'X' }))).toEqual(['not_found']);
    expect((await get('/v2/leads/999999')).status).toBe(404);
    expect((await put(lead.id, { source_id: null, unqualified_reason_id: null })).status).toBe(200);
  });
});

describe('listing leads', () => {
  let alpha: any;
  let beta: any;
  let gamma: any;
  let sourceId: number;
  let reasonId: number;
  const listed = (query: string) => get(`/v2/leads?per_page=100&${query}`).then(ids);

  beforeAll(async () => {
    sourceId = await entryId('/v2/lead_sources', 'Referral');
    reasonId = await entryId('/v2/lead_unqualified_reasons', 'Not a fit');
    hub.clock.set('2026-03-03T09:00:00Z');
    gamma = await created({ first_name: 'Gina', last_name: 'Zulu-List', organization_name: 'Gamma Ltd', email: 'gina@gamma.test', status: 'Working', unqualified_reason_id: reasonId, address: { line1: '3 Rue Neuve', city: 'Lyon', postal_code: '69001', state: 'ARA', country: 'FR' }, tags: ['vip'] });
    hub.clock.set('2026-03-03T09:00:01Z');
    alpha = await created({ first_name: 'Anna', last_name: 'Alpha-List', email: 'anna@alpha.test', phone: '+33 1 23 45 67 89', owner_id: hub.adminId, source_id: sourceId, custom_fields: { Budget: 5 } });
    hub.clock.set('2026-03-03T09:00:02Z');
    beta = await created({ organization_name: 'Beta-List Corp', mobile: '555-0100', custom_fields: { Budget: 50 } });
    hub.clock.set('2026-03-02T10:00:00Z');
  });

  it('orders by updated_at ascending by default', async () => {
    const all = await listed('');
    const ours = all.filter((id: number) => [alpha.id, beta.id, gamma.id].includes(id));
    expect(ours).toEqual([gamma.id, alpha.id, beta.id]);
    expect(all.slice(-3)).toEqual([gamma.id, alpha.id, beta.id]);
  });

  it('filters by every field the real service offers', async () => {
    expect(await listed(`ids=${beta.id},${alpha.id}`)).toEqual([alpha.id, beta.id]);
    expect(await listed('first_name=Anna')).toEqual([alpha.id]);
    expect(await listed('last_name=Zulu-List')).toEqual([gamma.id]);
    expect(await listed('organization_name=Beta-List%20Corp')).toEqual([beta.id]);
    expect(await listed('email=anna@alpha.test')).toEqual([alpha.id]);
    expect(await listed('phone=%2B33%201%2023%2045%2067%2089')).toEqual([alpha.id]);
    expect(await listed('mobile=555-0100')).toEqual([beta.id]);
    expect(await listed(`source_id=${sourceId}`)).toEqual([alpha.id]);
    expect(await listed(`owner_id=${hub.adminId}&last_name=Alpha-List`)).toEqual([alpha.id]);
    expect(await listed(`creator_id=${hub.agentId}&organization_name=Gamma%20Ltd`)).toEqual([gamma.id]);
    expect(await listed(`creator_id=${hub.adminId}`)).toEqual([]);
    expect(await listed('status=Working&address[city]=Lyon')).toEqual([gamma.id]);
    expect(await listed('address[postal_code]=69001')).toEqual([gamma.id]);
    expect(await listed('address[line1]=3%20Rue%20Neuve')).toEqual([gamma.id]);
    expect(await listed(`unqualified_reason_id=${reasonId}`)).toEqual([gamma.id]);
    expect(await listed('address[state]=ARA')).toEqual([gamma.id]);
    expect(await listed('address[country]=FR')).toEqual([gamma.id]);
    expect(await listed('custom_fields[Budget]=50')).toEqual([beta.id]);
    expect(await listed('tag=vip')).toEqual([gamma.id]);
    expect(await listed('q=alpha-li')).toEqual([alpha.id]);
    expect(await listed('q=beta')).toEqual([beta.id]);
    expect(await listed('last_name=Alpha-List&organization_name=Beta-List%20Corp&inclusive=false')).toEqual([alpha.id, beta.id]);
  });

  it('sorts by the real service fields, ascending or :desc', async () => {
    const ours = (list: number[]) => list.filter((id) => [alpha.id, beta.id, gamma.id].includes(id));
    expect(ours(await listed('sort_by=id'))).toEqual([alpha.id, beta.id, gamma.id].sort((a, b) => a - b));
    expect(ours(await listed('sort_by=id:desc'))).toEqual([alpha.id, beta.id, gamma.id].sort((a, b) => b - a));
    expect(ours(await listed('sort_by=last_name&ids=' + [alpha.id, gamma.id].join(',')))).toEqual([alpha.id, gamma.id]);
    expect(ours(await listed(`sort_by=first_name:desc&ids=${alpha.id},${gamma.id}`))).toEqual([gamma.id, alpha.id]);
    expect(ours(await listed(`sort_by=organization_name&ids=${beta.id},${gamma.id}`))).toEqual([beta.id, gamma.id]);
    expect(ours(await listed(`sort_by=email:desc&ids=${alpha.id},${gamma.id}`))).toEqual([gamma.id, alpha.id]);
    expect(ours(await listed(`sort_by=status&ids=${alpha.id},${gamma.id}`))).toEqual([alpha.id, gamma.id]);
    expect(ours(await listed(`sort_by=created_at:desc&ids=${alpha.id},${beta.id},${gamma.id}`))).toEqual([beta.id, alpha.id, gamma.id]);
    expect(ours(await listed(`sort_by=updated_at&ids=${alpha.id},${beta.id},${gamma.id}`))).toEqual([gamma.id, alpha.id, beta.id]);
    expect(ours(await listed(`sort_by=custom_fields:Budget:desc&ids=${alpha.id},${beta.id}`))).toEqual([beta.id, alpha.id]);
  });

  it('refuses unknown filters and sorts with 400 invalid_param', async () => {
    const unknownFilter = await get('/v2/leads?colour=red');
    expect(unknownFilter.status).toBe(400);
    expect(codes(unknownFilter)).toEqual(['invalid_param']);
    expect(codes(await get('/v2/leads?sort_by=colour'))).toEqual(['invalid_param']);
    expect(codes(await get('/v2/leads?owner_id=abc'))).toEqual(['invalid_param']);
    expect(codes(await get('/v2/leads?per_page=101'))).toEqual(['invalid_param']);
  });

  it('pages with next_page only while more leads exist', async () => {
    const page = await get(`/v2/leads?ids=${alpha.id},${beta.id},${gamma.id}&per_page=2`);
    expect(page.body.items).toHaveLength(2);
    expect(page.body.meta.links.next_page).toContain('page=2');
    const last = await get(`/v2/leads?ids=${alpha.id},${beta.id},${gamma.id}&per_page=2&page=2`);
    expect(last.body.items).toHaveLength(1);
    expect(last.body.meta.links.next_page).toBeUndefined();
  });

  it('filters by a phone or mobile exactly as written, not another number ending in the same digits', async () => {
    // Found through the phone key's index (the last nine digits), then compared exactly.
    const twin = await created({ last_name: 'Twin-List', phone: '01 23 45 67 89', mobile: '+33 1 23 45 67 89' });
    expect(await listed('phone=%2B33%201%2023%2045%2067%2089')).toEqual([alpha.id]);
    expect(await listed('phone=01%2023%2045%2067%2089')).toEqual([twin.id]);
    expect(await listed('mobile=%2B33%201%2023%2045%2067%2089')).toEqual([twin.id]);
    expect(await listed('mobile=555%200100')).toEqual([]);
  });
});

describe('deleting leads', () => {
  it('answers 204 and takes the lead tags, tasks, notes and calls with it', async () => {
    const lead = await created({ last_name: 'Doomed', tags: ['doomed-tag'] });
    const on = { resource_type: 'lead', resource_id: lead.id };
    const task = await call(hub, 'POST', '/v2/tasks', { token: hub.agentToken, data: { content: 'Call Doomed', ...on } });
    const note = await call(hub, 'POST', '/v2/notes', { token: hub.agentToken, data: { content: 'About Doomed', ...on } });
    const callRecord = await call(hub, 'POST', '/v2/calls', { token: hub.agentToken, data: { phone_number: '555-0199', ...on } });
    expect([task.status, note.status, callRecord.status]).toEqual([200, 200, 200]);
    const survivor = await created({ last_name: 'Survivor', tags: ['doomed-tag'] });

    const deleted = await call(hub, 'DELETE', `/v2/leads/${lead.id}`, { token: hub.agentToken });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await get(`/v2/leads/${lead.id}`)).status).toBe(404);
    expect((await get(`/v2/tasks/${task.body.data.id}`)).status).toBe(404);
    expect((await get(`/v2/notes/${note.body.data.id}`)).status).toBe(404);
    expect((await get(`/v2/calls/${callRecord.body.data.id}`)).status).toBe(404);
    expect(hub.engine.db.prepare("SELECT COUNT(*) FROM taggings WHERE resource_type = 'lead' AND resource_id = ?").pluck().get(lead.id)).toBe(0);
    expect((await get(`/v2/leads/${survivor.id}`)).body.data.tags).toEqual(['doomed-tag']);
    expect((await call(hub, 'DELETE', `/v2/leads/${lead.id}`, { token: hub.agentToken })).status).toBe(404);
  });

  it('lets tasks attach to leads, and refuses a missing lead', async () => {
    const lead = await created({ last_name: 'Attach' });
    expect((await call(hub, 'POST', '/v2/tasks', { token: hub.agentToken, data: { content: 'x', resource_type: 'lead', resource_id: lead.id } })).status).toBe(200);
    expect(fields(await call(hub, 'POST', '/v2/tasks', { token: hub.agentToken, data: { content: 'x', resource_type: 'lead', resource_id: 999999 } }))).toEqual(['/resource_id']);
  });
});

describe('roles and sync', () => {
  it('lets admins do everything agents do', async () => {
    const lead = (await post({ last_name: 'Admin-made' }, hub.adminToken)).body.data;
    expect(lead.creator_id).toBe(hub.adminId);
    expect((await put(lead.id, { status: 'Working' }, hub.agentToken)).status).toBe(200);
    expect((await call(hub, 'DELETE', `/v2/leads/${lead.id}`, { token: hub.adminToken })).status).toBe(204);
  });

  it('serves devices the same JSON as GET, logging every change', async () => {
    const lead = await created({ last_name: 'Synced', tags: ['s'] });
    await put(lead.id, { title: 'Boss' });
    const events = hub.engine.db.prepare("SELECT event_type FROM change_log WHERE resource_type = 'lead' AND resource_id = ? ORDER BY revision").pluck().all(lead.id);
    expect(events).toEqual(['created', 'updated']);
    const { LEAD_SYNC } = await import('../../electron/engine/resources/leads.js');
    const synced = hub.engine.db.prepare(`SELECT ${LEAD_SYNC.json} FROM ${LEAD_SYNC.from} WHERE ${LEAD_SYNC.idColumn} = ?`).pluck().get(lead.id) as string;
    expect(JSON.parse(synced)).toEqual((await get(`/v2/leads/${lead.id}`)).body.data);
  });
});
