import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { openEngine, type Engine } from '../../electron/engine/engine.js';
import { createHttpApp } from '../../electron/engine/http/app.js';
import { Replica } from '../../electron/engine/replica/replica.js';
import { hubFetch, type HubFetch } from '../../electron/engine/replica/hubFetch.js';
import type { TestHub } from './testHub.js';

/**
 * A desktop replica of a test hub for one of its users: a real replica
 * engine on its own SQLite file, syncing with the hub over real HTTP, and
 * its own REST interface on 127.0.0.1 (`local`) with a token of that user
 * (`token`), as its UI uses it. `fetch` is the replica's network cable (a
 * test may pass a switch to be offline). Not synced yet: call `replica.sync()`.
 */
export interface TestReplica {
  engine: Engine;
  replica: Replica;
  app: FastifyInstance;
  local: { url: string };
  token: string;
  close(): Promise<void>;
}

/**
 * A network cable with a switch, over the replica's own HTTP client: while
 * `net.online` is false every request fails as an unplugged cable's would.
 */
export function switchedCable(net: { online: boolean }): HubFetch {
  return async (url, init) => {
    if (!net.online) throw new TypeError('fetch failed: the network is down');
    return hubFetch(url, init);
  };
}

/**
 * A replica behind a switched cable (`net.online = false` cuts it), up to date with its hub after a first sync;
 * `hubOnlyWrites: 'send'` as the browser's engine has it (the hub's own page).
 */
export async function startCabledReplica(hub: TestHub, userId: number, options: { hubOnlyWrites?: 'refuse' | 'send' } = {}): Promise<TestReplica & { net: { online: boolean } }> {
  const net = { online: true };
  const replica = await startTestReplica(hub, userId, { fetch: switchedCable(net), hubOnlyWrites: options.hubOnlyWrites });
  const { state } = await replica.replica.sync();
  if (state !== 'up_to_date') throw new Error(`the replica's first sync ended ${state}, not up_to_date`);
  return Object.assign(replica, { net });
}

export async function startTestReplica(hub: TestHub, userId: number, options: { fetch?: HubFetch; hubOnlyWrites?: 'refuse' | 'send' } = {}): Promise<TestReplica> {
  const dataDir = mkdtempSync(join(tmpdir(), 'outpost-replica-'));
  const engine = openEngine({ dataDir, clock: hub.clock, replica: true });
  const replica = new Replica(engine, { hubUrl: hub.url, token: hub.tokenFor(userId, ['read', 'write', 'profile', 'sync']), fetch: options.fetch ?? hubFetch });
  const app = await createHttpApp(engine, { rateLimitPerHour: 0, replica, hubOnlyWrites: options.hubOnlyWrites });
  const local = { url: await app.listen({ host: '127.0.0.1', port: 0 }) };
  return {
    engine, replica, app, local,
    token: engine.tokens.createPersonal(userId, ['read', 'write', 'profile']),
    close: async () => {
      await app.close();
      engine.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
