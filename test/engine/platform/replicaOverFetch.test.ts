import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestHub, type TestHub } from '../../support/testHub.js';
import { startTestReplica, type TestReplica } from '../../support/testReplica.js';
import type { HubFetch } from '../../../electron/engine/replica/hubFetch.js';
import { hubRequest as webHubRequest } from '../../../electron/engine/platform/hubTransport.web.js';

/**
 * A replica whose requests to the hub go through the browser's transport
 * (fetch; here Node's) instead of undici: it syncs both ways with a real hub,
 * and a hub that refuses connections counts as offline.
 */
let hub: TestHub;
let replica: TestReplica;
const net = { online: true };
/** A port that was just closed: connecting to it is refused. */
let refusedOrigin: string;
/** The browser's transport behind a switch: off, it asks the closed port (refused, as an unreachable hub). */
const browserCable: HubFetch = (url, init) => webHubRequest(net.online ? url : url.replace(/^http:\/\/[^/]+/, refusedOrigin), init);

beforeAll(async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  refusedOrigin = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise((resolve) => closed.close(resolve));
  hub = await startTestHub();
  replica = await startTestReplica(hub, hub.agentId, { fetch: browserCable });
});
afterAll(async () => {
  await replica.close();
  await hub.close();
});

const names = async (target: { url: string }, token: string) =>
  ((await call(target, 'GET', '/v2/contacts', { token })).body.items as Array<{ data: { last_name: string } }>).map((item) => item.data.last_name);

describe('a replica on the browser\'s transport', () => {
  it('pulls the hub\'s records and pushes its own', async () => {
    await call(hub, 'POST', '/v2/contacts', { token: hub.agentToken, data: { last_name: 'Made on the hub' } });
    expect((await replica.replica.sync()).state).toBe('up_to_date');
    expect(await names(replica.local, replica.token)).toContain('Made on the hub');
    await call(replica.local, 'POST', '/v2/contacts', { token: replica.token, data: { last_name: 'Made on the replica' } });
    expect((await replica.replica.sync()).state).toBe('up_to_date');
    expect(await names(hub, hub.agentToken)).toContain('Made on the replica');
  });

  it('is offline while the hub refuses connections, and syncs what waited once it is back', async () => {
    net.online = false;
    await call(replica.local, 'POST', '/v2/contacts', { token: replica.token, data: { last_name: 'Made offline' } });
    expect((await replica.replica.sync()).state).toBe('offline');
    net.online = true;
    expect((await replica.replica.sync()).state).toBe('up_to_date');
    expect(await names(hub, hub.agentToken)).toContain('Made offline');
  });
});
