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
  it('keeps the previous refresh token valid until the new access token is first used, then ends it', async () => {
    const first = (await token({ grant_type: 'password', username: AGENT.email, password: AGENT.password })).body;
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'read write profile' });
    expect(refreshed.body.refresh_token).not.toBe(first.refresh_token);
    // The answer may have been lost: until the new access token is used, the old refresh token still works.
    const retried = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(retried.status).toBe(200);
    expect((await call(hub, 'GET', '/v2/users/self', { token: retried.body.access_token })).status).toBe(200);
    expect((await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token })).body.error).toBe('invalid_grant');
    // The refresh token of the first answer was never superseded by a used token: it still works.
    expect((await token({ grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token })).status).toBe(200);
  });

  it('narrows the scope on refresh but never widens it', async () => {
    const first = (await token({ grant_type: 'password', username: AGENT.email, password: AGENT.password, scope: 'read profile' })).body;
    const wider = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token, scope: 'read write' });
    expect([wider.status, wider.body.error]).toEqual([400, 'invalid_scope']);
    const narrower = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token, scope: 'read' });
    expect(narrower.body.scope).toBe('read');
  });

  it('refuses a refresh token of another client, and revokes access on logout', async () => {
    const first = (await token({ grant_type: 'password', username: AGENT.email, password: AGENT.password })).body;
    const other = hub.engine.clients.register({ name: 'Other', redirect_uri: 'https://other.example/cb' });
    const otherBasic = `Basic ${Buffer.from(`${other.client_id}:${other.client_secret}`).toString('base64')}`;
    expect((await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token }, otherBasic)).body.error).toBe('invalid_grant');
    expect((await token({ grant_type: 'refresh_token' })).body.error).toBe('invalid_request');

    const revoke = (form: Record<string, string>) => fetch(`${hub.url}/oauth2/revoke`, {
      method: 'POST', headers: { Authorization: APP_BASIC, 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form),
    });
    expect((await revoke({ token: first.refresh_token, token_type_hint: 'refresh_token' })).status).toBe(200);
    expect((await call(hub, 'GET', '/v2/users/self', { token: first.access_token })).status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token })).body.error).toBe('invalid_grant');
    // An access token alone: the refresh token beside it keeps working.
    const second = (await token({ grant_type: 'password', username: AGENT.email, password: AGENT.password })).body;
    expect((await revoke({ token: second.access_token, token_type_hint: 'access_token' })).status).toBe(200);
    expect((await call(hub, 'GET', '/v2/users/self', { token: second.access_token })).status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: second.refresh_token })).status).toBe(200);
    expect((await revoke({ token: 'f'.repeat(64) })).status).toBe(200);
    const missing = await revoke({});
    expect([missing.status, ((await missing.json()) as any).error]).toEqual([400, 'invalid_request']);
  });
});
