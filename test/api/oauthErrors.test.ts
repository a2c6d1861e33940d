import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT, call, startTestHub, type Answer, type TestHub } from '../support/testHub.js';
import { FIRST_PARTY_CLIENT_ID } from '../../shared/oauth.js';

/**
 * Every error of the token and revocation endpoints, whatever raises it (the
 * body's parsing, its type and size, client authentication, the grant, a
 * rate limit, a database that is gone), in OAuth's shape (RFC 6749 §5.2,
 * RFC 7009 §2.2): `{"error", "error_description"}` as JSON, never cached,
 * 401 with WWW-Authenticate for a client that failed to authenticate; never
 * the /v2 envelope. Over real HTTP, on SQLite and (in the PostgreSQL run) on PostgreSQL.
 */
let hub: TestHub;
let confidential: { client_id: string; client_secret: string };
let publicClient: { client_id: string };

beforeAll(async () => {
  hub = await startTestHub();
  confidential = hub.engine.clients.register({ name: 'Back office', redirect_uri: 'https://back-office.example/callback' }) as typeof confidential;
  publicClient = hub.engine.clients.register({ name: 'Field CLI', redirect_uri: 'http://127.0.0.1/callback', public: true });
});
afterAll(() => hub.close());

const FORM = 'application/x-www-form-urlencoded';
const basic = (id: string, secret = '') => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const appBasic = () => basic(confidential.client_id, confidential.client_secret);
const ROUTES = ['/oauth2/token', '/oauth2/revoke'] as const;
/** RFC 6749 §5.2's codes, and the two its §4.1.2.1 adds for a server that cannot answer; the invitation pages' rate limit adds slow_down (RFC 8628). */
const OAUTH_CODES = ['invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope', 'temporarily_unavailable', 'server_error', 'slow_down'];

function post(hubOf: TestHub, path: string, body: string, contentType: string | null, authorization: string | null = appBasic()): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (authorization) headers.Authorization = authorization;
  return call(hubOf, 'POST', path, { raw: body, headers, ...(contentType ? { contentType } : {}) });
}

/** The answer is OAuth's error: status, code, a description, JSON, not cached; nothing of the /v2 envelope or of the server's insides. */
function expectOAuthError(answer: Answer, status: number, error: string): void {
  expect({ status: answer.status, body: answer.body }).toMatchObject({ status, body: { error } });
  expect(OAUTH_CODES).toContain(answer.body.error);
  expect(Object.keys(answer.body).sort()).toEqual(['error', 'error_description']);
  expect(answer.body.error_description).toEqual(expect.any(String));
  expect(answer.body.error_description.length).toBeGreaterThan(0);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json\b/);
  expect(answer.headers.get('cache-control')).toBe('no-store');
  expect(answer.headers.get('pragma')).toBe('no-cache');
  expect(answer.text).not.toMatch(/errors|meta|SQLSTATE|at .*\.[jt]s:\d+|127\.0\.0\.1|5432/);
  if (status === 401) expect(answer.headers.get('www-authenticate')).toMatch(/^Basic realm="[^"]+"$/);
}

describe.each(ROUTES)('%s', (path) => {
  /** A body that passes every check but the one the case breaks. */
  const valid: Record<string, string> = path === '/oauth2/token' ? { grant_type: 'refresh_token', refresh_token: 'not-a-token' } : { token: 'not-a-token' };

  it('answers a malformed JSON body invalid_request (400)', async () => {
    expectOAuthError(await post(hub, path, '{"grant_type": "password", ', 'application/json'), 400, 'invalid_request');
    expectOAuthError(await post(hub, path, '{"token": "a\u0000b"', 'application/json'), 400, 'invalid_request');
  });

  it('answers a JSON body whose text is not sound (NUL, lone surrogate), too deep, or not an object invalid_request (400)', async () => {
    expectOAuthError(await post(hub, path, JSON.stringify({ ...valid, scope: 'read\u0000' }), 'application/json'), 400, 'invalid_request');
    expectOAuthError(await post(hub, path, `{"token": "\\ud800", "grant_type": "password"}`, 'application/json'), 400, 'invalid_request');
    expectOAuthError(await post(hub, path, '[1, 2]', 'application/json'), 400, 'invalid_request');
    expectOAuthError(await post(hub, path, '"token"', 'application/json'), 400, 'invalid_request');
    expectOAuthError(await post(hub, path, `${'['.repeat(40)}${']'.repeat(40)}`, 'application/json'), 400, 'invalid_request');
  });

  it('answers a body that is neither a form nor JSON 415 invalid_request, naming what it takes', async () => {
    for (const type of ['text/plain', 'multipart/form-data; boundary=x', 'application/xml']) {
      const answer = await post(hub, path, new URLSearchParams(valid).toString(), type);
      expectOAuthError(answer, 415, 'invalid_request');
      expect(answer.body.error_description).toContain('application/x-www-form-urlencoded');
    }
  });

  it('answers a body over the limit 413 invalid_request, form or JSON', async () => {
    const big = 'x'.repeat(1024 * 1024 + 10);
    expectOAuthError(await post(hub, path, new URLSearchParams({ ...valid, padding: big }).toString(), FORM), 413, 'invalid_request');
    expectOAuthError(await post(hub, path, JSON.stringify({ ...valid, padding: big }), 'application/json'), 413, 'invalid_request');
  });

  it('answers a form field or name holding NUL invalid_request, on either database (never a 500)', async () => {
    for (const [key, value] of [['username', 'a\u0000b'], ['token', '\u0000'], ['refresh_token', 'x\u0000'], ['odd\u0000name', 'x']]) {
      const answer = await post(hub, path, new URLSearchParams({ ...valid, [key]: value }).toString(), FORM);
      expectOAuthError(answer, 400, 'invalid_request');
    }
    // In the client's own credentials: the client did not authenticate.
    const nulClient = `Basic ${Buffer.from(`${confidential.client_id}\u0000:secret`).toString('base64')}`;
    expectOAuthError(await post(hub, path, new URLSearchParams(valid).toString(), FORM, nulClient), 401, 'invalid_client');
    expectOAuthError(await post(hub, path, new URLSearchParams(valid).toString(), FORM, basic('outpost%00app')), 401, 'invalid_client');
  });

  it('answers a field given twice invalid_request (RFC 6749 §3.1)', async () => {
    expectOAuthError(await post(hub, path, `${new URLSearchParams(valid).toString()}&scope=read&scope=write`, FORM), 400, 'invalid_request');
  });

  it('answers a client that fails to authenticate 401 invalid_client with WWW-Authenticate', async () => {
    const form = new URLSearchParams(valid).toString();
    expectOAuthError(await post(hub, path, form, FORM, null), 401, 'invalid_client');
    expectOAuthError(await post(hub, path, form, FORM, basic(confidential.client_id, 'wrong-secret')), 401, 'invalid_client');
    expectOAuthError(await post(hub, path, form, FORM, basic('no-such-client', 'secret')), 401, 'invalid_client');
    expectOAuthError(await post(hub, path, form, FORM, 'Basic !!!'), 401, 'invalid_client');
    expectOAuthError(await post(hub, path, form, FORM, 'Bearer abc'), 401, 'invalid_client');
    // In the body instead of the header: still 401 (RFC 6749 §5.2 allows it), with the header that names the scheme.
    const inBody = new URLSearchParams({ ...valid, client_id: confidential.client_id, client_secret: 'wrong-secret' }).toString();
    expectOAuthError(await post(hub, path, inBody, FORM, null), 401, 'invalid_client');
    expectOAuthError(await post(hub, path, JSON.stringify({ ...valid, client_id: 'no-such-client' }), 'application/json', null), 401, 'invalid_client');
  });

});

describe('the token endpoint', () => {
  const token = (form: Record<string, string>, authorization: string | null = appBasic()) => post(hub, '/oauth2/token', new URLSearchParams(form).toString(), FORM, authorization);

  it('answers each grant error with its standard code', async () => {
    expectOAuthError(await token({}), 400, 'invalid_request');
    expectOAuthError(await token({ grant_type: 'client_credentials' }), 400, 'unsupported_grant_type');
    expectOAuthError(await token({ grant_type: 'authorization_code' }), 400, 'invalid_request');
    expectOAuthError(await token({ grant_type: 'authorization_code', code: 'made-up', redirect_uri: 'https://back-office.example/callback' }), 400, 'invalid_grant');
    expectOAuthError(await token({ grant_type: 'refresh_token', refresh_token: 'made-up' }), 400, 'invalid_grant');
    expectOAuthError(await token({ grant_type: 'password', username: AGENT.email, password: 'wrong-password' }), 400, 'invalid_grant');
    expectOAuthError(await token({ grant_type: 'password', username: AGENT.email, password: AGENT.password, scope: 'everything' }), 400, 'invalid_scope');
    expectOAuthError(await token({ grant_type: 'password', username: AGENT.email, password: AGENT.password }, basic(publicClient.client_id)), 400, 'unauthorized_client');
    expectOAuthError(await token({ grant_type: 'password', username: AGENT.email }), 400, 'invalid_request');
  });

  it('answers success as JSON, never cached either', async () => {
    const answer = await token({ grant_type: 'password', username: AGENT.email, password: AGENT.password }, basic(FIRST_PARTY_CLIENT_ID));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json\b/);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('pragma')).toBe('no-cache');
    const json = await post(hub, '/oauth2/token', JSON.stringify({ grant_type: 'password', username: AGENT.email, password: AGENT.password }), 'application/json', basic(FIRST_PARTY_CLIENT_ID));
    expect(json.status).toBe(200);
    expect(json.body.token_type).toBe('bearer');
  });
});

describe('the revocation endpoint', () => {
  it('answers a missing token invalid_request, and an unknown one 200 (RFC 7009 §2.2), never cached', async () => {
    expectOAuthError(await post(hub, '/oauth2/revoke', '', FORM), 400, 'invalid_request');
    expectOAuthError(await post(hub, '/oauth2/revoke', 'token_type_hint=access_token', FORM), 400, 'invalid_request');
    const unknown = await post(hub, '/oauth2/revoke', 'token=unknown', FORM);
    expect(unknown.status).toBe(200);
    expect(unknown.headers.get('cache-control')).toBe('no-store');
  });
});

describe('the invitation endpoints under /oauth2', () => {
  it('answer a malformed body and their rate limit in the same shape', async () => {
    expectOAuthError(await post(hub, '/oauth2/invitations/lookup', '{"token": ', 'application/json', null), 400, 'invalid_request');
    expectOAuthError(await post(hub, '/oauth2/invitations/lookup', 'token=x', 'text/plain', null), 415, 'invalid_request');
    let last: Answer | undefined;
    for (let i = 0; i < 40 && last?.status !== 429; i++) last = await post(hub, '/oauth2/invitations/lookup', 'token=unknown', FORM, null);
    expect({ status: last!.status, body: last!.body }).toMatchObject({ status: 429, body: { error: 'slow_down' } });
    expect(last!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(last!.headers.get('cache-control')).toBe('no-store');
  });
});

describe('a fault on the server', () => {
  it('answers in OAuth shape, without its cause: the database the engine used is gone', async () => {
    const faulty = await startTestHub();
    try {
      faulty.engine.close();
      const answer = await post(faulty, '/oauth2/token', new URLSearchParams({ grant_type: 'password', username: AGENT.email, password: AGENT.password }).toString(), FORM, basic(FIRST_PARTY_CLIENT_ID));
      // A closed connection is no outage the server can name (that is 503 temporarily_unavailable): a logged 500.
      expectOAuthError(answer, 500, 'server_error');
      expect(answer.text).not.toMatch(/database connection|not open|pg|sqlite/i);
    } finally {
      await faulty.close();
    }
  });
});
