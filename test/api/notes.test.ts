import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, fields, startTestHub, type TestHub } from '../support/testHub.js';

let hub: TestHub;
let contactId: number;
const post = (data: unknown, token = hub.agentToken) => call(hub, 'POST', '/v2/notes', { token, data });
const ids = (answer: { body: any }) => answer.body.items.map((i: any) => i.data.id);

beforeAll(async () => {
  hub = await startTestHub();
  contactId = (await call(hub, 'POST', '/v2/contacts', { token: hub.agentToken, data: { last_name: 'Noted' } })).body.data.id;
});
afterAll(() => hub.close());

describe('notes', () => {
  it('creates a note on a record with defaults', async () => {
    const answer = await post({ resource_type: 'contact', resource_id: contactId, content: 'Met at the fair', tags: ['fair', 'fair', 'lead'] });
    expect(answer.status).toBe(200);
    expect(answer.body.meta.type).toBe('note');
    expect(answer.body.data).toMatchObject({
      creator_id: hub.agentId, resource_type: 'contact', resource_id: contactId, content: 'Met at the fair',
      is_important: false, tags: ['fair', 'lead'], type: 'regular',
    });
  });

  it('requires resource_type, resource_id and content, and an existing record', async () => {
    expect(fields(await post({})).sort()).toEqual(['/content', '/resource_id', '/resource_type']);
    expect(codes(await post({ resource_type: 'contact', resource_id: contactId, content: '' }))).toEqual(['blank']);
    expect(fields(await post({ resource_type: 'contact', resource_id: 424242, content: 'x' }))).toEqual(['/resource_id']);
    expect(codes(await post({ resource_type: 'contact', resource_id: contactId, content: 'x', type: 'secret' }))).toEqual(['incorrect_value']);
  });

  it('keeps restricted notes to their creator, everywhere', async () => {
    const secret = (await post({ resource_type: 'contact', resource_id: contactId, content: 'Private pricing remark', type: 'restricted' })).body.data;
    expect((await call(hub, 'GET', `/v2/notes/${secret.id}`, { token: hub.agentToken })).status).toBe(200);
    for (const [method, data] of [['GET', undefined], ['PUT', { content: 'hijack' }], ['DELETE', undefined]] as const) {
      const answer = await call(hub, method, `/v2/notes/${secret.id}`, { token: hub.adminToken, data });
      expect(answer.status, method).toBe(404);
    }
    const adminList = await call(hub, 'GET', `/v2/notes?resource_type=contact&resource_id=${contactId}&q=pricing`, { token: hub.adminToken });
    expect(ids(adminList)).toEqual([]);
    const ownList = await call(hub, 'GET', `/v2/notes?resource_type=contact&resource_id=${contactId}&q=pricing`, { token: hub.agentToken });
    expect(ids(ownList)).toEqual([secret.id]);
  });

  it('updates, stars, searches, accepts includes, and deletes', async () => {
    const note = (await post({ resource_type: 'contact', resource_id: contactId, content: 'Follow up on the quote' })).body.data;
    const updated = await call(hub, 'PUT', `/v2/notes/${note.id}`, { token: hub.agentToken, data: { is_important: true, tags: ['quote'] } });
    expect(updated.body.data).toMatchObject({ is_important: true, tags: ['quote'], content: 'Follow up on the quote' });
    expect(ids(await call(hub, 'GET', '/v2/notes?q=quot&includes=creator', { token: hub.agentToken }))).toEqual([note.id]);
    expect(codes(await call(hub, 'GET', '/v2/notes?sort_by=content', { token: hub.agentToken }))).toEqual(['invalid_param']);
    expect((await call(hub, 'GET', '/v2/notes?sort_by=created_at:desc', { token: hub.agentToken })).status).toBe(200);
    expect((await call(hub, 'DELETE', `/v2/notes/${note.id}`, { token: hub.agentToken })).status).toBe(204);
    expect((await call(hub, 'GET', `/v2/notes/${note.id}`, { token: hub.agentToken })).status).toBe(404);
  });

  it('goes with its record when the record is deleted', async () => {
    const contact = (await call(hub, 'POST', '/v2/contacts', { token: hub.agentToken, data: { last_name: 'Temporary' } })).body.data;
    const note = (await post({ resource_type: 'contact', resource_id: contact.id, content: 'Soon gone' })).body.data;
    await call(hub, 'DELETE', `/v2/contacts/${contact.id}`, { token: hub.agentToken });
    expect((await call(hub, 'GET', `/v2/notes/${note.id}`, { token: hub.agentToken })).status).toBe(404);
  });
});
