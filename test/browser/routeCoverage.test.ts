import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine, type Engine } from '../../electron/engine/engine.js';
import { createHttpApp } from '../../electron/engine/http/app.js';
import { Replica } from '../../electron/engine/replica/replica.js';
import { hubFetch } from '../../electron/engine/replica/hubFetch.js';
import { buildLocalApi } from '../../electron/browser/dispatch.js';

/**
 * Routes the hub (and a desktop replica) answers that the browser worker's route host does not register,
 * each with its reason. A route added to the interface lands on both (it is registered in apiScope.ts);
 * one added outside it fails here until it is registered for the worker too or named below.
 */
const HUB_ONLY: Record<string, string> = {
  'GET /metrics': 'operations: the hub\'s Prometheus counters; a worker has no scraper',
  'GET /health': 'operations: a load balancer\'s probe of the hub',
  'POST /oauth2/token': 'signing in is the hub\'s: the worker signs in there with the replica\'s credentials and mints its local token itself',
  'POST /oauth2/revoke': 'the hub token is revoked at the hub on sign-out; the local token goes with the wiped data',
  'GET /oauth2/csrf_token': 'the consent page\'s, served by the hub',
  'GET /oauth2/authorize': 'the consent page of third-party applications, served by the hub',
  'POST /oauth2/authorize': 'the consent page of third-party applications, served by the hub',
  'POST /oauth2/invitations/lookup': 'accepting an invitation happens before there is a local user, at the hub',
  'POST /oauth2/invitations/accept': 'accepting an invitation happens before there is a local user, at the hub',
  'GET /calendar/:secret.ics': 'calendar applications subscribe to the hub\'s feed, not to a browser',
  'GET /docs/api': 'the API guide, a file the hub serves',
  'GET /docs/sync.md': 'the sync guide, a file the hub serves',
  'GET /docs/import-export.md': 'the import and export guide, a file the hub serves',
  'GET /v2/openapi.json': 'the hub\'s interface description; a replica (the worker is one) does not serve it either',
  'GET /docs/api/reference': 'the page of the hub\'s interface description',
  'GET /docs/api/reference.css': 'the page of the hub\'s interface description',
};

/** Registered on the route host but answered by the bridge's events (on()) instead: server-sent event streams. */
const STREAMS = ['GET /v2/sync/events', 'GET /v2/replica/events'];

/** The methods the renderer's bridge can send (shared/bridge.ts HttpMethod). */
const BRIDGE_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

const routesOf = (list: { method: string; url: string }[]) => new Set(list.filter((route) => BRIDGE_METHODS.has(route.method)).map((route) => `${route.method} ${route.url}`));

describe('the route host registers every route of the hub\'s interface', () => {
  const folders: string[] = [];
  const engines: Engine[] = [];
  const open = (replica: boolean) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'outpost-coverage-'));
    folders.push(dataDir);
    const engine = openEngine({ dataDir, replica });
    engines.push(engine);
    return engine;
  };
  let replica: Replica;

  beforeAll(() => {
    replica = new Replica(open(true), { hubUrl: 'http://127.0.0.1:9', token: 'never-used', fetch: hubFetch });
  });

  afterAll(async () => {
    await replica.stop();
    for (const engine of engines) engine.close();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  for (const kind of ['hub', 'replica'] as const) {
    it(`on a ${kind}: each of Fastify's routes is on the route host or named hub-only, and the host has none of its own`, async () => {
      const engine = kind === 'hub' ? open(false) : engines[0];
      const options = kind === 'hub' ? {} : { replica };
      const app = await createHttpApp(engine, { rateLimitPerHour: 0, ...options });
      const host = await buildLocalApi(engine, options);
      const fastify = routesOf(app.routeList);
      const hosted = routesOf(host.routeList);
      const missing = [...fastify].filter((route) => !hosted.has(route) && !(route in HUB_ONLY));
      expect(missing).toEqual([]);
      expect([...hosted].filter((route) => !fastify.has(route))).toEqual([]);
      // On a replica, as the worker's engine is, every route of the interface the renderer calls is there.
      if (kind === 'replica') expect([...fastify].filter((route) => route.split(' ')[1].startsWith('/v2') && !hosted.has(route))).toEqual([]);
      expect(STREAMS.filter((route) => hosted.has(route))).toEqual(kind === 'hub' ? ['GET /v2/sync/events'] : STREAMS);
      // The list names only routes that exist (one left behind after a route is removed would hide nothing, but mislead).
      if (kind === 'hub') expect(Object.keys(HUB_ONLY).filter((route) => !fastify.has(route))).toEqual([]);
      await app.close();
      await host.close();
    });
  }
});
