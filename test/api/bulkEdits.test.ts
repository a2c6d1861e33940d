import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, fields, startTestHub, type Answer, type TestHub } from '../support/testHub.js';

/**
 * POST /v2/{contacts|leads|deals|tasks}/bulk over real HTTP: every record goes
 * through the same write as a single PUT or DELETE, a refused record is
 * reported with the errors that PUT would have answered, and a call that
 * means nothing is refused whole.
 */
let hub: TestHub;
const as = (token: string) => ({
  get: (path: string) => call(hub, 'GET', path, { token }),
  post: (path: string, data: unknown) => call(hub, 'POST', path, { token, data }),
  put: (path: string, data: unknown) => call(hub, 'PUT', path, { token, data }),
});
let agent: ReturnType<typeof as>;
let admin: ReturnType<typeof as>;
let stages: Record<string, number>;

const contact = async (data: Record<string, unknown>) => (await agent.post('/v2/contacts', data)).body.data.id as number;
const record = async (path: string) => (await agent.get(path)).body.data;
const failedIds = (answer: Answer) => answer.body.data.failed.map((f: any) => f.id);
/** The change-log events of a record since a revision: what a device's sync is served. */
const eventsSince = (revision: number, type: string, id: number) =>
  hub.engine.db.prepare('SELECT event_type FROM change_log WHERE revision > ? AND resource_type = ? AND resource_id = ? ORDER BY revision').pluck().all(revision, type, id);

/** A device's whole sync session (start, every page, each acknowledged): the records it is served, by type and id. */
async function deviceSync(token: string, uuid: string): Promise<{ type: string; id: number; event: string; data: any }[]> {
  const headers = { 'X-Service-Device-UUID': uuid };
  const started = await call(hub, 'POST', '/v2/sync/start', { token, headers });
  if (started.status === 204) return [];
  const served = [];
  for (;;) {
    const page = await call(hub, 'GET', `/v2/sync/${started.body.data.id}/queues/main`, { token, headers });
    if (page.status === 204) return served;
    served.push(...page.body.items.map((i: any) => ({ type: i.meta.type, id: i.data.id, event: i.meta.sync.event_type, data: i.data })));
    await call(hub, 'POST', '/v2/sync/ack', { token, headers, data: { ack_keys: page.body.items.map((i: any) => i.meta.sync.ack_key) } });
  }
}

beforeAll(async () => {
  hub = await startTestHub();
  agent = as(hub.agentToken);
  admin = as(hub.adminToken);
  stages = Object.fromEntries((await agent.get('/v2/stages')).body.items.map((i: any) => [i.data.name, i.data.id]));
  await admin.post('/v2/contact/custom_fields', { name: 'Segment', type: 'list', choices: ['SMB', 'Enterprise'] });
  await admin.post('/v2/lead/custom_fields', { name: 'Region', type: 'string' });
  await admin.post('/v2/deal/custom_fields', { name: 'Priority', type: 'number' });
});
afterAll(() => hub.close());

describe('bulk updates', () => {
  it('sets fields on every named record, as a PUT would, and logs each record for devices', async () => {
    const ids = [await contact({ last_name: 'Ames', tags: ['north'] }), await contact({ last_name: 'Berg' }), await contact({ is_organization: true, name: 'Corp' })];
    const revision = hub.engine.ctx.changes.currentRevision();
    const answer = await agent.post('/v2/contacts/bulk', { ids, update: { owner_id: hub.adminId, prospect_status: 'current', custom_fields: { Segment: 'SMB' } } });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ data: { updated: ids, failed: [] }, meta: { type: 'bulk_result' } });
    for (const id of ids) {
      expect(await record(`/v2/contacts/${id}`)).toMatchObject({ owner_id: hub.adminId, prospect_status: 'current', custom_fields: { Segment: 'SMB' } });
      expect(eventsSince(revision, 'contact', id)).toEqual(['updated']);
    }
    // Fields the update does not name are left as they were.
    expect((await record(`/v2/contacts/${ids[0]}`)).tags).toEqual(['north']);
  });

  it("serves each changed record to a device's next sync, as single edits are", async () => {
    const token = hub.tokenFor(hub.agentId, ['read', 'write', 'sync']);
    const uuid = randomUUID();
    const ids = [await contact({ last_name: 'Synced A' }), await contact({ last_name: 'Synced B' })];
    await deviceSync(token, uuid);
    expect((await agent.post('/v2/contacts/bulk', { ids, update: { title: 'Buyer', tags_add: ['synced'] } })).body.data.updated).toEqual(ids);
    const served = (await deviceSync(token, uuid)).filter((item) => item.type === 'contact');
    expect(served.map((item) => [item.id, item.event, item.data.title, item.data.tags])).toEqual(ids.map((id) => [id, 'updated', 'Buyer', ['synced']]));
  });

  it('adds and removes tags, keeping the tags each record already has', async () => {
    const a = await contact({ last_name: 'Tagged A', tags: ['north', 'old'] });
    const b = await contact({ last_name: 'Tagged B' });
    const answer = await agent.post('/v2/contacts/bulk', { ids: [a, b], update: { tags_add: ['vip', 'north'], tags_remove: ['old'] } });
    expect(answer.body.data).toEqual({ updated: [a, b], failed: [] });
    expect((await record(`/v2/contacts/${a}`)).tags).toEqual(['north', 'vip']);
    expect((await record(`/v2/contacts/${b}`)).tags).toEqual(['north', 'vip']);
    // The new tag exists as any tag does.
    expect((await agent.get('/v2/tags?name=vip&resource_type=contact')).body.items).toHaveLength(1);
    const lead = (await agent.post('/v2/leads', { last_name: 'Lead', tags: ['cold'] })).body.data.id;
    expect((await agent.post('/v2/leads/bulk', { ids: [lead], update: { tags_add: ['warm'], tags_remove: ['cold'] } })).body.data.updated).toEqual([lead]);
    expect((await record(`/v2/leads/${lead}`)).tags).toEqual(['warm']);
  });

  it("sets a lead's status, a deal's stage and custom field, and completes tasks", async () => {
    const leads = [(await agent.post('/v2/leads', { last_name: 'L1' })).body.data.id, (await agent.post('/v2/leads', { last_name: 'L2' })).body.data.id];
    expect((await agent.post('/v2/leads/bulk', { ids: leads, update: { status: 'Working', custom_fields: { Region: 'West' } } })).body.data.updated).toEqual(leads);
    for (const id of leads) expect(await record(`/v2/leads/${id}`)).toMatchObject({ status: 'Working', custom_fields: { Region: 'West' } });

    const org = await contact({ is_organization: true, name: 'Deal Org' });
    const deal = (await agent.post('/v2/deals', { name: 'D1', contact_id: org, stage_id: stages.Incoming, value: '10' })).body.data.id;
    const answer = await agent.post('/v2/deals/bulk', { ids: [deal], update: { stage_id: stages.Quote, value: '250.50', custom_fields: { Priority: 2 }, tags_add: ['q3'] } });
    expect(answer.body.data).toEqual({ updated: [deal], failed: [] });
    expect(await record(`/v2/deals/${deal}`)).toMatchObject({ stage_id: stages.Quote, value: '250.5', custom_fields: { Priority: 2 }, tags: ['q3'] });

    const tasks = [(await agent.post('/v2/tasks', { content: 'Call' })).body.data.id, (await agent.post('/v2/tasks', { content: 'Mail' })).body.data.id];
    expect((await agent.post('/v2/tasks/bulk', { ids: tasks, update: { completed: true } })).body.data.updated).toEqual(tasks);
    for (const id of tasks) expect((await record(`/v2/tasks/${id}`)).completed).toBe(true);
  });

  it('reports each refused record with the errors its own PUT answers, and changes the rest', async () => {
    const fine = await contact({ last_name: 'Fine' });
    const customer = await contact({ last_name: 'Customer', customer_status: 'current' });
    const missing = 999_999;
    const revision = hub.engine.ctx.changes.currentRevision();
    const answer = await agent.post('/v2/contacts/bulk', { ids: [fine, customer, missing], update: { prospect_status: 'lost' } });
    expect(answer.status).toBe(200);
    expect(answer.body.data.updated).toEqual([fine]);
    expect(failedIds(answer)).toEqual([customer, missing]);
    // The same error objects a single PUT puts in its envelope.
    const single = await agent.put(`/v2/contacts/${customer}`, { prospect_status: 'lost' });
    expect(single.status).toBe(422);
    const [validation, notFound] = answer.body.data.failed;
    expect(validation.errors.map((e: any) => e.error)).toEqual(single.body.errors.map((e: any) => e.error));
    expect(validation.errors[0]).toMatchObject({ error: { code: 'incorrect_value', field: '/prospect_status' }, meta: { type: 'error' } });
    expect(validation.errors[0].meta.links.more_info).toMatch(/\/docs\/api#incorrect_value$/);
    const singleMissing = await agent.put(`/v2/contacts/${missing}`, { prospect_status: 'lost' });
    expect(notFound.errors.map((e: any) => e.error)).toEqual(singleMissing.body.errors.map((e: any) => e.error));
    // A refused record is left whole and unlogged; the others changed.
    expect(await record(`/v2/contacts/${customer}`)).toMatchObject({ prospect_status: 'none', customer_status: 'current' });
    expect(eventsSince(revision, 'contact', customer)).toEqual([]);
    expect((await record(`/v2/contacts/${fine}`)).prospect_status).toBe('lost');
  });

  it('rolls back a refused record alone even when part of it was written (tags before a failing rule)', async () => {
    const lead = (await agent.post('/v2/leads', { last_name: 'Halfway', tags: ['keep'] })).body.data.id;
    const other = (await agent.post('/v2/leads', { last_name: 'Other' })).body.data.id;
    // owner_id of no user fails the lead's rules; the tags change must not stay behind.
    const answer = await agent.post('/v2/leads/bulk', { ids: [lead, other], update: { tags_add: ['new'], owner_id: 424242 } });
    expect(answer.body.data.updated).toEqual([]);
    expect(answer.body.data.failed.map((f: any) => f.errors[0].error.field)).toEqual(['/owner_id', '/owner_id']);
    expect((await record(`/v2/leads/${lead}`)).tags).toEqual(['keep']);
  });

  it('selects "all matching" a list with the list\'s own filters', async () => {
    const tagged = [await contact({ last_name: 'Match One', tags: ['bulk-select'] }), await contact({ last_name: 'Match Two', tags: ['bulk-select'] })];
    const other = await contact({ last_name: 'Not Matched' });
    const answer = await agent.post('/v2/contacts/bulk', { filters: { tag: 'bulk-select', sort_by: 'last_name' }, update: { title: 'Selected' } });
    expect([...answer.body.data.updated].sort()).toEqual([...tagged].sort());
    for (const id of tagged) expect((await record(`/v2/contacts/${id}`)).title).toBe('Selected');
    expect((await record(`/v2/contacts/${other}`)).title).toBeNull();
    // A filter the list does not know is the list's own 400.
    const unknown = await agent.post('/v2/contacts/bulk', { filters: { colour: 'red' }, update: { title: 'x' } });
    expect([unknown.status, codes(unknown), fields(unknown)]).toEqual([400, ['invalid_param'], ['colour']]);
  });

  it('selects the records of a smart list with smart_list_id, exactly as the list endpoint answers it', async () => {
    const west = [await contact({ last_name: 'West', first_name: 'One', tags: ['bulk-smart'] }), await contact({ last_name: 'West', first_name: 'Two', tags: ['bulk-smart'] })];
    await contact({ last_name: 'East', tags: ['bulk-smart'] });
    const list = (await agent.post('/v2/smart_lists', { name: 'Bulk west', resource_type: 'contact', filters: { tag: 'bulk-smart', last_name: 'West' } })).body.data;
    const listed = (await agent.get(`/v2/contacts?smart_list_id=${list.id}&per_page=100`)).body.items.map((i: any) => i.data.id);
    expect([...listed].sort()).toEqual([...west].sort());
    const answer = await agent.post('/v2/contacts/bulk', { smart_list_id: list.id, update: { tags_add: ['picked'] } });
    expect([...answer.body.data.updated].sort()).toEqual([...listed].sort());
    for (const id of west) expect((await record(`/v2/contacts/${id}`)).tags).toEqual(['bulk-smart', 'picked']);
    // Another user's private list is no list to this caller: the list endpoint's own 404.
    const own = (await admin.post('/v2/smart_lists', { name: 'Mine only', resource_type: 'contact', filters: { tag: 'bulk-smart' } })).body.data;
    const hidden = await agent.post('/v2/contacts/bulk', { smart_list_id: own.id, update: { title: 'x' } });
    expect(hidden.status).toBe(404);
  });
});

describe('bulk deletes', () => {
  it('deletes each record as DELETE does, reporting the ones that are not there', async () => {
    const ids = [await contact({ last_name: 'Gone 1' }), await contact({ last_name: 'Gone 2' })];
    const task = (await agent.post('/v2/tasks', { content: 'Follow up', resource_type: 'contact', resource_id: ids[0] })).body.data.id;
    const revision = hub.engine.ctx.changes.currentRevision();
    const answer = await agent.post('/v2/contacts/bulk', { ids: [...ids, 888_888], delete: true });
    expect(answer.body.data.updated).toEqual(ids);
    expect(answer.body.data.failed).toEqual([{ id: 888_888, errors: [expect.objectContaining({ error: expect.objectContaining({ code: 'not_found', resource: 'contact' }) })] }]);
    for (const id of ids) {
      expect((await agent.get(`/v2/contacts/${id}`)).status).toBe(404);
      expect(eventsSince(revision, 'contact', id)).toEqual(['deleted']);
    }
    // The contact's tasks went with it, as with a single DELETE.
    expect((await agent.get(`/v2/tasks/${task}`)).status).toBe(404);
    const tasks = [(await agent.post('/v2/tasks', { content: 'a' })).body.data.id, (await agent.post('/v2/tasks', { content: 'b' })).body.data.id];
    expect((await agent.post('/v2/tasks/bulk', { ids: tasks, delete: true })).body.data).toEqual({ updated: tasks, failed: [] });
  });
});

describe('refused calls', () => {
  const refusal = async (data: unknown, path = '/v2/contacts/bulk') => {
    const answer = await agent.post(path, data);
    return [answer.status, codes(answer), fields(answer)];
  };

  it('refuses a call that names no records, or names them twice over', async () => {
    const id = await contact({ last_name: 'Untouched' });
    expect(await refusal({ update: { title: 'x' } })).toEqual([422, ['missing'], ['/ids']]);
    expect(await refusal({ ids: [id], filters: { tag: 'x' }, update: { title: 'x' } })).toEqual([422, ['incorrect_value'], ['/ids']]);
    expect(await refusal({ ids: [], update: { title: 'x' } })).toEqual([422, ['blank'], ['/ids']]);
    expect(await refusal({ ids: ['7'], update: { title: 'x' } })).toEqual([422, ['invalid_type'], ['/ids']]);
    expect(await refusal({ ids: Array.from({ length: 10_001 }, (_, i) => i + 1), update: { title: 'x' } })).toEqual([422, ['incorrect_value'], ['/ids']]);
    expect(await refusal({ smart_list_id: 'one', update: { title: 'x' } })).toEqual([422, ['invalid_type'], ['/smart_list_id']]);
    expect(await refusal({ filters: ['tag'], update: { title: 'x' } })).toEqual([422, ['invalid_type'], ['/filters']]);
    expect((await record(`/v2/contacts/${id}`)).title).toBeNull();
  });

  it('refuses a call without exactly one change, or with an update no record could take', async () => {
    const id = await contact({ last_name: 'Kept' });
    expect(await refusal({ ids: [id] })).toEqual([422, ['missing'], ['/update']]);
    expect(await refusal({ ids: [id], update: { title: 'x' }, delete: true })).toEqual([422, ['incorrect_value'], ['/update']]);
    expect(await refusal({ ids: [id], delete: false })).toEqual([422, ['incorrect_value'], ['/delete']]);
    expect(await refusal({ ids: [id], update: {} })).toEqual([422, ['blank'], ['/update']]);
    expect(await refusal({ ids: [id], update: 'title' })).toEqual([422, ['invalid_type'], ['/update']]);
    // The PUT's own field table: unknown attributes and wrong types are refused for all.
    expect(await refusal({ ids: [id], update: { colour: 'red' } })).toEqual([422, ['unknown'], ['/update/colour']]);
    expect(await refusal({ ids: [id], update: { owner_id: 'me' } })).toEqual([422, ['invalid_type'], ['/update/owner_id']]);
    expect(await refusal({ ids: [id], update: { tags_add: 'vip' } })).toEqual([422, ['invalid_type'], ['/update/tags_add']]);
    expect(await refusal({ ids: [id], update: { tags: ['a'], tags_add: ['b'] } })).toEqual([422, ['incorrect_value'], ['/update/tags']]);
    expect(await refusal({ ids: [id], update: { title: 'x' }, everything: true })).toEqual([422, ['unknown'], ['/everything']]);
    // Tasks carry no tags.
    expect(await refusal({ ids: [1], update: { tags_add: ['x'] } }, '/v2/tasks/bulk')).toEqual([422, ['unknown'], ['/update/tags_add']]);
    // A body without data is the envelope's usual 422.
    const bare = await call(hub, 'POST', '/v2/contacts/bulk', { token: hub.agentToken, raw: '{"ids":[1]}' });
    expect([bare.status, codes(bare)]).toEqual([422, ['missing']]);
    expect((await record(`/v2/contacts/${id}`)).title).toBeNull();
  });

  it('needs what a single edit needs: a token with the write scope; agents edit as they do one by one', async () => {
    const id = await contact({ last_name: 'Scoped' });
    const readOnly = hub.tokenFor(hub.agentId, ['read', 'profile']);
    const bulk = await call(hub, 'POST', '/v2/contacts/bulk', { token: readOnly, data: { ids: [id], update: { title: 'x' } } });
    const single = await call(hub, 'PUT', `/v2/contacts/${id}`, { token: readOnly, data: { title: 'x' } });
    expect([bulk.status, codes(bulk)]).toEqual([single.status, codes(single)]);
    expect(bulk.status).toBe(403);
    expect((await call(hub, 'POST', '/v2/contacts/bulk', { token: null, data: { ids: [id], update: { title: 'x' } } })).status).toBe(401);
    // An admin's contact, edited by the agent: allowed one by one, so allowed in bulk.
    const adminsOwn = (await admin.post('/v2/contacts', { last_name: 'Admin owned' })).body.data.id;
    expect((await agent.put(`/v2/contacts/${adminsOwn}`, { title: 'by agent' })).status).toBe(200);
    expect((await agent.post('/v2/contacts/bulk', { ids: [adminsOwn], update: { title: 'by agent, in bulk' } })).body.data.updated).toEqual([adminsOwn]);
  });
});

describe('a thousand records', () => {
  // Two thousand writes, one at a time on PostgreSQL: a minute, so a loaded machine does not fail it (speed is the bench's).
  it('changes a thousand records in one call, each logged', { timeout: 60_000 }, async () => {
    const ids: number[] = [];
    for (let i = 0; i < 1000; i++) ids.push(hub.engine.contacts.create({ last_name: `Many ${i}` }, { userId: hub.agentId, role: 'user', scopes: new Set(['write']) }));
    const revision = hub.engine.ctx.changes.currentRevision();
    const answer = await agent.post('/v2/contacts/bulk', { ids, update: { owner_id: hub.adminId, tags_add: ['many'] } });
    expect(answer.body.data.updated).toHaveLength(1000);
    const logged = hub.engine.db.prepare("SELECT count(DISTINCT resource_id) FROM change_log WHERE revision > ? AND resource_type = 'contact'").pluck().get(revision);
    expect(logged).toBe(1000);
    expect((await agent.get('/v2/contacts?tag=many&count=true&per_page=1')).body.meta.total_count).toBe(1000);
  });
});
