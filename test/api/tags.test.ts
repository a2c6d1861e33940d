import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, fields, startTestHub, type TestHub } from '../support/testHub.js';

let hub: TestHub;
const get = (path: string) => call(hub, 'GET', path, { token: hub.agentToken });
const post = (path: string, data: unknown) => call(hub, 'POST', path, { token: hub.agentToken, data });
const put = (path: string, data: unknown) => call(hub, 'PUT', path, { token: hub.agentToken, data });
const del = (path: string) => call(hub, 'DELETE', path, { token: hub.agentToken });
const names = (answer: { body: any }) => answer.body.items.map((i: any) => i.data.name);
const tagId = async (name: string, type: string) => (await get(`/v2/tags?name=${encodeURIComponent(name)}&resource_type=${type}`)).body.items[0]?.data.id as number | undefined;
/** The change-log events recorded for a record since a revision. */
const eventsSince = (revision: number, type: string, id: number) =>
  hub.engine.db.prepare('SELECT event_type FROM change_log WHERE revision > ? AND resource_type = ? AND resource_id = ?').pluck().all(revision, type, id);

beforeAll(async () => {
  hub = await startTestHub();
});
afterAll(() => hub.close());

describe('/v2/tags', () => {
  it('creates, retrieves, updates and deletes a tag with the spec fields', async () => {
    const created = await post('/v2/tags', { name: 'publisher', resource_type: 'contact' });
    expect([created.status, created.body.meta.type]).toEqual([200, 'tag']);
    expect(Object.keys(created.body.data).sort()).toEqual(['created_at', 'creator_id', 'id', 'name', 'resource_type', 'updated_at']);
    expect(created.body.data).toMatchObject({ name: 'publisher', resource_type: 'contact', creator_id: hub.agentId });
    const id = created.body.data.id;
    expect((await get(`/v2/tags/${id}`)).body.data).toEqual(created.body.data);
    // What GET returned is accepted back (clients PUT the whole record).
    expect((await put(`/v2/tags/${id}`, created.body.data)).status).toBe(200);
    expect((await put(`/v2/tags/${id}`, { name: 'publishers' })).body.data.name).toBe('publishers');
    const deleted = await del(`/v2/tags/${id}`);
    expect([deleted.status, deleted.text]).toEqual([204, '']);
    expect(codes(await get(`/v2/tags/${id}`))).toEqual(['not_found']);
    expect(codes(await put(`/v2/tags/${id}`, { name: 'x' }))).toEqual(['not_found']);
    expect(codes(await del(`/v2/tags/${id}`))).toEqual(['not_found']);
  });

  it('requires name and resource_type, and keeps a name unique within its resource_type', async () => {
    const empty = await post('/v2/tags', {});
    expect([empty.status, codes(empty), fields(empty).sort()]).toEqual([422, ['missing', 'missing'], ['/name', '/resource_type']]);
    expect(codes(await post('/v2/tags', { name: ' ', resource_type: 'lead' }))).toEqual(['blank']);
    expect(codes(await post('/v2/tags', { name: 'x', resource_type: 'note' }))).toEqual(['incorrect_value']);
    expect(codes(await post('/v2/tags', { name: 'x', resource_type: 'lead', colour: 'red' }))).toEqual(['unknown']);
    expect((await post('/v2/tags', { name: 'vip', resource_type: 'lead' })).status).toBe(200);
    const dup = await post('/v2/tags', { name: 'vip', resource_type: 'lead' });
    expect([dup.status, codes(dup), fields(dup)]).toEqual([422, ['already_exists'], ['/name']]);
    // The same name for another resource type is another tag.
    expect((await post('/v2/tags', { name: 'vip', resource_type: 'deal' })).status).toBe(200);
    const other = (await post('/v2/tags', { name: 'vip-2', resource_type: 'lead' })).body.data;
    expect(codes(await put(`/v2/tags/${other.id}`, { name: 'vip' }))).toEqual(['already_exists']);
    expect(codes(await put(`/v2/tags/${other.id}`, { resource_type: 'deal', name: 'vip' }))).toEqual(['already_exists']);
  });

  it('lists with the spec filters and sorts, by updated_at by default', async () => {
    for (const name of ['zeta', 'alpha', 'mid']) {
      hub.clock.advance(1000);
      await post('/v2/tags', { name, resource_type: 'deal' });
    }
    expect(names(await get('/v2/tags?resource_type=deal&per_page=100')).slice(-3)).toEqual(['zeta', 'alpha', 'mid']);
    const byName = names(await get('/v2/tags?resource_type=deal&sort_by=name&per_page=100'));
    expect(byName).toEqual([...byName].sort());
    expect(names(await get('/v2/tags?resource_type=deal&sort_by=name:desc&per_page=100'))).toEqual([...byName].reverse());
    expect(names(await get('/v2/tags?resource_type=deal&sort_by=created_at:desc&per_page=1'))).toEqual(['mid']);
    expect(names(await get('/v2/tags?name=alpha'))).toEqual(['alpha']);
    expect((await get(`/v2/tags?creator_id=${hub.adminId}`)).body.items).toEqual([]);
    const ids = (await get('/v2/tags?resource_type=deal&per_page=2')).body.items.map((i: any) => i.data.id);
    expect((await get(`/v2/tags?ids=${ids.join(',')}`)).body.items.map((i: any) => i.data.id)).toEqual([...ids].sort((a, b) => a - b));
    expect(codes(await get('/v2/tags?sort_by=colour'))).toEqual(['invalid_param']);
    expect(codes(await get('/v2/tags?resource_type=note'))).toEqual(['invalid_param']);
  });

  it('renames and removes a tag on every record that carries it, notes included, and tells devices', async () => {
    const contact = (await post('/v2/contacts', { last_name: 'Tagged', tags: ['key account', 'north'] })).body.data;
    const note = (await post('/v2/notes', { resource_type: 'contact', resource_id: contact.id, content: 'Met', tags: ['key account', 'q3'] })).body.data;
    // The note's tags are tags of contacts: created as needed.
    expect(await tagId('q3', 'contact')).toBeTypeOf('number');
    const id = (await tagId('key account', 'contact'))!;

    let revision = hub.engine.ctx.changes.currentRevision();
    expect((await put(`/v2/tags/${id}`, { name: 'strategic' })).status).toBe(200);
    expect((await get(`/v2/contacts/${contact.id}`)).body.data.tags).toEqual(['north', 'strategic']);
    expect((await get(`/v2/notes/${note.id}`)).body.data.tags).toEqual(['q3', 'strategic']);
    expect(eventsSince(revision, 'contact', contact.id)).toEqual(['updated']);
    expect(eventsSince(revision, 'note', note.id)).toEqual(['updated']);

    // A tag in use keeps its resource_type.
    expect(codes(await put(`/v2/tags/${id}`, { resource_type: 'deal' }))).toEqual(['incorrect_value']);

    revision = hub.engine.ctx.changes.currentRevision();
    expect((await del(`/v2/tags/${id}`)).status).toBe(204);
    expect((await get(`/v2/contacts/${contact.id}`)).body.data.tags).toEqual(['north']);
    expect((await get(`/v2/notes/${note.id}`)).body.data.tags).toEqual(['q3']);
    expect((await get('/v2/contacts?tag=strategic')).body.items).toEqual([]);
    expect(eventsSince(revision, 'contact', contact.id)).toEqual(['updated']);
    expect(eventsSince(revision, 'note', note.id)).toEqual(['updated']);
    expect(eventsSince(revision, 'tag', id)).toEqual(['deleted']);
    // Tagging the contact again creates the tag anew.
    await put(`/v2/contacts/${contact.id}`, { tags: ['north', 'strategic'] });
    expect(await tagId('strategic', 'contact')).not.toBe(id);
  });
});
