import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, AGENT, call, codes, fields, startTestHub, type TestHub } from '../support/testHub.js';
import { decide, openConsent } from '../support/consentForm.js';
import { FIRST_PARTY_APP_REDIRECT_URI, FIRST_PARTY_CLIENT_ID, FIRST_PARTY_REDIRECT_URI } from '../../shared/oauth.js';
import { redirectUriMatches, type OAuthClient } from '../../electron/engine/auth/clients.js';

/**
 * The installed desktop app's redirect (RFC 8252 §7.1, private-use URI
 * scheme): the hub's built-in client may send the browser back to
 * `outpost://oauth/callback`, which the OS hands to the Outpost app. Over
 * real HTTP, redirects read from the Location header (a browser would pass
 * the link to the OS; docs/api.md, OAuth).
 */
let hub: TestHub;
let thirdParty: { client_id: string };
beforeAll(async () => {
  hub = await startTestHub();
  thirdParty = hub.engine.clients.register({ name: 'Field CLI', redirect_uri: 'http://127.0.0.1/callback', public: true });
});
afterAll(() => hub.close());

const verifier = randomBytes(32).toString('base64url');
const challenge = createHash('sha256').update(verifier).digest('base64url');

const appParams = (extra: Record<string, string> = {}) => ({
  response_type: 'code', client_id: FIRST_PARTY_CLIENT_ID, redirect_uri: FIRST_PARTY_APP_REDIRECT_URI, scope: 'read write profile sync',
  state: 'st-1', code_challenge: challenge, code_challenge_method: 'S256', ...extra,
});

async function exchange(form: Record<string, string>) {
  const response = await fetch(`${hub.url}/oauth2/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: FIRST_PARTY_CLIENT_ID, client_secret: '', ...form }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** The link the hub sends the browser to, parsed; it must be the app's callback. */
function appCallback(location: string | null): URL {
  expect(location).not.toBeNull();
  const link = new URL(location!);
  expect(`${link.protocol}//${link.host}${link.pathname}`).toBe(FIRST_PARTY_APP_REDIRECT_URI);
  return link;
}

describe('the built-in client with the outpost://oauth/callback redirect', () => {
  it('shows the consent page under a policy whose form-action admits the outpost: scheme', async () => {
    const page = await openConsent(hub.url, appParams());
    expect(page.response.status).toBe(200);
    const csp = page.response.headers.get('content-security-policy')!;
    // A private-use scheme has no origin: the scheme-source, after the hub itself.
    expect(csp).toMatch(/(^|; )form-action 'self' outpost:(;|$)/);
    expect(csp).not.toMatch(/oauth\/callback/);
    expect(page.hidden).toMatchObject({ client_id: FIRST_PARTY_CLIENT_ID, redirect_uri: FIRST_PARTY_APP_REDIRECT_URI, state: 'st-1', code_challenge: challenge });
    // `oauth` is that link's "host" to a URL parser, but it names no server.
    expect(page.html).toContain('Either way you go back to the app that opens outpost: links.');
  });

  it('redirects to the app with the code and the state; the code buys tokens with PKCE and that same redirect URI', async () => {
    const { response, location } = await decide(hub.url, await openConsent(hub.url, appParams()), 'approve', ADMIN);
    expect(response.status).toBe(302);
    const link = appCallback(location);
    expect(location!.startsWith(`${FIRST_PARTY_APP_REDIRECT_URI}?`)).toBe(true);
    expect(link.searchParams.get('state')).toBe('st-1');
    const code = link.searchParams.get('code')!;
    expect(code).toMatch(/^[0-9a-f]{64}$/);

    // The exchange must present the redirect URI of the authorization request (RFC 6749 §4.1.3): not the loopback one.
    const loopback = await exchange({ grant_type: 'authorization_code', code, redirect_uri: 'http://127.0.0.1:50000/oauth/callback', code_verifier: verifier });
    expect([loopback.status, loopback.body.error]).toEqual([400, 'invalid_grant']);
    const noVerifier = await exchange({ grant_type: 'authorization_code', code, redirect_uri: FIRST_PARTY_APP_REDIRECT_URI });
    expect([noVerifier.status, noVerifier.body.error]).toEqual([400, 'invalid_grant']);
    const tokens = await exchange({ grant_type: 'authorization_code', code, redirect_uri: FIRST_PARTY_APP_REDIRECT_URI, code_verifier: verifier });
    expect(tokens.status).toBe(200);
    expect(tokens.body).toMatchObject({ token_type: 'bearer', scope: 'read write profile sync' });
    expect(tokens.body.refresh_token).toMatch(/^[0-9a-f]{64}$/);
    expect((await call(hub, 'GET', '/v2/users/self', { token: tokens.body.access_token })).body.data.email).toBe(ADMIN.email);
  });

  it('keeps the loopback redirect for unpackaged runs, on any port', async () => {
    const page = await openConsent(hub.url, appParams({ redirect_uri: 'http://127.0.0.1:50123/oauth/callback' }));
    expect(page.response.status).toBe(200);
    expect(page.response.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:50123/oauth/callback;");
  });

  it('redirects a denial to the app with error=access_denied and the state', async () => {
    const { response, location } = await decide(hub.url, await openConsent(hub.url, appParams({ state: 'st-2' })), 'deny', { ...AGENT, password: '' });
    expect(response.status).toBe(302);
    const link = appCallback(location);
    expect(link.searchParams.get('error')).toBe('access_denied');
    expect(link.searchParams.get('state')).toBe('st-2');
    expect(link.searchParams.get('code')).toBeNull();
  });

  it('sends the other request errors back to the app too', async () => {
    const page = await openConsent(hub.url, appParams({ code_challenge: '', code_challenge_method: '', state: 'st-3' }));
    expect(page.response.status).toBe(302);
    const link = appCallback(page.response.headers.get('location'));
    expect([link.searchParams.get('error'), link.searchParams.get('state')]).toEqual(['invalid_request', 'st-3']);
  });

  it('accepts only that exact link: another path, case or spelling gets the error page, not a redirect', async () => {
    for (const uri of ['outpost://oauth/callback/', 'outpost://oauth/other', 'outpost:///oauth/callback', 'OUTPOST://oauth/callback', 'outpost://contacts/12', 'outpost-app://oauth/callback']) {
      const page = await openConsent(hub.url, appParams({ redirect_uri: uri }));
      expect([uri, page.response.status, page.response.headers.get('location')]).toEqual([uri, 400, null]);
      expect(page.html).toContain('This sign-in request is not valid');
    }
  });
});

describe('the outpost: scheme and other applications', () => {
  it('cannot be used by a third-party client, whatever it registered', async () => {
    const page = await openConsent(hub.url, appParams({ client_id: thirdParty.client_id }));
    expect([page.response.status, page.response.headers.get('location')]).toEqual([400, null]);
    // A client registered with the link before the scheme was reserved (or written into the database) gets no further.
    const planted: OAuthClient = { client_id: 'planted', name: 'Planted', secret_hash: null, redirect_uri: FIRST_PARTY_APP_REDIRECT_URI, first_party: 0, public: 1 };
    expect(redirectUriMatches(planted, FIRST_PARTY_APP_REDIRECT_URI)).toBe(false);
    const builtIn: OAuthClient = { ...planted, client_id: FIRST_PARTY_CLIENT_ID, redirect_uri: FIRST_PARTY_REDIRECT_URI, first_party: 1 };
    expect(redirectUriMatches(builtIn, FIRST_PARTY_APP_REDIRECT_URI)).toBe(true);
    expect(redirectUriMatches(builtIn, 'http://127.0.0.1:4711/oauth/callback')).toBe(true);
    expect(redirectUriMatches(builtIn, 'outpost://oauth/callback?x=1')).toBe(false);
  });

  it('cannot be registered; other private-use schemes still can (RFC 8252 §7.1)', async () => {
    const post = (redirect_uri: string) => call(hub, 'POST', '/v2/oauth_clients', { token: hub.adminToken, data: { name: 'Native', redirect_uri, public: true } });
    for (const uri of [FIRST_PARTY_APP_REDIRECT_URI, 'outpost:/cb', 'Outpost://elsewhere']) {
      const answer = await post(uri);
      expect([uri, answer.status, codes(answer), fields(answer)]).toEqual([uri, 422, ['incorrect_value'], ['/redirect_uri']]);
      expect(answer.body.errors[0].error.message).toMatch(/outpost: scheme/);
    }
    for (const uri of ['com.example.app:/oauth', 'outpost-ext://callback']) expect([uri, (await post(uri)).status]).toEqual([uri, 200]);
  });
});
