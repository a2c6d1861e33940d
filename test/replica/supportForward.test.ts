import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../support/testHub.js';
import { startTestReplica, switchedCable, type TestReplica } from '../support/testReplica.js';
import { bearer, supportCall } from '../support/supportApi.js';

/**
 * Custom objects are the hub's only: a desktop replica (here the agent's, a
 * real replica engine over real HTTP) sends its /api/v2 requests on to the
 * hub as its connected user. The one stand-in is the network cable, a switch
 * in the replica's fetch that the test turns off to be offline.
 */
let hub: TestHub;
let device: TestReplica;
let local: { url: string };
let agentHere: string;
const net = { online: true };

beforeAll(async () => {
  hub = await startTestHub();
  device = await startTestReplica(hub, hub.agentId, { fetch: switchedCable(net) });
  local = device.local;
  await device.replica.sync();
  agentHere = bearer(device.token);
  const admin = bearer(hub.adminToken);
  await supportCall(hub, 'POST', '/api/v2/custom_objects', { auth: admin, body: { custom_object: { key: 'car', title: 'Car', title_pluralized: 'Cars' } } });
  await supportCall(hub, 'POST', '/api/v2/custom_objects/car/fields', { auth: admin, body: { custom_object_field: { key: 'make', title: 'Make', type: 'text' } } });
});
afterAll(async () => {
  await device.close();
  await hub.close();
});

describe('the custom-objects interface on a replica', () => {
  it('answers with the hub’s objects, as the hub serves them', async () => {
    const here = await supportCall(local, 'GET', '/api/v2/custom_objects/car', { auth: agentHere });
    const there = await supportCall(hub, 'GET', '/api/v2/custom_objects/car', { auth: bearer(hub.agentToken) });
    expect(here.status).toBe(200);
    expect(here.body).toEqual(there.body);
  });

  it('creates a record on the hub as the connected user', async () => {
    const created = await supportCall(local, 'POST', '/api/v2/custom_objects/car/records', {
      auth: agentHere, body: { custom_object_record: { name: 'Blue van', custom_object_fields: { make: 'Ford' } } },
    });
    expect(created.status).toBe(201);
    const onHub = await supportCall(hub, 'GET', `/api/v2/custom_objects/car/records/${created.body.custom_object_record.id}`, { auth: bearer(hub.adminToken) });
    expect(onHub.body.custom_object_record).toMatchObject({ name: 'Blue van', custom_object_fields: { make: 'Ford' }, created_by_user_id: String(hub.agentId) });
  });

  it('passes the hub’s refusals on: an agent cannot define objects', async () => {
    const refused = await supportCall(local, 'POST', '/api/v2/custom_objects', { auth: agentHere, body: { custom_object: { key: 'boat', title: 'Boat', title_pluralized: 'Boats' } } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('Forbidden');
    const invalid = await supportCall(local, 'POST', '/api/v2/custom_objects/car/records', { auth: agentHere, body: { custom_object_record: { name: '' } } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.error).toBe('RecordInvalid');
  });

  it('authenticates the caller here first', async () => {
    const anonymous = await supportCall(local, 'GET', '/api/v2/custom_objects', { auth: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error).toBe('Unauthorized');
  });

  it('refuses a user other than the one the replica is connected as', async () => {
    const otherHere = bearer(device.engine.tokens.createPersonal(hub.adminId, ['read', 'write', 'profile']));
    const refused = await supportCall(local, 'GET', '/api/v2/custom_objects', { auth: otherHere });
    expect(refused.status).toBe(403);
    expect(refused.body.description).toMatch(/another user/);
  });

  it('answers 503 in the interface’s style when the hub is out of reach', async () => {
    net.online = false;
    try {
      const offline = await supportCall(local, 'GET', '/api/v2/custom_objects', { auth: agentHere });
      expect(offline.status).toBe(503);
      expect(offline.body).toEqual({ error: 'HubUnreachable', description: expect.stringMatching(/cannot be reached/) });
    } finally {
      net.online = true;
    }
    expect((await supportCall(local, 'GET', '/api/v2/custom_objects', { auth: agentHere })).status).toBe(200);
  });
});
