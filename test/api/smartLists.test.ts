import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, fields, startTestHub, type TestHub } from '../support/testHub.js';

let hub: TestHub;

const post = (path: string, data: unknown, token = hub.agentToken) => call(hub, 'POST', path, { token, data });
const get = (path: string, token = hub.agentToken) => call(hub, 'GET', path, { token });
const saveList = (data: Record<string, unknown>, token = hub.agentToken) => post('/v2/smart_lists', data, token);
const changeList = (id: number, data: Record<string, unknown>, token = hub.agentToken) => call(hub, 'PUT', `/v2/smart_lists/${id}`, { token, data });
const removeList = (id: number, token = hub.agentToken) => call(hub, 'DELETE', `/v2/smart_lists/${id}`, { token });
const ids = (answer: { body: any }) => answer.body.items.map((item: any) => item.data.id as number);

/** A query string from parameters, encoded as a browser would. */
const qs = (params: Record<string, string>) => Object.entries(params).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');

const PLURAL = { contact: 'contacts', lead: 'leads', deal: 'deals', task: 'tasks' } as const;
type Kind = keyof typeof PLURAL;

/** Saves `filters` (+ sort) as a smart list and returns its id. */
async function savedId(kind: Kind, filters: Record<string, string>, sortBy?: string, token = hub.agentToken): Promise<number> {
  const answer = await saveList({ name: `${kind} ${JSON.stringify(filters)}`, resource_type: kind, filters, sort_by: sortBy ?? null }, token);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data.id;
}

/** Ids of a list endpoint's full answer (one page of up to 100), in order. */
async function listed(kind: Kind, params: Record<string, string>, token = hub.agentToken): Promise<number[]> {
  const answer = await get(`/v2/${PLURAL[kind]}?${qs({ per_page: '100', ...params })}`, token);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return ids(answer);
}

beforeAll(async () => {
  hub = await startTestHub();
  for (const resource of ['contact', 'lead', 'deal']) {
    await post(`/v2/${resource}/custom_fields`, { name: 'Region', type: 'string' }, hub.adminToken);
  }
  const regions = ['West', 'East', 'West', 'North', 'West', 'East'];
  for (const [i, region] of regions.entries()) {
    const token = i % 2 === 0 ? hub.agentToken : hub.adminToken;
    const status = i % 3 === 0 ? 'current' : 'none';
    const person = (await post('/v2/contacts', { last_name: `Person ${i}`, customer_status: status, tags: i % 2 ? ['vip'] : [], custom_fields: { Region: region } }, token)).body.data.id;
    await post('/v2/contacts', { is_organization: true, name: `Org ${i}`, prospect_status: i % 2 ? 'current' : 'none', custom_fields: { Region: region } }, token);
    await post('/v2/leads', { last_name: `Lead ${i}`, status: i % 2 ? 'New' : 'Working', custom_fields: { Region: region }, tags: i % 3 ? [] : ['hot'] }, token);
    await post('/v2/deals', { name: `Deal ${i}`, contact_id: person, value: String(100 * (i + 1)), hot: i % 2 === 0, custom_fields: { Region: region } }, token);
    const due = new Date(Date.parse('2026-03-02T10:00:00Z') + (i - 2) * 86_400_000).toISOString();
    await post('/v2/tasks', { content: `Task ${i} call back`, due_date: due, completed: i === 5 }, token);
  }
});
afterAll(() => hub.close());

describe('smart lists: the resource', () => {
  it('are created, read, changed and deleted by their owner', async () => {
    const made = await saveList({
      name: 'West customers', resource_type: 'contact', filters: { customer_status: 'current', 'custom_fields[Region]': 'West' },
      sort_by: 'last_name:desc', columns: ['name', 'email', 'Region'],
    });
    expect(made.status).toBe(200);
    expect(made.body.data).toMatchObject({
      name: 'West customers', resource_type: 'contact', filters: { customer_status: 'current', 'custom_fields[Region]': 'West' },
      sort_by: 'last_name:desc', columns: ['name', 'email', 'Region'], shared: false, owner_id: hub.agentId,
      created_at: '2026-03-02T10:00:00Z', updated_at: '2026-03-02T10:00:00Z',
    });
    expect(made.body.meta.type).toBe('smart_list');
    const id = made.body.data.id;
    expect((await get(`/v2/smart_lists/${id}`)).body.data.name).toBe('West customers');
    hub.clock.advance(60_000);
    const changed = await changeList(id, { name: 'West', filters: { 'custom_fields[Region]': 'West' }, shared: true });
    expect(changed.status).toBe(200);
    // filters are replaced whole; the fields not sent keep their value.
    expect(changed.body.data).toMatchObject({ name: 'West', filters: { 'custom_fields[Region]': 'West' }, sort_by: 'last_name:desc', shared: true, updated_at: '2026-03-02T10:01:00Z' });
    expect((await removeList(id)).status).toBe(204);
    expect((await get(`/v2/smart_lists/${id}`)).status).toBe(404);
    const logged = hub.engine.db.prepare("SELECT event_type FROM change_log WHERE resource_type = 'smart_list' AND resource_id = ? ORDER BY revision").pluck().all(id);
    expect(logged).toEqual(['created', 'updated', 'deleted']);
  });

  it('are listed with the caller\'s own and the shared ones, filtered by resource_type', async () => {
    const mine = await savedId('lead', { status: 'New' });
    const adminsPrivate = (await saveList({ name: 'Admin only', resource_type: 'lead', filters: {} }, hub.adminToken)).body.data.id;
    const adminsShared = (await saveList({ name: 'Team leads', resource_type: 'lead', filters: { status: 'Working' }, shared: true }, hub.adminToken)).body.data.id;
    const adminsDeals = (await saveList({ name: 'Team deals', resource_type: 'deal', filters: { hot: 'true' }, shared: true }, hub.adminToken)).body.data.id;
    const agentSees = ids(await get('/v2/smart_lists?resource_type=lead&per_page=100'));
    expect(agentSees).toContain(mine);
    expect(agentSees).toContain(adminsShared);
    expect(agentSees).not.toContain(adminsPrivate);
    expect(agentSees).not.toContain(adminsDeals);
    expect(ids(await get('/v2/smart_lists?resource_type=deal&per_page=100'))).toEqual([adminsDeals]);
    expect(ids(await get(`/v2/smart_lists?resource_type=lead&owner_id=${hub.agentId}&per_page=100`))).toEqual([mine]);
    expect(ids(await get('/v2/smart_lists?resource_type=lead&per_page=100', hub.adminToken))).not.toContain(mine);
    expect((await get('/v2/smart_lists?resource_type=note')).status).toBe(400);
  });

  it('hide a private list from everyone but its owner (404), admins included', async () => {
    const id = await savedId('contact', { customer_status: 'current' });
    for (const path of [`/v2/smart_lists/${id}`, `/v2/contacts?smart_list_id=${id}`]) {
      const answer = await get(path, hub.adminToken);
      expect([answer.status, codes(answer)], path).toEqual([404, ['not_found']]);
    }
    expect((await changeList(id, { name: 'Taken' }, hub.adminToken)).status).toBe(404);
    expect((await removeList(id, hub.adminToken)).status).toBe(404);
    expect((await get(`/v2/smart_lists/${id}`)).body.data.name).not.toBe('Taken');
  });

  it('let only the owner or an admin change or delete a shared list (403 otherwise)', async () => {
    const byAdmin = (await saveList({ name: 'Shared by admin', resource_type: 'contact', filters: {}, shared: true }, hub.adminToken)).body.data.id;
    const change = await changeList(byAdmin, { name: 'Mine now' });
    expect([change.status, codes(change)]).toEqual([403, ['forbidden']]);
    expect((await removeList(byAdmin)).status).toBe(403);
    expect((await get(`/v2/smart_lists/${byAdmin}`)).body.data.name).toBe('Shared by admin');
    const byAgent = (await saveList({ name: 'Shared by agent', resource_type: 'contact', filters: {}, shared: true })).body.data.id;
    expect((await changeList(byAgent, { name: 'Renamed by admin' }, hub.adminToken)).body.data).toMatchObject({ name: 'Renamed by admin', owner_id: hub.agentId });
    expect((await removeList(byAgent, hub.adminToken)).status).toBe(204);
  });

  it('check filters and sort_by as the list would, 422 naming /filters/<name>', async () => {
    const refused = async (data: Record<string, unknown>, field: string[]) => {
      const answer = await saveList({ name: 'Bad', resource_type: 'contact', ...data });
      expect(answer.status, JSON.stringify(data)).toBe(422);
      expect(fields(answer), JSON.stringify(data)).toEqual(field);
      return answer;
    };
    const unknown = await refused({ filters: { colour: 'red' } }, ['/filters/colour']);
    expect(unknown.body.errors[0].error.message).toContain('unknown parameter');
    await refused({ filters: { customer_status: 'gold' } }, ['/filters/customer_status']);
    await refused({ filters: { owner_id: 'me' } }, ['/filters/owner_id']);
    await refused({ filters: { is_organization: 'maybe', 'custom_fields[Nope]': 'x' } }, ['/filters/is_organization', '/filters/custom_fields[Nope]']);
    await refused({ filters: { owner_id: 5 } }, ['/filters/owner_id']);
    await refused({ filters: { page: '2' } }, ['/filters/page']);
    await refused({ filters: { sort_by: 'name' } }, ['/filters/sort_by']);
    await refused({ filters: { smart_list_id: '1' } }, ['/filters/smart_list_id']);
    await refused({ filters: ['owner_id'] }, ['/filters']);
    await refused({ sort_by: 'colour' }, ['/sort_by']);
    await refused({ sort_by: 'custom_fields:Nope' }, ['/sort_by']);
    // The fields themselves.
    const bare = await saveList({ filters: {} });
    expect([bare.status, fields(bare).sort()]).toEqual([422, ['/name', '/resource_type']]);
    expect(fields(await saveList({ name: ' ', resource_type: 'note' })).sort()).toEqual(['/name', '/resource_type']);
    expect(fields(await saveList({ name: 'x', resource_type: 'contact', shared: 'yes', colour: 1 })).sort()).toEqual(['/colour', '/shared']);
    const id = await savedId('contact', {});
    expect(fields(await changeList(id, { resource_type: 'lead' }))).toEqual(['/resource_type']);
    expect(fields(await changeList(id, { filters: { customer_status: 'gold' } }))).toEqual(['/filters/customer_status']);
    // Accepted: every kind of filter the list takes, custom fields and extensions included.
    expect((await saveList({ name: 'Fine', resource_type: 'task', filters: { due: 'overdue', completed: 'false', q: 'call' }, sort_by: 'due_date:desc' })).status).toBe(200);
    expect((await saveList({ name: 'Fine', resource_type: 'deal', filters: { value: '300', 'custom_fields[Region]': 'West', tag: 'x' }, sort_by: 'custom_fields:Region' })).status).toBe(200);
  });
});

describe('smart_list_id on the list endpoints', () => {
  const cases: [Kind, Record<string, string>, string?][] = [
    ['contact', { customer_status: 'current' }],
    ['contact', { 'custom_fields[Region]': 'West' }, 'name:desc'],
    ['contact', { is_organization: 'true', prospect_status: 'current', 'custom_fields[Region]': 'East' }],
    ['contact', { tag: 'vip', q: 'Person' }],
    ['contact', { customer_status: 'current', 'custom_fields[Region]': 'West', inclusive: 'false' }, 'id'],
    ['lead', { status: 'New' }],
    ['lead', { 'custom_fields[Region]': 'West', tag: 'hot' }, 'last_name:desc'],
    ['deal', { hot: 'true' }, 'value:desc'],
    ['deal', { 'custom_fields[Region]': 'West' }],
    ['task', { completed: 'false', due: 'overdue' }],
    ['task', { q: 'call' }],
    ['task', { completed: 'false' }, 'due_date:desc'],
  ];

  it.each(cases)('answer what the saved filters answer: %s %j', async (kind, filters, sortBy) => {
    const id = await savedId(kind, filters, sortBy);
    const direct = await listed(kind, { ...filters, ...(sortBy ? { sort_by: sortBy } : {}) });
    expect(direct.length).toBeGreaterThan(0);
    expect(await listed(kind, { smart_list_id: String(id) })).toEqual(direct);
    // count=true counts the same records.
    const counted = await get(`/v2/${PLURAL[kind]}?${qs({ smart_list_id: String(id), count: 'true', per_page: '1' })}`);
    expect(counted.body.meta.total_count).toBe(direct.length);
  });

  it('combine the saved filters with the query\'s own (AND), the query\'s sort winning', async () => {
    const west = await savedId('contact', { 'custom_fields[Region]': 'West' }, 'name:asc');
    const westIds = await listed('contact', { 'custom_fields[Region]': 'West' });
    // Another filter: both hold.
    expect(await listed('contact', { smart_list_id: String(west), is_organization: 'false' }))
      .toEqual(await listed('contact', { 'custom_fields[Region]': 'West', is_organization: 'false', sort_by: 'name:asc' }));
    // The same parameter saved and in the query: both must hold (here none can).
    expect(await listed('contact', { smart_list_id: String(west), 'custom_fields[Region]': 'East' })).toEqual([]);
    // The query's sort wins over the saved one.
    const desc = await listed('contact', { smart_list_id: String(west), sort_by: 'name:desc' });
    expect(desc).toEqual(await listed('contact', { 'custom_fields[Region]': 'West', sort_by: 'name:desc' }));
    expect(desc).toEqual([...(await listed('contact', { smart_list_id: String(west) }))].reverse());
    // inclusive=false ORs the query's filters only; the saved ones still hold.
    const either = await listed('contact', { smart_list_id: String(west), inclusive: 'false', customer_status: 'current', tag: 'vip', sort_by: 'id' });
    const currentOrVip = await listed('contact', { inclusive: 'false', customer_status: 'current', tag: 'vip', sort_by: 'id' });
    expect(either).toEqual(currentOrVip.filter((id) => westIds.includes(id)));
    expect(either.length).toBeGreaterThan(0);
    // Paging from the query.
    const pageTwo = await get(`/v2/contacts?smart_list_id=${west}&per_page=2&page=2`);
    expect(ids(pageTwo)).toEqual(westIds.slice(2, 4));
    for (const kind of ['lead', 'deal', 'task'] as const) {
      const id = await savedId(kind, {});
      const extra: Record<string, string> = kind === 'task' ? { completed: 'true' } : { owner_id: String(hub.adminId) };
      expect(await listed(kind, { smart_list_id: String(id), ...extra }), kind).toEqual(await listed(kind, extra));
    }
  });

  it('follow the list as it changes, and refuse lists that are not there', async () => {
    const id = await savedId('lead', { status: 'New' });
    const before = await listed('lead', { smart_list_id: String(id) });
    await changeList(id, { filters: { status: 'Working' } });
    expect(await listed('lead', { smart_list_id: String(id) })).toEqual(await listed('lead', { status: 'Working' }));
    expect(await listed('lead', { smart_list_id: String(id) })).not.toEqual(before);
    // Another resource's smart list: 400 on smart_list_id; none: 404; not an id: 400.
    const ofLeads = await get(`/v2/contacts?smart_list_id=${id}`);
    expect([ofLeads.status, codes(ofLeads), fields(ofLeads)]).toEqual([400, ['invalid_param'], ['smart_list_id']]);
    const none = await get('/v2/contacts?smart_list_id=999999');
    expect([none.status, codes(none)]).toEqual([404, ['not_found']]);
    expect((await get('/v2/contacts?smart_list_id=abc')).status).toBe(400);
    // Lists without smart lists do not take it.
    expect((await get(`/v2/notes?smart_list_id=${id}`)).status).toBe(400);
    // A shared list works for everyone.
    const shared = (await saveList({ name: 'Hot deals', resource_type: 'deal', filters: { hot: 'true' }, shared: true }, hub.adminToken)).body.data.id;
    expect(await listed('deal', { smart_list_id: String(shared) })).toEqual(await listed('deal', { hot: 'true' }));
    // And through the task counts.
    const tasks = await savedId('task', { q: 'call' });
    const counts = (await get(`/v2/tasks/counts?smart_list_id=${tasks}`)).body.data;
    expect(counts.completed).toBe((await listed('task', { q: 'call', completed: 'true' })).length);
  });
});
