import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestHub, type TestHub } from '../support/testHub.js';
import { startTestReplica, type TestReplica } from '../support/testReplica.js';

/** Exchange rates reach a replica like records, so it converts totals offline; they are the hub's to change. */

let hub: TestHub;
let copy: TestReplica;

const onHub = (method: string, currency: string, data?: unknown) => call(hub, method, `/v2/exchange_rates/${currency}`, { token: hub.adminToken, data });
const onReplica = async () => (await call(copy.local, 'GET', '/v2/exchange_rates', { token: copy.token })).body.items.map((i: any) => [i.data.currency, i.data.rate]);
const synced = async () => expect(await copy.replica.sync()).toMatchObject({ state: 'up_to_date', issues: 0, last_error: null });

beforeAll(async () => {
  hub = await startTestHub();
  expect((await onHub('PUT', 'EUR', { rate: '1.08' })).status).toBe(200);
  expect((await onHub('PUT', 'GBP', { rate: '1.27' })).status).toBe(200);
  copy = await startTestReplica(hub, hub.agentId);
  await synced();
});
afterAll(async () => {
  await copy.close();
  await hub.close();
});

describe('exchange rates on a replica', () => {
  it('arrive with the first sync, as the hub answers them', async () => {
    expect(await onReplica()).toEqual([['EUR', '1.08'], ['GBP', '1.27']]);
    const local = await call(copy.local, 'GET', '/v2/exchange_rates/EUR', { token: copy.token });
    const remote = await call(hub, 'GET', '/v2/exchange_rates/EUR', { token: hub.agentToken });
    expect(local.body.data).toEqual(remote.body.data);
  });

  it('follow changes and removals, and a currency removed and set again (a new id)', async () => {
    hub.clock.advance(60_000);
    await onHub('PUT', 'EUR', { rate: '1.1' });
    expect((await onHub('DELETE', 'GBP')).status).toBe(204);
    await onHub('PUT', 'CHF', { rate: '1.13' });
    await synced();
    expect(await onReplica()).toEqual([['CHF', '1.13'], ['EUR', '1.1']]);
    await onHub('DELETE', 'EUR');
    await onHub('PUT', 'EUR', { rate: '1.09' });
    await synced();
    expect(await onReplica()).toEqual([['CHF', '1.13'], ['EUR', '1.09']]);
  });

  it('are changed on the hub only: a replica refuses the write with 409', async () => {
    const admin = await startTestReplica(hub, hub.adminId);
    try {
      expect(await admin.replica.sync()).toMatchObject({ state: 'up_to_date' });
      const refused = await call(admin.local, 'PUT', '/v2/exchange_rates/EUR', { token: admin.token, data: { rate: '2' } });
      expect([refused.status, refused.body.errors[0].error.code]).toEqual([409, 'conflict']);
      expect((await call(hub, 'GET', '/v2/exchange_rates/EUR', { token: hub.agentToken })).body.data.rate).toBe('1.09');
    } finally {
      await admin.close();
    }
  });
});
