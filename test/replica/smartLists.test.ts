import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestHub, type TestHub } from '../support/testHub.js';
import { startTestReplica, switchedCable, type TestReplica } from '../support/testReplica.js';

/**
 * Smart lists on a replica: the rep's own and the shared ones
 * arrive with sync and filter the local copy offline; one made or changed
 * offline is queued and reaches the hub.
 */

let hub: TestHub;
let copy: TestReplica;
const net = { online: true };

const onHub = (method: string, path: string, data?: unknown, token = hub.agentToken) => call(hub, method, path, { token, data });
const onReplica = (method: string, path: string, data?: unknown) => call(copy.local, method, path, { token: copy.token, data });
const ids = (answer: { body: any }) => answer.body.items.map((item: any) => item.data.id as number);
const synced = async () => expect(await copy.replica.sync()).toMatchObject({ state: 'up_to_date', issues: 0, last_error: null });

beforeAll(async () => {
  hub = await startTestHub();
  await onHub('POST', '/v2/contact/custom_fields', { name: 'Region', type: 'string' }, hub.adminToken);
  const regions = ['West', 'East', 'West', 'North', 'West'];
  for (const [i, region] of regions.entries()) {
    await onHub('POST', '/v2/contacts', { last_name: `Rep ${i}`, customer_status: i % 2 ? 'current' : 'none', custom_fields: { Region: region } });
  }
  copy = await startTestReplica(hub, hub.agentId, { fetch: switchedCable(net) });
  await synced();
});
afterAll(async () => {
  await copy.close();
  await hub.close();
});

describe('smart lists on a replica', () => {
  it('arrive (own and shared, not others\' private ones) and filter the local copy offline', async () => {
    const west = (await onHub('POST', '/v2/smart_lists', { name: 'West', resource_type: 'contact', filters: { 'custom_fields[Region]': 'West' }, sort_by: 'last_name:desc' })).body.data;
    const shared = (await onHub('POST', '/v2/smart_lists', { name: 'Customers', resource_type: 'contact', filters: { customer_status: 'current' }, shared: true }, hub.adminToken)).body.data;
    const hidden = (await onHub('POST', '/v2/smart_lists', { name: 'Admin only', resource_type: 'contact', filters: {} }, hub.adminToken)).body.data;
    await synced();
    net.online = false;
    const local = await onReplica('GET', '/v2/smart_lists?resource_type=contact');
    expect(ids(local).sort()).toEqual([west.id, shared.id].sort());
    expect(ids(local)).not.toContain(hidden.id);
    expect((await onReplica('GET', `/v2/smart_lists/${west.id}`)).body.data).toEqual(west);
    for (const list of [west, shared]) {
      const offline = await onReplica('GET', `/v2/contacts?smart_list_id=${list.id}`);
      expect(offline.status).toBe(200);
      const onTheHub = await onHub('GET', `/v2/contacts?smart_list_id=${list.id}`);
      expect(ids(offline)).toEqual(ids(onTheHub));
      expect(ids(offline).length).toBeGreaterThan(0);
    }
    // Combined with a further filter, offline too.
    const westCustomers = await onReplica('GET', `/v2/contacts?smart_list_id=${west.id}&customer_status=none&count=true`);
    expect(westCustomers.body.meta.total_count).toBe(3);
    // The shared list is the admin's: the replica refuses the rep's change as the hub would.
    expect((await onReplica('PUT', `/v2/smart_lists/${shared.id}`, { name: 'Mine' })).status).toBe(403);
    net.online = true;
  });

  it('made and changed offline, are queued and reach the hub', async () => {
    net.online = false;
    const made = await onReplica('POST', '/v2/smart_lists', { name: 'Offline customers', resource_type: 'contact', filters: { customer_status: 'current' }, columns: ['name', 'email'] });
    expect(made.status).toBe(200);
    const temporary = made.body.data.id;
    expect(temporary).toBeLessThan(0);
    const localIds = ids(await onReplica('GET', `/v2/contacts?smart_list_id=${temporary}`));
    expect(localIds).toEqual(ids(await onReplica('GET', '/v2/contacts?customer_status=current')));
    expect(localIds.length).toBe(2);
    expect((await onReplica('PUT', `/v2/smart_lists/${temporary}`, { name: 'Current customers', shared: true })).status).toBe(200);
    net.online = true;
    await synced();
    const onTheHub = await onHub('GET', '/v2/smart_lists?name=Current%20customers');
    expect(onTheHub.body.items).toHaveLength(1);
    const hubList = onTheHub.body.items[0].data;
    expect(hubList).toMatchObject({ resource_type: 'contact', filters: { customer_status: 'current' }, columns: ['name', 'email'], shared: true, owner_id: hub.agentId });
    expect(hubList.id).toBeGreaterThan(0);
    // The replica's copy now has the hub's id, and the shared list is seen by the admin.
    expect(ids(await onReplica('GET', '/v2/smart_lists?name=Current%20customers'))).toEqual([hubList.id]);
    expect(ids(await onHub('GET', `/v2/contacts?smart_list_id=${hubList.id}`, undefined, hub.adminToken))).toEqual(localIds);
  });

  it('leave the replica when the hub stops showing them to the rep', async () => {
    const shared = (await onHub('POST', '/v2/smart_lists', { name: 'For a while', resource_type: 'contact', filters: {}, shared: true }, hub.adminToken)).body.data;
    await synced();
    expect((await onReplica('GET', `/v2/smart_lists/${shared.id}`)).status).toBe(200);
    await onHub('PUT', `/v2/smart_lists/${shared.id}`, { shared: false }, hub.adminToken);
    await synced();
    expect((await onReplica('GET', `/v2/smart_lists/${shared.id}`)).status).toBe(404);
  });
});
