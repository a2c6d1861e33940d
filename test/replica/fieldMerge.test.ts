import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestHub, type TestHub } from '../support/testHub.js';
import { startCabledReplica, type TestReplica } from '../support/testReplica.js';

/**
 * Offline edits merge field by field. A real hub and real replicas,
 * each a real engine on its own SQLite file over real HTTP on 127.0.0.1; the
 * one stand-in is each replica's network cable, with a switch to cut it.
 */
let hub: TestHub;
const open: TestReplica[] = [];

beforeAll(async () => {
  hub = await startTestHub();
});
afterAll(async () => {
  for (const r of open) await r.close();
  await hub.close();
});

async function replicaOf(userId: number): Promise<TestReplica & { net: { online: boolean } }> {
  const r = await startCabledReplica(hub, userId);
  open.push(r);
  return r;
}

const onHub = async (path: string) => (await call(hub, 'GET', path, { token: hub.adminToken })).body.data;
const local = async (r: TestReplica, path: string) => (await call(r.local, 'GET', path, { token: r.token })).body.data;

async function contactOnBoth(r: TestReplica, data: Record<string, unknown>): Promise<number> {
  const made = await call(hub, 'POST', '/v2/contacts', { token: hub.adminToken, data: { owner_id: hub.agentId, ...data } });
  expect(made.status).toBe(200);
  await r.replica.sync();
  expect(await local(r, `/v2/contacts/${made.body.data.id}`)).toMatchObject(data);
  return made.body.data.id;
}

describe('an offline edit and a colleague’s edit of one record', () => {
  it('keeps the colleague’s email when the rep, offline, corrects only the phone', async () => {
    const rep = await replicaOf(hub.agentId);
    const id = await contactOnBoth(rep, { last_name: 'Okafor', email: 'old@example.com', phone: '111' });
    rep.net.online = false;
    expect((await call(hub, 'PUT', `/v2/contacts/${id}`, { token: hub.adminToken, data: { email: 'new@example.com' } })).status).toBe(200);
    // The edit form as it was: every field, the email as the rep last saw it.
    const saved = await call(rep.local, 'PUT', `/v2/contacts/${id}`, { token: rep.token, data: { last_name: 'Okafor', email: 'old@example.com', phone: '222' } });
    expect(saved.status).toBe(200);
    const queued = rep.engine.ctx.replica!.outbox.pending();
    expect(queued.map((e) => [e.method, JSON.parse(e.data!), JSON.parse(e.base!)])).toEqual([['PUT', { phone: '222' }, { phone: '111' }]]);
    rep.net.online = true;
    expect(await rep.replica.sync()).toMatchObject({ pending: 0, issues: 0, conflicts: 0 });
    expect(await onHub(`/v2/contacts/${id}`)).toMatchObject({ email: 'new@example.com', phone: '222' });
    await rep.replica.sync();
    expect(await local(rep, `/v2/contacts/${id}`)).toMatchObject({ email: 'new@example.com', phone: '222' });
  });

  it('shows a field changed on both sides as a conflict, with who changed it and when, until the rep chooses', async () => {
    const rep = await replicaOf(hub.agentId);
    const id = await contactOnBoth(rep, { last_name: 'Lindqvist', title: 'Buyer', email: 'l@example.com' });
    rep.net.online = false;
    hub.clock.advance(60_000);
    const theirsAt = new Date(hub.clock.now()).toISOString().replace('.000', '');
    await call(hub, 'PUT', `/v2/contacts/${id}`, { token: hub.adminToken, data: { title: 'Head of purchasing' } });
    hub.clock.advance(60_000);
    await call(rep.local, 'PUT', `/v2/contacts/${id}`, { token: rep.token, data: { title: 'Chief buyer', email: 'lq@example.com' } });
    rep.net.online = true;
    const status = await rep.replica.sync();
    expect(status).toMatchObject({ pending: 0, issues: 0, conflicts: 1 });
    // The hub kept its title and took the rep's email; the replica shows the hub's state.
    expect(await onHub(`/v2/contacts/${id}`)).toMatchObject({ title: 'Head of purchasing', email: 'lq@example.com' });
    expect(await local(rep, `/v2/contacts/${id}`)).toMatchObject({ title: 'Head of purchasing', email: 'lq@example.com' });
    const listed = await call(rep.local, 'GET', `/v2/replica/conflicts?resource_type=contact&record_id=${id}&count=true`, { token: rep.token });
    expect(listed.body.meta.total_count).toBe(1);
    const conflict = listed.body.items[0].data;
    expect(conflict).toMatchObject({
      resource_type: 'contact', record_id: id, field: 'title',
      yours: { value: 'Chief buyer' }, theirs: { value: 'Head of purchasing', changed_by_id: hub.adminId, changed_at: theirsAt },
    });

    // Keeping the rep's value sends it, against the hub's value: the hub takes it.
    const kept = await call(rep.local, 'POST', `/v2/replica/conflicts/${conflict.id}/resolve`, { token: rep.token, data: { keep: 'yours' } });
    expect(kept.status).toBe(200);
    expect(kept.body.data.conflicts).toBe(0);
    expect(await rep.replica.sync()).toMatchObject({ pending: 0, issues: 0, conflicts: 0 });
    expect(await onHub(`/v2/contacts/${id}`)).toMatchObject({ title: 'Chief buyer' });
  });

  it('lets the rep keep the hub’s value or type a third, and refuses a choice that is neither', async () => {
    const rep = await replicaOf(hub.agentId);
    const id = await contactOnBoth(rep, { last_name: 'Moreau', title: 'A', description: 'x' });
    rep.net.online = false;
    await call(hub, 'PUT', `/v2/contacts/${id}`, { token: hub.adminToken, data: { title: 'B', description: 'hub' } });
    await call(rep.local, 'PUT', `/v2/contacts/${id}`, { token: rep.token, data: { title: 'C', description: 'rep' } });
    rep.net.online = true;
    expect(await rep.replica.sync()).toMatchObject({ conflicts: 2 });
    const [title, description] = (await call(rep.local, 'GET', '/v2/replica/conflicts', { token: rep.token })).body.items.map((i: any) => i.data)
      .filter((c: any) => c.record_id === id).sort((a: any, b: any) => a.field.localeCompare(b.field)).reverse();
    expect([title.field, description.field]).toEqual(['title', 'description']);

    const bad = await call(rep.local, 'POST', `/v2/replica/conflicts/${title.id}/resolve`, { token: rep.token, data: { keep: 'both' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].error).toMatchObject({ field: '/keep', code: 'incorrect_value' });
    expect((await call(rep.local, 'POST', '/v2/replica/conflicts/999999/resolve', { token: rep.token, data: { keep: 'theirs' } })).status).toBe(404);

    expect((await call(rep.local, 'POST', `/v2/replica/conflicts/${description.id}/resolve`, { token: rep.token, data: { keep: 'theirs' } })).status).toBe(200);
    expect((await call(rep.local, 'POST', `/v2/replica/conflicts/${title.id}/resolve`, { token: rep.token, data: { value: 'D' } })).status).toBe(200);
    expect(await rep.replica.sync()).toMatchObject({ pending: 0, issues: 0, conflicts: 0 });
    expect(await onHub(`/v2/contacts/${id}`)).toMatchObject({ title: 'D', description: 'hub' });
    expect(await local(rep, `/v2/contacts/${id}`)).toMatchObject({ title: 'D', description: 'hub' });
  });

  it('is no conflict when both sides made the same change', async () => {
    const rep = await replicaOf(hub.agentId);
    const id = await contactOnBoth(rep, { last_name: 'Same', title: 'Old' });
    rep.net.online = false;
    await call(hub, 'PUT', `/v2/contacts/${id}`, { token: hub.adminToken, data: { title: 'New' } });
    await call(rep.local, 'PUT', `/v2/contacts/${id}`, { token: rep.token, data: { title: 'New' } });
    rep.net.online = true;
    expect(await rep.replica.sync()).toMatchObject({ pending: 0, issues: 0, conflicts: 0 });
  });

  it('merges tags, custom fields and address keys item by item', async () => {
    for (const name of ['Size', 'Region']) {
      expect((await call(hub, 'POST', '/v2/contact/custom_fields', { token: hub.adminToken, data: { name, type: 'string' } })).status).toBe(200);
    }
    const rep = await replicaOf(hub.agentId);
    const id = await contactOnBoth(rep, {
      last_name: 'Items', tags: ['a'], custom_fields: { Size: 'S', Region: 'North' },
      address: { line1: '1 Main St', city: 'Springfield', postal_code: '11111', state: null, country: null },
    });
    rep.net.online = false;
    await call(hub, 'PUT', `/v2/contacts/${id}`, { token: hub.adminToken, data: {
      tags: ['a', 'hub'], custom_fields: { Region: 'South' }, address: { line1: '1 Main St', city: 'Springfield', postal_code: '22222' },
    } });
    await call(rep.local, 'PUT', `/v2/contacts/${id}`, { token: rep.token, data: {
      tags: ['a', 'rep'], custom_fields: { Size: 'L' }, address: { line1: '1 Main St', city: 'Shelbyville', postal_code: '11111' },
    } });
    rep.net.online = true;
    expect(await rep.replica.sync()).toMatchObject({ pending: 0, issues: 0, conflicts: 0 });
    const merged = await onHub(`/v2/contacts/${id}`);
    expect([...merged.tags].sort()).toEqual(['a', 'hub', 'rep']);
    expect(merged.custom_fields).toEqual({ Size: 'L', Region: 'South' });
    expect(merged.address).toMatchObject({ line1: '1 Main St', city: 'Shelbyville', postal_code: '22222' });
    await rep.replica.sync();
    const seen = await local(rep, `/v2/contacts/${id}`);
    expect([...seen.tags].sort()).toEqual(['a', 'hub', 'rep']);
    expect(seen.address).toMatchObject({ city: 'Shelbyville', postal_code: '22222' });
  });

  it('gives the second of two replicas editing one field the conflict', async () => {
    const first = await replicaOf(hub.agentId);
    const second = await replicaOf(hub.agentId);
    const made = await call(hub, 'POST', '/v2/contacts', { token: hub.agentToken, data: { last_name: 'Twice', title: 'T0' } });
    const id = made.body.data.id;
    await first.replica.sync();
    await second.replica.sync();
    first.net.online = second.net.online = false;
    await call(first.local, 'PUT', `/v2/contacts/${id}`, { token: first.token, data: { title: 'first' } });
    await call(second.local, 'PUT', `/v2/contacts/${id}`, { token: second.token, data: { title: 'second' } });
    first.net.online = second.net.online = true;
    expect(await first.replica.sync()).toMatchObject({ conflicts: 0 });
    expect(await second.replica.sync()).toMatchObject({ conflicts: 1 });
    const [conflict] = second.replica.conflictList({ type: 'contact', id });
    expect(conflict).toMatchObject({ field: 'title', yours: { value: 'second' }, theirs: { value: 'first', changed_by_id: hub.agentId } });
    await first.replica.sync();
    expect(await onHub(`/v2/contacts/${id}`)).toMatchObject({ title: 'first' });
    expect(await local(first, `/v2/contacts/${id}`)).toMatchObject({ title: 'first' });
    expect(await local(second, `/v2/contacts/${id}`)).toMatchObject({ title: 'first' });
  });

  it('queues nothing for a save that changes nothing, and an edit of the field decides its conflict', async () => {
    const rep = await replicaOf(hub.agentId);
    const id = await contactOnBoth(rep, { last_name: 'Still', title: 'Same' });
    const before = rep.engine.ctx.replica!.outbox.all().length;
    expect((await call(rep.local, 'PUT', `/v2/contacts/${id}`, { token: rep.token, data: { last_name: 'Still', title: 'Same' } })).status).toBe(200);
    expect(rep.engine.ctx.replica!.outbox.all()).toHaveLength(before);

    rep.net.online = false;
    await call(hub, 'PUT', `/v2/contacts/${id}`, { token: hub.adminToken, data: { title: 'Hub' } });
    await call(rep.local, 'PUT', `/v2/contacts/${id}`, { token: rep.token, data: { title: 'Rep' } });
    rep.net.online = true;
    expect(await rep.replica.sync()).toMatchObject({ conflicts: 1 });
    await call(rep.local, 'PUT', `/v2/contacts/${id}`, { token: rep.token, data: { title: 'Rep, after all' } });
    expect(rep.replica.status().conflicts).toBe(0);
    await rep.replica.sync();
    expect(await onHub(`/v2/contacts/${id}`)).toMatchObject({ title: 'Rep, after all' });
  });
});

describe('an edit of a record deleted on the hub', () => {
  it('is a sync issue that shows the record, and recreating it brings it back on the hub under a new id', async () => {
    const rep = await replicaOf(hub.agentId);
    const id = await contactOnBoth(rep, { last_name: 'Gone', title: 'Was here', email: 'gone@example.com' });
    rep.net.online = false;
    expect((await call(hub, 'DELETE', `/v2/contacts/${id}`, { token: hub.adminToken })).status).toBe(204);
    await call(rep.local, 'PUT', `/v2/contacts/${id}`, { token: rep.token, data: { title: 'Still here' } });
    rep.net.online = true;
    expect(await rep.replica.sync()).toMatchObject({ issues: 1 });
    const issues = await call(rep.local, 'GET', '/v2/replica/issues', { token: rep.token });
    const issue = issues.body.items.map((i: any) => i.data).find((i: any) => i.record_id === id);
    expect(issue).toMatchObject({ method: 'PUT', deleted_on_hub: true, data: { title: 'Still here' }, record: { id, last_name: 'Gone', title: 'Still here', email: 'gone@example.com' } });
    // Still on the device meanwhile: nothing is dropped in silence.
    expect(await local(rep, `/v2/contacts/${id}`)).toMatchObject({ title: 'Still here' });

    const recreated = await call(rep.local, 'POST', `/v2/replica/issues/${issue.id}/recreate`, { token: rep.token });
    expect(recreated.status).toBe(200);
    expect(await rep.replica.sync()).toMatchObject({ pending: 0, issues: 0 });
    // A page still showing the old id follows the record to its new one.
    const followed = await call(rep.local, 'GET', `/v2/replica/ids/contact/${id}`, { token: rep.token });
    expect(followed.status).toBe(200);
    const newId = followed.body.data.hub_id;
    expect(newId).not.toBe(id);
    expect(await onHub(`/v2/contacts/${newId}`)).toMatchObject({ last_name: 'Gone', title: 'Still here', email: 'gone@example.com' });
    expect((await call(rep.local, 'GET', `/v2/contacts/${id}`, { token: rep.token })).status).toBe(404);
    expect(await local(rep, `/v2/contacts/${newId}`)).toMatchObject({ title: 'Still here' });
  });

  it('drops the open conflicts of a record whose change is discarded after its deletion on the hub', async () => {
    const rep = await replicaOf(hub.agentId);
    const id = await contactOnBoth(rep, { last_name: 'Twofold', title: 'T' });
    rep.net.online = false;
    await call(hub, 'PUT', `/v2/contacts/${id}`, { token: hub.adminToken, data: { title: 'Hub' } });
    await call(rep.local, 'PUT', `/v2/contacts/${id}`, { token: rep.token, data: { title: 'Rep' } });
    rep.net.online = true;
    expect(await rep.replica.sync()).toMatchObject({ conflicts: 1 });
    rep.net.online = false;
    await call(hub, 'DELETE', `/v2/contacts/${id}`, { token: hub.adminToken });
    await call(rep.local, 'PUT', `/v2/contacts/${id}`, { token: rep.token, data: { description: 'more' } });
    rep.net.online = true;
    expect(await rep.replica.sync()).toMatchObject({ issues: 1, conflicts: 1 });
    const [issue] = rep.replica.issues().filter((i) => i.record_id === id);
    expect((await call(rep.local, 'DELETE', `/v2/replica/issues/${issue.id}`, { token: rep.token })).status).toBe(204);
    expect(rep.replica.status()).toMatchObject({ issues: 0, conflicts: 0 });
    expect((await call(rep.local, 'GET', `/v2/contacts/${id}`, { token: rep.token })).status).toBe(404);
  });

  it('refuses to recreate what is not a change to a deleted record', async () => {
    const rep = await replicaOf(hub.agentId);
    expect((await call(rep.local, 'POST', '/v2/replica/issues/424242/recreate', { token: rep.token })).status).toBe(404);
  });
});

describe('the rep’s time of writing', () => {
  it('keeps when a note was written offline, not when it reached the hub', async () => {
    const rep = await replicaOf(hub.agentId);
    const id = await contactOnBoth(rep, { last_name: 'Timely' });
    rep.net.online = false;
    hub.clock.set('2026-03-05T18:03:40Z');
    const written = await call(rep.local, 'POST', '/v2/notes', { token: rep.token, data: { resource_type: 'contact', resource_id: id, content: 'Met at the fair' } });
    expect(written.body.data.created_at).toBe('2026-03-05T18:03:40Z');
    hub.clock.set('2026-03-05T18:04:16Z');
    rep.net.online = true;
    await rep.replica.sync();
    const notes = await call(hub, 'GET', `/v2/notes?resource_type=contact&resource_id=${id}`, { token: hub.adminToken });
    expect(notes.body.items.map((i: any) => [i.data.content, i.data.created_at, i.data.updated_at])).toEqual([['Met at the fair', '2026-03-05T18:03:40Z', '2026-03-05T18:04:16Z']]);
  });
});
