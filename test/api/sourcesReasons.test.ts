import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, fields, startTestHub, type TestHub } from '../support/testHub.js';

let hub: TestHub;
const as = (token: string) => ({
  get: (path: string) => call(hub, 'GET', path, { token }),
  post: (path: string, data: unknown) => call(hub, 'POST', path, { token, data }),
  put: (path: string, data: unknown) => call(hub, 'PUT', path, { token, data }),
  del: (path: string) => call(hub, 'DELETE', path, { token }),
});
let agent: ReturnType<typeof as>;
let admin: ReturnType<typeof as>;
const names = (answer: { body: any }) => answer.body.items.map((i: any) => i.data.name);
const ids = (answer: { body: any }) => answer.body.items.map((i: any) => i.data.id);

beforeAll(async () => {
  hub = await startTestHub();
  agent = as(hub.agentToken);
  admin = as(hub.adminToken);
});
afterAll(() => hub.close());

describe('lead sources, deal sources and the older combined sources', () => {
  it('serves each kind at its own endpoint, with the spec fields and meta type source', async () => {
    const created = await agent.post('/v2/lead_sources', { name: 'Newsletter' });
    expect(created.status).toBe(200);
    expect(created.body.meta.type).toBe('source');
    expect(Object.keys(created.body.data).sort()).toEqual(['created_at', 'creator_id', 'id', 'name', 'resource_type', 'updated_at']);
    expect(created.body.data).toMatchObject({ name: 'Newsletter', resource_type: 'lead', creator_id: hub.agentId });
    const dealSource = (await agent.post('/v2/deal_sources', { name: 'Newsletter' })).body.data;
    expect(dealSource.resource_type).toBe('deal');

    expect(names(await agent.get('/v2/lead_sources?name=Newsletter'))).toEqual(['Newsletter']);
    expect(ids(await agent.get('/v2/lead_sources?name=Newsletter'))).toEqual([created.body.data.id]);
    expect(ids(await agent.get('/v2/deal_sources?name=Newsletter'))).toEqual([dealSource.id]);
    // The older endpoint shows both kinds and filters by kind.
    expect(ids(await agent.get('/v2/sources?name=Newsletter'))).toEqual([created.body.data.id, dealSource.id]);
    expect(ids(await agent.get('/v2/sources?name=Newsletter&resource_type=deal'))).toEqual([dealSource.id]);
    // A source of the other kind is not found at a kind's endpoint.
    expect(codes(await agent.get(`/v2/lead_sources/${dealSource.id}`))).toEqual(['not_found']);
    expect((await agent.get(`/v2/sources/${dealSource.id}`)).body.data.id).toBe(dealSource.id);
    // New sources at the older endpoint are deal sources unless told otherwise.
    expect((await agent.post('/v2/sources', { name: 'Partner' })).body.data.resource_type).toBe('deal');
    expect((await agent.post('/v2/sources', { name: 'Partner', resource_type: 'lead' })).body.data.resource_type).toBe('lead');
  });

  it('keeps lead source names unique (the spec demands it), on create, on update and on a change of kind', async () => {
    await agent.post('/v2/lead_sources', { name: 'Fair 2026' });
    const dup = await agent.post('/v2/lead_sources', { name: 'Fair 2026' });
    expect([dup.status, codes(dup), fields(dup)]).toEqual([422, ['already_exists'], ['/name']]);
    expect(codes(await agent.post('/v2/lead_sources', { name: '  Fair 2026 ' }))).toEqual(['already_exists']);
    expect(codes(await agent.post('/v2/sources', { name: 'Fair 2026', resource_type: 'lead' }))).toEqual(['already_exists']);
    const other = (await agent.post('/v2/lead_sources', { name: 'Fair 2027' })).body.data;
    expect(codes(await agent.put(`/v2/lead_sources/${other.id}`, { name: 'Fair 2026' }))).toEqual(['already_exists']);
    expect(codes(await agent.post('/v2/lead_sources', { name: 'Fair', resource_type: 'deal' }))).toEqual(['incorrect_value']);
    const unused = (await agent.post('/v2/deal_sources', { name: 'Fair 2026' })).body.data;
    expect(codes(await agent.put(`/v2/sources/${unused.id}`, { resource_type: 'lead' }))).toEqual(['already_exists']);
  });

  it('lets deal sources share a name, as the spec demands nothing of them', async () => {
    const first = await agent.post('/v2/deal_sources', { name: 'Fair 2030' });
    const second = await agent.post('/v2/deal_sources', { name: 'Fair 2030' });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect((await agent.post('/v2/sources', { name: 'Fair 2030' })).status).toBe(200);
    const renamed = await agent.put(`/v2/deal_sources/${second.body.data.id}`, { name: 'Fair 2030' });
    expect(renamed.status).toBe(200);
    expect(ids(await agent.get('/v2/deal_sources?name=Fair%202030'))).toHaveLength(3);
  });

  it('checks the body: name required and not blank, unknown attributes refused, what GET returned accepted back', async () => {
    const missing = await agent.post('/v2/lead_sources', {});
    expect([missing.status, codes(missing), fields(missing)]).toEqual([422, ['missing'], ['/name']]);
    expect(codes(await agent.post('/v2/lead_sources', { name: '  ' }))).toEqual(['blank']);
    expect(codes(await agent.post('/v2/lead_sources', { name: 7 }))).toEqual(['invalid_type']);
    expect(codes(await agent.post('/v2/lead_sources', { name: 'X', colour: 'red' }))).toEqual(['unknown']);
    const source = (await agent.post('/v2/lead_sources', { name: 'Webinar' })).body.data;
    const back = await agent.put(`/v2/lead_sources/${source.id}`, source);
    expect(back.status).toBe(200);
    expect(back.body.data).toMatchObject({ id: source.id, name: 'Webinar', resource_type: 'lead' });
    hub.clock.advance(2000);
    const renamed = await agent.put(`/v2/lead_sources/${source.id}`, { name: 'Webinars' });
    expect(renamed.body.data.name).toBe('Webinars');
    expect(renamed.body.data.updated_at > source.updated_at).toBe(true);
  });

  it('sorts by id, name, created_at and updated_at, filters by ids, and refuses other sorts and filters', async () => {
    const all = ids(await agent.get('/v2/lead_sources?per_page=100'));
    expect(all).toEqual([...all].sort((a: number, b: number) => a - b));
    const byName = names(await agent.get('/v2/lead_sources?per_page=100&sort_by=name'));
    expect(byName).toEqual([...byName].sort());
    expect(names(await agent.get('/v2/lead_sources?per_page=100&sort_by=name:desc'))).toEqual([...byName].reverse());
    expect((await agent.get('/v2/lead_sources?sort_by=updated_at:desc')).status).toBe(200);
    expect((await agent.get('/v2/lead_sources?sort_by=created_at')).status).toBe(200);
    expect(ids(await agent.get(`/v2/lead_sources?ids=${all[1]},${all[0]}`))).toEqual([all[0], all[1]]);
    expect(codes(await agent.get('/v2/lead_sources?sort_by=colour'))).toEqual(['invalid_param']);
    expect(codes(await agent.get('/v2/lead_sources?resource_type=deal'))).toEqual(['invalid_param']);
  });

  it('deletes with 204; the source is gone and deleting it again is 404', async () => {
    const source = (await agent.post('/v2/deal_sources', { name: 'Billboard' })).body.data;
    expect(codes(await agent.del(`/v2/lead_sources/${source.id}`))).toEqual(['not_found']);
    const deleted = await agent.del(`/v2/deal_sources/${source.id}`);
    expect([deleted.status, deleted.text]).toEqual([204, '']);
    expect(codes(await agent.get(`/v2/deal_sources/${source.id}`))).toEqual(['not_found']);
    expect(codes(await agent.del(`/v2/deal_sources/${source.id}`))).toEqual(['not_found']);
  });

  it('comes with defaults of each kind, so a fresh hub lists something', async () => {
    expect((await agent.get('/v2/lead_sources?per_page=1')).body.items).toHaveLength(1);
    expect((await agent.get('/v2/deal_sources?per_page=1')).body.items).toHaveLength(1);
  });
});

describe('loss reasons and unqualified reasons', () => {
  for (const path of ['/v2/loss_reasons', '/v2/deal_unqualified_reasons', '/v2/lead_unqualified_reasons']) {
    const type = path.slice(4, -1);
    it(`${path}: seeded, read by everyone, managed by admins`, async () => {
      const seeded = await agent.get(`${path}?per_page=1`);
      expect(seeded.body.items).toHaveLength(1);
      expect(seeded.body.items[0].meta.type).toBe(type);
      expect(Object.keys(seeded.body.items[0].data).sort()).toEqual(['created_at', 'creator_id', 'id', 'name', 'updated_at']);

      expect(codes(await agent.post(path, { name: 'Went quiet' }))).toEqual(['forbidden']);
      const created = await admin.post(path, { name: 'Went quiet' });
      expect([created.status, created.body.data.name, created.body.data.creator_id]).toEqual([200, 'Went quiet', hub.adminId]);
      // Names may repeat (the Ruby client's tests name loss reasons by the second, several a second).
      const twin = await admin.post(path, { name: 'Went quiet' });
      expect(twin.status).toBe(200);
      const id = created.body.data.id;
      expect((await agent.get(`${path}/${id}`)).body.data.name).toBe('Went quiet');
      expect(ids(await agent.get(`${path}?name=Went%20quiet`))).toEqual([id, twin.body.data.id]);
      expect((await admin.del(`${path}/${twin.body.data.id}`)).status).toBe(204);
      expect(codes(await agent.put(`${path}/${id}`, { name: 'Silent' }))).toEqual(['forbidden']);
      expect((await admin.put(`${path}/${id}`, created.body.data)).status).toBe(200);
      expect((await admin.put(`${path}/${id}`, { name: 'Silent' })).body.data.name).toBe('Silent');
      expect(codes(await agent.del(`${path}/${id}`))).toEqual(['forbidden']);
      expect((await admin.del(`${path}/${id}`)).status).toBe(204);
      expect(codes(await agent.get(`${path}/${id}`))).toEqual(['not_found']);
    });
  }
});

describe('visit outcomes', () => {
  it('may share a name, like call outcomes and reasons', async () => {
    const names = [await admin.post('/v2/visit_outcomes', { name: 'Shop closed' }), await admin.post('/v2/visit_outcomes', { name: 'Shop closed' })];
    expect(names.map((answer) => answer.status)).toEqual([200, 200]);
  });
});
