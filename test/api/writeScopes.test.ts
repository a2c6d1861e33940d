import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { call, startTestHub, type TestHub } from '../support/testHub.js';
import { startTestReplica, type TestReplica } from '../support/testReplica.js';
import type { Scope } from '../../shared/oauth.js';

/**
 * Every change needs the `write` scope (the sync protocol, `sync`), whatever
 * its path: a token with only `read`, only `profile` or both may change
 * nothing, its own account and profile included. The routes come from the
 * apps themselves (`app.routeList`), so a route added later is checked too.
 * Real hub and replica over real HTTP on 127.0.0.1.
 */
let hub: TestHub;
let device: TestReplica;

beforeAll(async () => {
  hub = await startTestHub();
  device = await startTestReplica(hub, hub.adminId);
  await device.replica.sync();
});
afterAll(async () => {
  await device.close();
  await hub.close();
});

/** Routes outside the bearer-token scopes checked here, and why. */
const OTHER_AUTHENTICATION = [
  // OAuth's own endpoints authenticate the client (Basic) or the signed-in user (the consent form), not a bearer token.
  /^\/oauth2\//,
];

/** The methods that change things (a catch-all route also registers TRACE, PROPFIND…, which no client sends). */
const CHANGES = ['POST', 'PUT', 'PATCH', 'DELETE'];

/** The app's routes that change things under /v2 and /api/v2 (custom objects), their parameters filled with a plausible id. */
function writeRoutes(app: FastifyInstance): { method: string; path: string }[] {
  return app.routeList
    .filter(({ method, url }) => CHANGES.includes(method) && /^\/(api\/)?v2\//.test(url) && !OTHER_AUTHENTICATION.some((re) => re.test(url)))
    .map(({ method, url }) => ({ method, path: url.replace(/:[a-z_]+/g, '1').replace(/\*$/, 'custom_objects') }));
}

/** The scope an answer says was missing, if it refused for a missing scope. */
function missingScope(answer: { status: number; headers: Headers; body: any }): string | null {
  if (answer.status !== 403) return null;
  const header = answer.headers.get('www-authenticate') ?? '';
  return /insufficient_scope/.test(header) ? /scope="([^"]+)"/.exec(header)![1] : null;
}

async function refusals(target: { url: string }, app: FastifyInstance, token: string) {
  const routes = writeRoutes(app);
  const answers = [];
  for (const route of routes) {
    const answer = await call(target, route.method, route.path, { token, data: {} });
    answers.push({ route: `${route.method} ${route.path}`, status: answer.status, missing: missingScope(answer) });
  }
  return answers;
}

describe('the write scope', () => {
  for (const scopes of [['read'], ['profile'], ['read', 'profile']] as Scope[][]) {
    it(`is needed by every change on the hub: a ${scopes.join(' + ')} token is refused on each`, async () => {
      const answers = await refusals(hub, hub.app, hub.tokenFor(hub.adminId, scopes));
      expect(answers.length).toBeGreaterThan(80);
      const notRefused = answers.filter((a) => a.missing === null);
      expect(notRefused, 'routes a read-only token reached').toEqual([]);
      for (const answer of answers) expect(answer.missing, answer.route).toBe(answer.route.includes('/v2/sync/') ? 'sync' : 'write');
    });
  }

  it('is needed by every change on a replica too', async () => {
    const token = device.engine.tokens.createPersonal(hub.adminId, ['read', 'profile']);
    const answers = await refusals(device.local, device.app, token);
    expect(answers.some((a) => a.route.startsWith('POST /v2/replica/'))).toBe(true);
    expect(answers.filter((a) => a.missing === null)).toEqual([]);
  });

  it('is enough: a token with every scope is never refused for its scope', async () => {
    const answers = await refusals(hub, hub.app, hub.tokenFor(hub.adminId, ['read', 'write', 'profile', 'sync']));
    expect(answers.filter((a) => a.missing !== null)).toEqual([]);
  });

  it('lets profile and read still see their own user and account', async () => {
    for (const path of ['/v2/users/self', '/v2/accounts/self']) {
      expect((await call(hub, 'GET', path, { token: hub.tokenFor(hub.agentId, ['profile']) })).status, path).toBe(200);
      expect((await call(hub, 'GET', path, { token: hub.tokenFor(hub.agentId, ['read']) })).status, path).toBe(200);
    }
  });
});
