import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestHub, type TestHub } from '../support/testHub.js';
import { startCabledReplica, type TestReplica } from '../support/testReplica.js';

/** A merge choosing an address part by part, made on a replica offline: the same address here at once and on the hub once synced. */
let hub: TestHub;
let rep: TestReplica & { net: { online: boolean } };

beforeAll(async () => {
  hub = await startTestHub();
  rep = await startCabledReplica(hub, hub.agentId);
});
afterAll(async () => {
  await rep?.close();
  await hub.close();
});

const onReplica = (method: string, path: string, data?: unknown) => call(rep.local, method, path, { token: rep.token, data });
const onHub = (path: string) => call(hub, 'GET', path, { token: hub.adminToken });

async function contactOnBoth(data: Record<string, unknown>): Promise<number> {
  const made = await call(hub, 'POST', '/v2/contacts', { token: hub.adminToken, data: { owner_id: hub.agentId, ...data } });
  expect(made.status).toBe(200);
  await rep.replica.sync();
  return made.body.data.id;
}

describe('a merge on a replica that picks address parts', () => {
  it('keeps the parts picked from each record, offline and on the hub once synced', async () => {
    const survivor = await contactOnBoth({ last_name: 'Berg', address: { line1: 'Storgata 1', city: 'Oslo', postal_code: '0155', state: null, country: 'NO' } });
    const other = await contactOnBoth({ last_name: 'Berg', address: { line1: 'Storgata 1B', city: 'Oslo', postal_code: null, state: 'Oslo', country: 'Norway' } });
    rep.net.online = false;
    const merged = await onReplica('POST', `/v2/contacts/${survivor}/merge`, { merge_with_id: other, fields: { address: { line1: 'other', postal_code: 'survivor' } } });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    const address = { line1: 'Storgata 1B', city: 'Oslo', postal_code: '0155', state: 'Oslo', country: 'NO' };
    expect(merged.body.data.address).toEqual(address);

    rep.net.online = true;
    expect(await rep.replica.sync()).toMatchObject({ pending: 0, issues: 0 });
    expect((await onHub(`/v2/contacts/${survivor}`)).body.data.address).toEqual(address);
    expect((await onHub(`/v2/contacts/${other}`)).status).toBe(404);
  });
});
