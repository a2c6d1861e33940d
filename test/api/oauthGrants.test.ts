import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, AGENT, call, startTestHub, type TestHub } from '../support/testHub.js';
import { FIRST_PARTY_CLIENT_ID } from '../../shared/oauth.js';
import { MAX_FAILED_SIGN_INS, SIGN_IN_WINDOW_SECONDS } from '../../electron/engine/auth/signIn.js';
import { decide as decideOn, openConsent as consentOf, type ConsentPage } from '../support/consentForm.js';

/**
 * The authorization server over real HTTP: the consent page is fetched and
 * its form posted back as a browser without JavaScript would (hidden fields,
 * the CSRF cookie), and the redirects are read from the Location header.
 */
let hub: TestHub;
let app: { client_id: string; client_secret: string; redirect_uri: string };
let native: { client_id: string; redirect_uri: string };
const REDIRECT = 'https://crm-addon.example/oauth/callback?tenant=7';

beforeAll(async () => {
  hub = await startTestHub();
  app = hub.engine.clients.register({ name: 'CRM Add-on', redirect_uri: REDIRECT }) as typeof app;
  native = hub.engine.clients.register({ name: 'Field CLI', redirect_uri: 'http://127.0.0.1/callback', public: true });
});
afterAll(() => hub.close());

const basic = (id: string, secret = '') => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const appBasic = () => basic(app.client_id, app.client_secret);

async function tokenRequest(form: Record<string, string>, authorization: string | null = appBasic()) {
  const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded' };
  if (authorization) headers.Authorization = authorization;
  const response = await fetch(`${hub.url}/oauth2/token`, { method: 'POST', headers, body: new URLSearchParams(form) });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

/** The consent page of this hub, and its form posted back (test/support/consentForm.ts). */
const openConsent = (params: Record<string, string>) => consentOf(hub.url, params);
const decide = (page: ConsentPage, decision: 'approve' | 'deny', who: { email: string; password: string } = AGENT, override: Record<string, string> = {}) =>
  decideOn(hub.url, page, decision, who, override);

const codeParams = (extra: Record<string, string> = {}) => ({ response_type: 'code', client_id: app.client_id, redirect_uri: REDIRECT, state: 'xyz 42', ...extra });

async function authorizationCode(extra: Record<string, string> = {}) {
  const { location } = await decide(await openConsent(codeParams(extra)), 'approve');
  return new URL(location!).searchParams.get('code')!;
}

describe('authorization code grant', () => {
  it('shows a sign-in and consent page that works without JavaScript, under a strict policy', async () => {
    const page = await openConsent(codeParams({ scope: 'read profile' }));
    expect(page.response.status).toBe(200);
    expect(page.response.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.response.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self' https://crm-addon.example/oauth/callback");
    expect(csp).not.toMatch(/script-src/);
    expect(page.html).not.toMatch(/<script/i);
    expect(page.html).toContain('CRM Add-on');
    expect(page.html).toContain('See your name, email address and account');
    expect(page.hidden).toMatchObject({ client_id: app.client_id, redirect_uri: REDIRECT, state: 'xyz 42', scope: 'read profile' });
    expect(page.hidden.csrf_token).toBe(page.cookie);
    expect(page.response.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    expect(page.response.headers.get('set-cookie')).toMatch(/SameSite=Strict/i);
  });

  it('redirects with a code and the state on approval; the code buys tokens once, with the same redirect URI', async () => {
    const { location, response } = await decide(await openConsent(codeParams()), 'approve');
    expect(response.status).toBe(302);
    const back = new URL(location!);
    expect(`${back.origin}${back.pathname}`).toBe('https://crm-addon.example/oauth/callback');
    expect(back.searchParams.get('tenant')).toBe('7');
    expect(back.searchParams.get('state')).toBe('xyz 42');
    const code = back.searchParams.get('code')!;

    const wrongUri = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: 'https://crm-addon.example/other' });
    expect([wrongUri.status, wrongUri.body.error]).toEqual([400, 'invalid_grant']);
    const exchanged = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
    expect(exchanged.status).toBe(200);
    expect(exchanged.body).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'read write profile' });
    expect(exchanged.body.refresh_token).toMatch(/^[0-9a-f]{64}$/);
    expect((await call(hub, 'GET', '/v2/users/self', { token: exchanged.body.access_token })).body.data.email).toBe(AGENT.email);

    // Used twice: refused, and every token the code issued is revoked (RFC 6749 §4.1.2).
    const replay = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
    expect([replay.status, replay.body.error]).toEqual([400, 'invalid_grant']);
    expect((await call(hub, 'GET', '/v2/users/self', { token: exchanged.body.access_token })).status).toBe(401);
    expect((await tokenRequest({ grant_type: 'refresh_token', refresh_token: exchanged.body.refresh_token })).body.error).toBe('invalid_grant');
  });

  it('refuses a code after 10 minutes, from another client, or without a code', async () => {
    const late = await authorizationCode();
    hub.clock.advance(10 * 60 * 1000 + 1000);
    expect((await tokenRequest({ grant_type: 'authorization_code', code: late, redirect_uri: REDIRECT })).body.error).toBe('invalid_grant');

    const stolen = await authorizationCode();
    const other = hub.engine.clients.register({ name: 'Thief', redirect_uri: REDIRECT });
    const byOther = await tokenRequest({ grant_type: 'authorization_code', code: stolen, redirect_uri: REDIRECT }, basic(other.client_id, other.client_secret!));
    expect(byOther.body.error).toBe('invalid_grant');
    expect((await tokenRequest({ grant_type: 'authorization_code', code: stolen, redirect_uri: REDIRECT }, basic(app.client_id, 'wrong-secret'))).status).toBe(401);
    expect((await tokenRequest({ grant_type: 'authorization_code', redirect_uri: REDIRECT })).body.error).toBe('invalid_request');
  });

  it('redirects with error=access_denied and the state when the user denies, without needing a password', async () => {
    const { response, location } = await decide(await openConsent(codeParams()), 'deny', { ...AGENT, password: '' });
    expect(response.status).toBe(302);
    const back = new URL(location!);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('xyz 42');
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('never redirects for an unknown client or a redirect URI that is not the registered one', async () => {
    for (const params of [
      codeParams({ redirect_uri: 'https://evil.example/steal' }),
      codeParams({ redirect_uri: 'https://crm-addon.example/oauth/callback' }),
      codeParams({ client_id: 'f'.repeat(64) }),
      { response_type: 'code', redirect_uri: REDIRECT },
    ]) {
      const page = await openConsent(params);
      expect(page.response.status, JSON.stringify(params)).toBe(400);
      expect(page.response.headers.get('location')).toBeNull();
      expect(page.html).toContain('This sign-in request is not valid');
    }
  });

  it('sends the other request errors back to the application (RFC 6749 §4.1.2.1)', async () => {
    const errorOf = async (params: Record<string, string>) => {
      const page = await openConsent(params);
      expect(page.response.status).toBe(302);
      const back = new URL(page.response.headers.get('location')!);
      expect(back.searchParams.get('state')).toBe('xyz 42');
      return back.searchParams.get('error');
    };
    expect(await errorOf(codeParams({ response_type: 'id_token' }))).toBe('unsupported_response_type');
    expect(await errorOf({ ...codeParams(), response_type: '' })).toBe('invalid_request');
    expect(await errorOf(codeParams({ scope: 'read admin' }))).toBe('invalid_scope');
    expect(await errorOf(codeParams({ code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }))).toBe('invalid_request');
    const repeated = await fetch(`${hub.url}/oauth2/authorize?${new URLSearchParams(codeParams())}&state=again`, { redirect: 'manual' });
    expect(repeated.status).toBe(400);
  });

  it('keeps the CSRF check: the form needs its cookie, an untampered token and a fresh one', async () => {
    const csrf = await fetch(`${hub.url}/oauth2/csrf_token`);
    const issued = (await csrf.json()) as { csrf_token: string; generated_at: string };
    expect(csrf.headers.get('cache-control')).toBe('no-store');
    expect(issued.csrf_token).toMatch(/^\d+\.[\w-]+\.[\w-]+$/);
    expect(issued.generated_at).toBe(hub.clock.now().toISOString().replace(/\.\d{3}Z$/, 'Z'));

    const page = await openConsent(codeParams());
    const noCookie = await decide({ ...page, cookie: undefined }, 'approve');
    expect([noCookie.response.status, noCookie.location]).toEqual([400, null]);
    expect(noCookie.html).toContain('This page expired');
    // A token from the public endpoint is valid but is not this browser's cookie.
    const foreign = await decide(page, 'approve', AGENT, { csrf_token: issued.csrf_token });
    expect(foreign.response.status).toBe(400);
    const forged = `${page.cookie!.split('.').slice(0, 2).join('.')}.${'A'.repeat(43)}`;
    expect((await decide({ ...page, cookie: forged }, 'approve', AGENT, { csrf_token: forged })).response.status).toBe(400);
    hub.clock.advance(2 * 3600 * 1000);
    const stale = await decide(page, 'approve');
    expect(stale.response.status).toBe(400);
    expect(stale.html).toMatch(/name="csrf_token" value="(?!${page.cookie})/);
  });

  it('asks again on a wrong password, keeping the email and telling why', async () => {
    const wrong = await decide(await openConsent(codeParams()), 'approve', { ...AGENT, password: 'not-it-at-all' });
    expect([wrong.response.status, wrong.location]).toEqual([401, null]);
    expect(wrong.html).toContain('role="alert">The email or password is incorrect.');
    expect(wrong.html).toContain(`value="${AGENT.email}"`);
  });
});

describe('PKCE and native clients', () => {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');

  it('requires PKCE of a public client, and checks the verifier', async () => {
    const loopback = 'http://127.0.0.1:53682/callback';
    const params = { response_type: 'code', client_id: native.client_id, redirect_uri: loopback, state: 's' };
    const without = await openConsent(params);
    expect(new URL(without.response.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');

    const page = await openConsent({ ...params, code_challenge: challenge, code_challenge_method: 'S256' });
    expect(page.response.status).toBe(200);
    const code = new URL((await decide(page, 'approve')).location!).searchParams.get('code')!;
    const asNative = basic(native.client_id);
    const noVerifier = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: loopback }, asNative);
    expect(noVerifier.body.error).toBe('invalid_grant');
    const page2 = await openConsent({ ...params, code_challenge: challenge, code_challenge_method: 'S256' });
    const code2 = new URL((await decide(page2, 'approve')).location!).searchParams.get('code')!;
    const wrongVerifier = await tokenRequest({ grant_type: 'authorization_code', code: code2, redirect_uri: loopback, code_verifier: randomBytes(32).toString('base64url') }, asNative);
    expect(wrongVerifier.body.error).toBe('invalid_grant');
    const page3 = await openConsent({ ...params, code_challenge: challenge, code_challenge_method: 'S256' });
    const code3 = new URL((await decide(page3, 'approve')).location!).searchParams.get('code')!;
    const ok = await tokenRequest({ grant_type: 'authorization_code', code: code3, redirect_uri: loopback, code_verifier: verifier }, asNative);
    expect(ok.status).toBe(200);
    // A public client may not ask for users' passwords.
    const password = await tokenRequest({ grant_type: 'password', username: AGENT.email, password: AGENT.password }, asNative);
    expect([password.status, password.body.error]).toEqual([400, 'unauthorized_client']);
  });

  it('lets the desktop app (the built-in client) sign in through the browser with a loopback redirect on any port', async () => {
    const redirect = 'http://127.0.0.1:49152/oauth/callback';
    const page = await openConsent({ response_type: 'code', client_id: FIRST_PARTY_CLIENT_ID, redirect_uri: redirect, code_challenge: challenge, code_challenge_method: 'S256' });
    expect(page.response.status).toBe(200);
    const code = new URL((await decide(page, 'approve', ADMIN)).location!).searchParams.get('code')!;
    const tokens = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: redirect, code_verifier: verifier, client_id: FIRST_PARTY_CLIENT_ID }, null);
    expect(tokens.status).toBe(200);
    const implicit = await openConsent({ response_type: 'token', client_id: FIRST_PARTY_CLIENT_ID, redirect_uri: redirect });
    expect(new URLSearchParams(new URL(implicit.response.headers.get('location')!).hash.slice(1)).get('error')).toBe('unauthorized_client');
  });
});

describe('implicit grant', () => {
  it('returns the token in the fragment with bearer, 3600 and the state; scope only when not the default', async () => {
    const fragment = async (extra: Record<string, string>) => {
      const { location } = await decide(await openConsent({ response_type: 'token', client_id: app.client_id, redirect_uri: REDIRECT, state: 'st', ...extra }), 'approve');
      const back = new URL(location!);
      expect(back.searchParams.get('access_token')).toBeNull();
      return Object.fromEntries(new URLSearchParams(back.hash.slice(1)));
    };
    const plain = await fragment({});
    expect(plain).toMatchObject({ token_type: 'bearer', expires_in: '3600', state: 'st' });
    expect(plain.scope).toBeUndefined();
    expect(plain.refresh_token).toBeUndefined();
    expect((await call(hub, 'GET', '/v2/users/self', { token: plain.access_token })).status).toBe(200);
    const narrow = await fragment({ scope: 'read' });
    expect(narrow.scope).toBe('read');
    const denied = await decide(await openConsent({ response_type: 'token', client_id: app.client_id, redirect_uri: REDIRECT, state: 'st' }), 'deny');
    expect(Object.fromEntries(new URLSearchParams(new URL(denied.location!).hash.slice(1)))).toMatchObject({ error: 'access_denied', state: 'st' });
  });
});

describe('expiry, brute force and deactivated users', () => {
  it('expires access tokens after 3600 s by the engine clock; the refresh token gets a new one', async () => {
    const tokens = (await tokenRequest({ grant_type: 'authorization_code', code: await authorizationCode(), redirect_uri: REDIRECT })).body;
    hub.clock.advance(3599 * 1000);
    expect((await call(hub, 'GET', '/v2/users/self', { token: tokens.access_token })).status).toBe(200);
    hub.clock.advance(1000);
    const expired = await call(hub, 'GET', '/v2/users/self', { token: tokens.access_token });
    expect([expired.status, expired.headers.get('www-authenticate')]).toEqual([401, 'Bearer realm="outpost", error="invalid_token"']);
    const fresh = await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect((await call(hub, 'GET', '/v2/users/self', { token: fresh.body.access_token })).status).toBe(200);
  });

  it(`locks an email after ${MAX_FAILED_SIGN_INS} failed passwords, even for the right one, and says for how long`, async () => {
    const user = { email: 'target@example.com', password: 'target-password-1' };
    await hub.engine.users.create({ ...user, name: 'Target', role: 'user' });
    const asApp = basic(FIRST_PARTY_CLIENT_ID);
    for (let i = 0; i < MAX_FAILED_SIGN_INS; i++) {
      const failed = await tokenRequest({ grant_type: 'password', username: user.email, password: `guess-${i}` }, asApp);
      expect(failed.body.error).toBe('invalid_grant');
    }
    const locked = await tokenRequest({ grant_type: 'password', username: user.email, password: user.password }, asApp);
    expect([locked.status, locked.body.error]).toEqual([400, 'invalid_grant']);
    expect(locked.body.error_description).toMatch(/Too many failed sign-ins for this email: try again in 15 minutes/);
    expect(Number(locked.headers.get('retry-after'))).toBe(SIGN_IN_WINDOW_SECONDS);
    // The consent page is locked too.
    const page = await decide(await openConsent(codeParams()), 'approve', user);
    expect(page.response.status).toBe(429);
    expect(page.html).toContain('Too many failed sign-ins');
    // Other emails are not affected; the lock lifts when the window has passed.
    expect((await tokenRequest({ grant_type: 'password', username: AGENT.email, password: AGENT.password }, asApp)).status).toBe(200);
    hub.clock.advance(SIGN_IN_WINDOW_SECONDS * 1000);
    expect((await tokenRequest({ grant_type: 'password', username: user.email, password: user.password }, asApp)).status).toBe(200);
  });

  it("stops a deactivated user's tokens, refresh tokens and sign-ins at once, and does not revive them", async () => {
    const user = { email: 'leaver@example.com', password: 'leaver-password-1' };
    const id = await hub.engine.users.create({ ...user, name: 'Leaver', role: 'user' });
    const asApp = basic(FIRST_PARTY_CLIENT_ID);
    const tokens = (await tokenRequest({ grant_type: 'password', username: user.email, password: user.password }, asApp)).body;
    const personal = hub.tokenFor(id);
    hub.engine.users.setStatus(id, 'inactive');
    expect((await call(hub, 'GET', '/v2/users/self', { token: tokens.access_token })).status).toBe(401);
    expect((await call(hub, 'GET', '/v2/users/self', { token: personal })).status).toBe(401);
    expect((await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, asApp)).body.error).toBe('invalid_grant');
    expect((await tokenRequest({ grant_type: 'password', username: user.email, password: user.password }, asApp)).body.error).toBe('invalid_grant');
    hub.engine.users.setStatus(id, 'active');
    expect((await call(hub, 'GET', '/v2/users/self', { token: tokens.access_token })).status).toBe(401);
    expect((await tokenRequest({ grant_type: 'password', username: user.email, password: user.password }, asApp)).status).toBe(200);
  });
});

describe('scopes', () => {
  it('lets each scope do its own operations only, with 403 insufficient_scope otherwise', async () => {
    const token = (scopes: ('read' | 'write' | 'profile' | 'sync')[]) => hub.tokenFor(hub.agentId, scopes);
    const cases: [string[], string, string, number][] = [
      [['read'], 'GET', '/v2/contacts', 200],
      [['read'], 'POST', '/v2/contacts', 403],
      [['write'], 'GET', '/v2/contacts', 403],
      [['write'], 'POST', '/v2/contacts', 200],
      [['profile'], 'GET', '/v2/users/self', 200],
      [['profile'], 'GET', '/v2/accounts/self', 200],
      [['profile'], 'GET', '/v2/users', 403],
      [['sync'], 'GET', '/v2/contacts', 403],
      [['read', 'write', 'profile'], 'POST', '/v2/sync/start', 403],
    ];
    for (const [scopes, method, path, status] of cases) {
      const answer = await call(hub, method, path, { token: token(scopes as any), data: method === 'POST' ? { last_name: 'Scoped' } : undefined });
      expect(answer.status, `${scopes} ${method} ${path}`).toBe(status);
      if (status === 403) expect(answer.body.errors[0].error.code).toBe('insufficient_scope');
    }
  });
});
