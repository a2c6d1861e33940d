import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, fields, startTestHub, type TestHub } from '../support/testHub.js';
import { redirectUriMatches } from '../../electron/engine/auth/clients.js';

let hub: TestHub;
beforeAll(async () => {
  hub = await startTestHub();
});
afterAll(() => hub.close());

describe('OAuth client registration (admins)', () => {
  it('registers a client, shows its secret once, lists it and removes it', async () => {
    const created = await call(hub, 'POST', '/v2/oauth_clients', { token: hub.adminToken, data: { name: 'Mail merge', redirect_uri: 'https://app.example.com/callback' } });
    expect(created.status).toBe(200);
    expect(created.body.meta.type).toBe('oauth_client');
    const client = created.body.data;
    expect(client).toMatchObject({ name: 'Mail merge', redirect_uri: 'https://app.example.com/callback', public: false });
    expect(client.client_id).toMatch(/^[0-9a-f]{64}$/);
    expect(client.client_secret).toMatch(/^[0-9a-f]{64}$/);
    // Stored only as a hash: never in the database, never shown again.
    const stored = hub.engine.db.prepare('SELECT * FROM oauth_clients WHERE client_id = ?').get(client.client_id) as Record<string, unknown>;
    expect(JSON.stringify(stored)).not.toContain(client.client_secret);
    const shown = await call(hub, 'GET', `/v2/oauth_clients/${client.client_id}`, { token: hub.adminToken });
    expect(shown.body.data.client_secret).toBeUndefined();
    const list = await call(hub, 'GET', '/v2/oauth_clients', { token: hub.adminToken });
    expect(list.body.items.map((i: any) => i.data.client_id)).toEqual([client.client_id]);

    const native = await call(hub, 'POST', '/v2/oauth_clients', { token: hub.adminToken, data: { name: 'CLI', redirect_uri: 'http://127.0.0.1/cb', public: true } });
    expect(native.body.data).toMatchObject({ public: true, client_secret: null });

    expect((await call(hub, 'DELETE', `/v2/oauth_clients/${client.client_id}`, { token: hub.adminToken })).status).toBe(204);
    expect((await call(hub, 'GET', `/v2/oauth_clients/${client.client_id}`, { token: hub.adminToken })).status).toBe(404);
    expect((await call(hub, 'DELETE', '/v2/oauth_clients/outpost-app', { token: hub.adminToken })).status).toBe(404);
  });

  it('is for admins only', async () => {
    for (const [method, path] of [['GET', '/v2/oauth_clients'], ['POST', '/v2/oauth_clients'], ['DELETE', '/v2/oauth_clients/x']] as const) {
      const answer = await call(hub, method, path, { token: hub.agentToken, data: method === 'POST' ? { name: 'x', redirect_uri: 'https://x.example' } : undefined });
      expect([answer.status, codes(answer)], `${method} ${path}`).toEqual([403, ['forbidden']]);
    }
  });

  it('refuses bad names and redirect URIs with per-field errors', async () => {
    const post = (data: unknown) => call(hub, 'POST', '/v2/oauth_clients', { token: hub.adminToken, data });
    expect(fields(await post({})).sort()).toEqual(['/name', '/redirect_uri']);
    for (const uri of ['not a url', 'http://app.example.com/cb', 'https://app.example.com/cb#x', 'javascript:alert(1)', '/relative']) {
      const answer = await post({ name: 'Bad', redirect_uri: uri });
      expect([answer.status, codes(answer), fields(answer)], uri).toEqual([422, ['incorrect_value'], ['/redirect_uri']]);
    }
    for (const uri of ['https://app.example.com/cb?x=1', 'http://localhost:8080/cb', 'com.example.app:/oauth', 'outpost-ext://callback']) {
      expect((await post({ name: 'Good', redirect_uri: uri })).status, uri).toBe(200);
    }
    expect(codes(await post({ name: 'X', redirect_uri: 'https://x.example', secret: 'mine' }))).toEqual(['unknown']);
    expect(codes(await post({ name: 'X', redirect_uri: 'https://x.example', public: 'yes' }))).toEqual(['invalid_type']);
  });

  it('matches redirect URIs exactly, except for the port of a loopback one', () => {
    const client = (redirect_uri: string) => ({ client_id: 'c', name: 'c', secret_hash: null, redirect_uri, first_party: 0, public: 1 });
    expect(redirectUriMatches(client('https://a.example/cb'), 'https://a.example/cb')).toBe(true);
    expect(redirectUriMatches(client('https://a.example/cb'), 'https://a.example/cb2')).toBe(false);
    expect(redirectUriMatches(client('https://a.example/cb'), 'https://a.example:8443/cb')).toBe(false);
    expect(redirectUriMatches(client('http://127.0.0.1/cb'), 'http://127.0.0.1:53124/cb')).toBe(true);
    expect(redirectUriMatches(client('http://127.0.0.1/cb'), 'http://127.0.0.1:53124/other')).toBe(false);
    expect(redirectUriMatches(client('http://127.0.0.1/cb'), 'http://evil.example:53124/cb')).toBe(false);
    expect(redirectUriMatches(client('http://127.0.0.1/cb'), undefined)).toBe(false);
  });
});
