import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, fields, startTestHub, type TestHub } from '../support/testHub.js';

let hub: TestHub;
let personId: number;
let organizationId: number;
let otherAgentToken: string;
let otherAgentId: number;
const as = (token: string) => ({
  get: (path: string) => call(hub, 'GET', path, { token }),
  post: (data: unknown) => call(hub, 'POST', '/v2/collaborations', { token, data }),
  del: (id: number) => call(hub, 'DELETE', `/v2/collaborations/${id}`, { token }),
});
const ids = (answer: { body: any }) => answer.body.items.map((i: any) => i.data.id);

beforeAll(async () => {
  hub = await startTestHub();
  organizationId = (await call(hub, 'POST', '/v2/contacts', { token: hub.agentToken, data: { is_organization: true, name: 'Acme' } })).body.data.id;
  personId = (await call(hub, 'POST', '/v2/contacts', { token: hub.agentToken, data: { last_name: 'Doe', contact_id: organizationId } })).body.data.id;
  otherAgentId = await hub.engine.users.create({ email: 'pat@example.com', password: 'pat-secret-12', name: 'Pat Agent', role: 'user' });
  otherAgentToken = hub.tokenFor(otherAgentId);
});
afterAll(() => hub.close());

describe('/v2/collaborations', () => {
  it('creates and retrieves a collaboration with the spec fields', async () => {
    const created = await as(hub.agentToken).post({ resource_type: 'contact', resource_id: personId, collaborator_id: otherAgentId });
    expect([created.status, created.body.meta.type]).toEqual([200, 'collaboration']);
    expect(Object.keys(created.body.data).sort()).toEqual(['collaborator_id', 'created_at', 'creator_id', 'id', 'resource_id', 'resource_type', 'updated_at']);
    expect(created.body.data).toMatchObject({ resource_type: 'contact', resource_id: personId, collaborator_id: otherAgentId, creator_id: hub.agentId });
    expect((await as(hub.agentToken).get(`/v2/collaborations/${created.body.data.id}`)).body.data).toEqual(created.body.data);
  });

  it('requires resource_type, resource_id and collaborator_id, each naming something that exists', async () => {
    const agent = as(hub.agentToken);
    const empty = await agent.post({});
    expect([empty.status, fields(empty).sort()]).toEqual([422, ['/collaborator_id', '/resource_id', '/resource_type']]);
    expect(codes(empty)).toEqual(['missing', 'missing', 'missing']);
    expect(fields(await agent.post({ resource_type: 'task', resource_id: personId, collaborator_id: otherAgentId }))).toEqual(['/resource_type']);
    expect(fields(await agent.post({ resource_type: 'contact', resource_id: 999999, collaborator_id: otherAgentId }))).toEqual(['/resource_id']);
    expect(fields(await agent.post({ resource_type: 'contact', resource_id: personId, collaborator_id: 999999 }))).toEqual(['/collaborator_id']);
    expect(codes(await agent.post({ resource_type: 'contact', resource_id: personId, collaborator_id: hub.agentId, role: 'x' }))).toEqual(['unknown']);
    // A sales account is an organization's account: a person is not one.
    expect(fields(await agent.post({ resource_type: 'sales_account', resource_id: personId, collaborator_id: otherAgentId }))).toEqual(['/resource_id']);
    expect((await agent.post({ resource_type: 'sales_account', resource_id: organizationId, collaborator_id: otherAgentId })).status).toBe(200);
    // The same user once per record.
    const again = await agent.post({ resource_type: 'sales_account', resource_id: organizationId, collaborator_id: otherAgentId });
    expect([again.status, codes(again), fields(again)]).toEqual([422, ['already_exists'], ['/collaborator_id']]);
  });

  it('cannot be updated: a PUT answers 405 in the error envelope', async () => {
    const created = (await as(hub.agentToken).post({ resource_type: 'contact', resource_id: organizationId, collaborator_id: hub.adminId })).body.data;
    const put = await call(hub, 'PUT', `/v2/collaborations/${created.id}`, { token: hub.agentToken, data: { collaborator_id: otherAgentId } });
    expect([put.status, codes(put), put.headers.get('allow')]).toEqual([405, ['method_not_allowed'], 'GET, DELETE']);
    expect((await as(hub.agentToken).get(`/v2/collaborations/${created.id}`)).body.data.collaborator_id).toBe(hub.adminId);
  });

  it('lists with the spec filters (includes accepted and ignored) and sorts', async () => {
    const agent = as(hub.agentToken);
    const onPerson = ids(await agent.get(`/v2/collaborations?resource_type=contact&resource_id=${personId}`));
    expect(onPerson).toHaveLength(1);
    expect(ids(await agent.get(`/v2/collaborations?resource_type=contact&resource_id=${personId}&includes=collaborator`))).toEqual(onPerson);
    const all = ids(await agent.get('/v2/collaborations'));
    expect(all).toEqual([...all].sort((a: number, b: number) => a - b));
    expect(ids(await agent.get('/v2/collaborations?sort_by=id:desc'))).toEqual([...all].reverse());
    expect(ids(await agent.get(`/v2/collaborations?creator_id=${hub.agentId}`))).toEqual(all);
    expect(ids(await agent.get(`/v2/collaborations?creator_id=${hub.adminId}`))).toEqual([]);
    expect(ids(await agent.get(`/v2/collaborations?ids=${all[0]}`))).toEqual([all[0]]);
    expect(codes(await agent.get('/v2/collaborations?resource_type=task'))).toEqual(['invalid_param']);
    expect(codes(await agent.get('/v2/collaborations?colour=red'))).toEqual(['invalid_param']);
  });

  it('is deleted by an admin, its creator or the collaborator; others get 403', async () => {
    const created = (await as(hub.adminToken).post({ resource_type: 'contact', resource_id: personId, collaborator_id: hub.agentId })).body.data;
    const third = (await as(hub.agentToken).post({ resource_type: 'contact', resource_id: personId, collaborator_id: hub.adminId })).body.data;
    expect(codes(await as(otherAgentToken).del(third.id))).toEqual(['forbidden']);
    expect((await as(hub.agentToken).del(created.id)).status).toBe(204); // the collaborator leaves
    expect((await as(hub.adminToken).del(third.id)).status).toBe(204);
    expect(codes(await as(hub.adminToken).del(third.id))).toEqual(['not_found']);
  });

  it('goes with its record: deleting an organization removes its contact and sales account collaborations', async () => {
    const agent = as(hub.agentToken);
    const org = (await call(hub, 'POST', '/v2/contacts', { token: hub.agentToken, data: { is_organization: true, name: 'Gone Ltd' } })).body.data.id;
    const a = (await agent.post({ resource_type: 'contact', resource_id: org, collaborator_id: otherAgentId })).body.data.id;
    const b = (await agent.post({ resource_type: 'sales_account', resource_id: org, collaborator_id: otherAgentId })).body.data.id;
    expect((await call(hub, 'DELETE', `/v2/contacts/${org}`, { token: hub.agentToken })).status).toBe(204);
    expect(codes(await agent.get(`/v2/collaborations/${a}`))).toEqual(['not_found']);
    expect(codes(await agent.get(`/v2/collaborations/${b}`))).toEqual(['not_found']);
  });
});
