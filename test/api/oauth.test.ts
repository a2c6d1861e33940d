import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, AGENT, call, startTestHub, type TestHub } from '../support/testHub.js';

let hub: TestHub;
beforeAll(async () => {
  hub = await startTestHub();
});
afterAll(() => hub.close());

const APP_BASIC = `Basic ${Buffer.from('outpost-app:').toString('base64')}`;

async function token(form: Record<string, string>, authorization: string | null = APP_BASIC) {
  const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded' };
  if (authorization) headers.Authorization = authorization;
  const response = await fetch(`${hub.url}/oauth2/token`, { method: 'POST', headers, body: new URLSearchParams(form) });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

describe('password grant', () => {
  it('issues a bearer token the API accepts, with a refresh token', async () => {
    const answer = await token({ grant_type: 'password', username: AGENT.email, password: AGENT.password });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'read write profile' });
    expect(answer.body.access_token).toMatch(/^[0-9a-f]{64}$/);
    expect(answer.body.refresh_token).toMatch(/^[0-9a-f]{64}$/);
    const self = await call(hub, 'GET', '/v2/users/self', { token: answer.body.access_token });
    expect(self.body.data.email).toBe(AGENT.email);
  });

  it('refuses a wrong password or unknown user with invalid_grant, without telling which', async () => {
    const wrong = await token({ grant_type: 'password', username: AGENT.email, password: 'nope-nope' });
    const unknown = await token({ grant_type: 'password', username: 'who@example.com', password: 'nope-nope' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.error).toBe('invalid_grant');
  });

  it('authenticates the client by Basic header or body fields, and refuses a mismatch', async () => {
    const byBody = await token({ grant_type: 'password', username: ADMIN.email, password: ADMIN.password, client_id: 'outpost-app', client_secret: '' }, null);
    expect(byBody.status).toBe(200);
    const mismatch = await token({ grant_type: 'password', username: ADMIN.email, password: ADMIN.password, client_id: 'someone-else' });
    expect(mismatch.status).toBe(401);
    expect(mismatch.body.error).toBe('invalid_client');
    const noClient = await token({ grant_type: 'password', username: ADMIN.email, password: ADMIN.password }, null);
    expect(noClient.status).toBe(401);
    expect(noClient.headers.get('www-authenticate')).toMatch(/^Basic/);
  });

  it('narrows scope on request and refuses unknown scopes or grant types', async () => {
    const narrow = await token({ grant_type: 'password', username: AGENT.email, password: AGENT.password, scope: 'read' });
    expect(narrow.body.scope).toBe('read');
    expect((await call(hub, 'POST', '/v2/contacts', { token: narrow.body.access_token, data: { last_name: 'X' } })).status).toBe(403);
    expect((await token({ grant_type: 'password', username: AGENT.email, password: AGENT.password, scope: 'admin' })).body.error).toBe('invalid_scope');
    expect((await token({ grant_type: 'magic' })).body.error).toBe('unsupported_grant_type');
    expect((await token({})).body.error).toBe('invalid_request');
  });
});

describe('refresh and revoke', () => {
  it('rotates the refresh token and revokes access on logout', async () => {
    const first = (await token({ grant_type: 'password', username: AGENT.email, password: AGENT.password })).body;
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(first.refresh_token);
    expect((await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token })).body.error).toBe('invalid_grant');

    const revoke = await fetch(`${hub.url}/oauth2/revoke`, {
      method: 'POST', headers: { Authorization: APP_BASIC, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: refreshed.body.refresh_token }),
    });
    expect(revoke.status).toBe(200);
    expect((await call(hub, 'GET', '/v2/users/self', { token: refreshed.body.access_token })).status).toBe(401);
  });
});
