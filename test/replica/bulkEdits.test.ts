import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestHub, type TestHub } from '../support/testHub.js';
import { startTestReplica, switchedCable, type TestReplica } from '../support/testReplica.js';

/**
 * A bulk edit made on a desktop replica while the hub is out of
 * reach runs there, queues each record's change as a single edit would, and
 * reaches the hub after reconnecting, merged field by field. A real hub and a
 * real replica over real HTTP; the one stand-in is the replica's cable.
 */
let hub: TestHub;
let rep: TestReplica & { net: { online: boolean } };

beforeAll(async () => {
  hub = await startTestHub();
  const net = { online: true };
  rep = Object.assign(await startTestReplica(hub, hub.agentId, { fetch: switchedCable(net) }), { net });
  expect(await rep.replica.sync()).toMatchObject({ state: 'up_to_date' });
});
afterAll(async () => {
  await rep.close();
  await hub.close();
});

const onHub = async (path: string) => (await call(hub, 'GET', path, { token: hub.adminToken })).body.data;
const local = (method: string, path: string, data?: unknown) => call(rep.local, method, path, { token: rep.token, data });

async function contactsOnBoth(count: number, data: Record<string, unknown>): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    ids.push((await call(hub, 'POST', '/v2/contacts', { token: hub.adminToken, data: { owner_id: hub.agentId, ...data, last_name: `${data.last_name} ${i}` } })).body.data.id);
  }
  await rep.replica.sync();
  return ids;
}

describe('bulk edits on a replica, offline', () => {
  it('queue each record as a single edit and merge field by field with a colleague’s edit on the hub', async () => {
    const ids = await contactsOnBoth(3, { last_name: 'Offline', title: 'Buyer', tags: ['north'] });
    rep.net.online = false;
    // A colleague changes another field of one record on the hub meanwhile.
    expect((await call(hub, 'PUT', `/v2/contacts/${ids[1]}`, { token: hub.adminToken, data: { title: 'Head buyer', tags: ['north', 'hub-tag'] } })).status).toBe(200);

    const answer = await local('POST', '/v2/contacts/bulk', { ids, update: { owner_id: hub.adminId, tags_add: ['vip'] } });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ updated: ids, failed: [] });
    // Each record's change is queued as a single edit's: only what changed, with its base.
    const queued = rep.engine.ctx.replica!.outbox.pending();
    expect(queued.map((e) => [e.method, e.record_id, JSON.parse(e.data!), JSON.parse(e.base!)])).toEqual(ids.map((id) => [
      'PUT', id, { owner_id: hub.adminId, tags: ['north', 'vip'] }, { owner_id: hub.agentId, tags: ['north'] },
    ]));
    expect(queued.map((e) => e.collection)).toEqual(ids.map(() => '/v2/contacts'));
    expect((await local('GET', `/v2/contacts/${ids[0]}`)).body.data).toMatchObject({ owner_id: hub.adminId, tags: ['north', 'vip'] });

    rep.net.online = true;
    expect(await rep.replica.sync()).toMatchObject({ pending: 0, issues: 0, conflicts: 0 });
    for (const id of [ids[0], ids[2]]) expect(await onHub(`/v2/contacts/${id}`)).toMatchObject({ owner_id: hub.adminId, title: 'Buyer', tags: ['north', 'vip'] });
    // The colleague's title and tag stay, the rep's owner and tag join them.
    expect(await onHub(`/v2/contacts/${ids[1]}`)).toMatchObject({ owner_id: hub.adminId, title: 'Head buyer', tags: ['hub-tag', 'north', 'vip'] });
    expect((await local('GET', `/v2/contacts/${ids[1]}`)).body.data).toMatchObject({ title: 'Head buyer', tags: ['hub-tag', 'north', 'vip'] });
  });

  it('deletes offline, and the deletes reach the hub after reconnecting', async () => {
    const ids = await contactsOnBoth(2, { last_name: 'Doomed' });
    rep.net.online = false;
    const answer = await local('POST', '/v2/contacts/bulk', { ids, delete: true });
    expect(answer.body.data).toEqual({ updated: ids, failed: [] });
    expect(rep.engine.ctx.replica!.outbox.pending().map((e) => e.method)).toEqual(['DELETE', 'DELETE']);
    for (const id of ids) expect((await local('GET', `/v2/contacts/${id}`)).status).toBe(404);
    // Still on the hub until the replica reconnects.
    expect((await call(hub, 'GET', `/v2/contacts/${ids[0]}`, { token: hub.adminToken })).status).toBe(200);
    rep.net.online = true;
    expect(await rep.replica.sync()).toMatchObject({ pending: 0, issues: 0 });
    for (const id of ids) expect((await call(hub, 'GET', `/v2/contacts/${id}`, { token: hub.adminToken })).status).toBe(404);
  });
});
