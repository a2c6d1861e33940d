import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, startTestHub, type TestHub } from '../support/testHub.js';

let hub: TestHub;
beforeAll(async () => {
  hub = await startTestHub();
});
afterAll(() => hub.close());

describe('headers and envelopes', () => {
  it('answers with JSON, Content-Language and an X-Request-Id on every response', async () => {
    const ok = await call(hub, 'GET', '/v2/users/self', { token: hub.adminToken });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(ok.headers.get('content-language')).toBe('en');
    expect(ok.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(ok.body.meta).toEqual({ type: 'user' });
  });

  it('puts the request id in the error envelope as logref', async () => {
    const bad = await call(hub, 'GET', '/v2/users/self?unknown=param', { token: hub.adminToken });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveLength(1);
    expect(bad.body.errors[0].error).toMatchObject({ code: 'invalid_param', field: 'unknown' });
    expect(bad.body.errors[0].meta.type).toBe('error');
    expect(bad.body.errors[0].meta.links.more_info).toContain('/docs/api#invalid_param');
    expect(bad.body.meta).toMatchObject({ type: 'errors', http_status: '400 Bad Request' });
    expect(bad.body.meta.logref).toBe(bad.headers.get('x-request-id'));
  });

  it('answers an unknown route with 404 incorrect_path naming the path and method', async () => {
    const answer = await call(hub, 'GET', '/v2/nothing-here', { token: hub.adminToken });
    expect(answer.status).toBe(404);
    expect(codes(answer)).toEqual(['incorrect_path']);
    expect(answer.body.errors[0].error.message).toBe("Requested path at '/v2/nothing-here' was not found using the HTTP method 'GET'.");
  });

  it('refuses malformed JSON with 400 invalid_payload', async () => {
    const answer = await call(hub, 'POST', '/v2/contacts', { token: hub.adminToken, raw: '{"data": {' });
    expect(answer.status).toBe(400);
    expect(codes(answer)).toEqual(['invalid_payload']);
  });

  it('refuses a body that is not JSON with 415, and a huge body with 413', async () => {
    const xml = await call(hub, 'POST', '/v2/contacts', { token: hub.adminToken, raw: '<contact/>', contentType: 'application/xml' });
    expect(xml.status).toBe(415);
    expect(codes(xml)).toEqual(['unsupported_media_type']);
    const huge = await call(hub, 'POST', '/v2/contacts', { token: hub.adminToken, data: { last_name: 'x'.repeat(2 * 1024 * 1024) } });
    expect(huge.status).toBe(413);
    expect(codes(huge)).toEqual(['request_too_large']);
  });

  it('accepts an empty body with a form content type where none is needed', async () => {
    const created = await call(hub, 'POST', '/v2/contacts', { token: hub.adminToken, data: { last_name: 'Empty' } });
    const answer = await call(hub, 'DELETE', `/v2/contacts/${created.body.data.id}`, { token: hub.adminToken, raw: '', contentType: 'application/x-www-form-urlencoded' });
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
  });

  it('asks for the data envelope when a write has no body', async () => {
    const answer = await call(hub, 'POST', '/v2/contacts', { token: hub.adminToken });
    expect(answer.status).toBe(422);
    expect(answer.body.errors[0].error).toMatchObject({ code: 'missing', field: '/data' });
  });
});

describe('authentication', () => {
  it('needs a bearer token on every /v2 route, with WWW-Authenticate', async () => {
    for (const path of ['/v2/users/self', '/v2/contacts', '/v2/accounts/self', '/v2/contact/custom_fields', '/v2/no-such-route']) {
      const answer = await call(hub, 'GET', path);
      expect(answer.status, path).toBe(401);
      expect(codes(answer)).toEqual(['unauthorized']);
      expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
  });

  it('refuses unknown tokens and tokens of another length', async () => {
    for (const token of ['a'.repeat(64), 'short', hub.adminToken.slice(0, 63)]) {
      const answer = await call(hub, 'GET', '/v2/users/self', { token });
      expect(answer.status).toBe(401);
      expect(answer.body.errors).toHaveLength(1);
    }
  });

  it('issues 64-character tokens and stores only their hashes', () => {
    expect(hub.adminToken).toMatch(/^[0-9a-f]{64}$/);
    const stored = hub.engine.db.prepare('SELECT token_hash FROM access_tokens').pluck().all() as string[];
    expect(stored).not.toContain(hub.adminToken);
    const passwords = hub.engine.db.prepare('SELECT password_hash FROM users').pluck().all() as string[];
    expect(passwords.every((p) => p.startsWith('scrypt$'))).toBe(true);
  });

  it('refuses an expired OAuth access token with 401', async () => {
    const tokens = hub.engine.tokens.issue(hub.agentId, 'outpost-app', ['read'], { withRefreshToken: true });
    expect((await call(hub, 'GET', '/v2/contacts', { token: tokens.access_token })).status).toBe(200);
    hub.clock.advance(3600 * 1000);
    expect((await call(hub, 'GET', '/v2/contacts', { token: tokens.access_token })).status).toBe(401);
  });

  it('answers 403 insufficient_scope when the token lacks the scope', async () => {
    const readOnly = hub.tokenFor(hub.agentId, ['read']);
    expect((await call(hub, 'GET', '/v2/contacts', { token: readOnly })).status).toBe(200);
    const write = await call(hub, 'POST', '/v2/contacts', { token: readOnly, data: { last_name: 'Nope' } });
    expect(write.status).toBe(403);
    expect(codes(write)).toEqual(['insufficient_scope']);
    const profileOnly = hub.tokenFor(hub.agentId, ['profile']);
    expect((await call(hub, 'GET', '/v2/users/self', { token: profileOnly })).status).toBe(200);
    expect((await call(hub, 'GET', '/v2/contacts', { token: profileOnly })).status).toBe(403);
  });
});

describe('account and users', () => {
  it('GET /v2/accounts/self returns the account', async () => {
    const answer = await call(hub, 'GET', '/v2/accounts/self', { token: hub.agentToken });
    expect(answer.status).toBe(200);
    expect(answer.body.meta.type).toBe('account');
    expect(Object.keys(answer.body.data).sort()).toEqual(
      ['addons', 'commerce_changes', 'created_at', 'currency', 'email_daily_quota', 'id', 'name', 'phone', 'plan', 'smtp_configured', 'time_format', 'timezone', 'updated_at'],
    );
    // A fresh hub is on the top plan with every add-on, and products and orders can be changed.
    expect(answer.body.data).toMatchObject({ plan: 'elite', addons: ['outbound_sequences'], commerce_changes: 'enabled' });
  });

  it('GET /v2/users/self is the owner of the token', async () => {
    const answer = await call(hub, 'GET', '/v2/users/self', { token: hub.agentToken });
    expect(answer.body.data).toMatchObject({ id: hub.agentId, email: 'agent@example.com', role: 'user', status: 'active', roles: [{ id: 2, name: 'Agent' }] });
    expect(answer.body.data.timezone).toMatch(/^UTC[+-]\d{2}:\d{2}$/);
  });

  it('lists users with the spec filters and sorts', async () => {
    const admins = await call(hub, 'GET', '/v2/users?role=admin', { token: hub.agentToken });
    expect(admins.body.items.map((i: any) => i.data.id)).toEqual([hub.adminId]);
    const byEmail = await call(hub, 'GET', '/v2/users?email=agent@example.com', { token: hub.agentToken });
    expect(byEmail.body.items).toHaveLength(1);
    const sorted = await call(hub, 'GET', '/v2/users?sort_by=name:desc', { token: hub.agentToken });
    expect(sorted.body.items.map((i: any) => i.data.name)).toEqual(['Sam Agent', 'Ada Admin']);
    const confirmed = await call(hub, 'GET', '/v2/users?confirmed=True&status=active&role_id=1', { token: hub.agentToken });
    expect(confirmed.body.items.map((i: any) => i.data.id)).toEqual([hub.adminId]);
    const one = await call(hub, 'GET', `/v2/users/${hub.adminId}`, { token: hub.agentToken });
    expect(one.body.data.email).toBe('admin@example.com');
    expect((await call(hub, 'GET', '/v2/users/999', { token: hub.agentToken })).status).toBe(404);
    expect((await call(hub, 'GET', '/v2/users/abc', { token: hub.agentToken })).status).toBe(404);
    expect((await call(hub, 'GET', '/v2/users?status=sleeping', { token: hub.agentToken })).status).toBe(400);
  });
});

describe('pagination, sorting and ids', () => {
  beforeAll(async () => {
    for (const name of ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo']) {
      await call(hub, 'POST', '/v2/contacts', { token: hub.adminToken, data: { last_name: name, first_name: 'P' } });
    }
  });

  it('validates page and per_page', async () => {
    const tooMany = await call(hub, 'GET', '/v2/contacts?per_page=200', { token: hub.adminToken });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors[0].error.message).toBe(
      "The request query parameter 'per_page' is malformed, missing, or has an invalid value (must be between 1 and 100, given: 200).",
    );
    for (const query of ['page=0', 'page=x', 'per_page=0', 'per_page=-1', 'sort_by=nope', 'sort_by=name:sideways']) {
      const answer = await call(hub, 'GET', `/v2/contacts?${query}`, { token: hub.adminToken });
      expect(answer.status, query).toBe(400);
      expect(codes(answer), query).toEqual(['invalid_param']);
    }
  });

  it('links pages with first, prev and next so clients know when to stop', async () => {
    const first = await call(hub, 'GET', '/v2/contacts?per_page=2&sort_by=last_name', { token: hub.adminToken });
    expect(first.body.meta.count).toBe(2);
    expect(first.body.meta.links.next_page).toContain('page=2');
    expect(first.body.meta.links.prev_page).toBeUndefined();
    const names: string[] = [];
    let next: string | undefined = `${hub.url}/v2/contacts?per_page=2&sort_by=last_name`;
    while (next) {
      const page: any = await call(hub, 'GET', next.slice(hub.url.length), { token: hub.adminToken });
      names.push(...page.body.items.map((i: any) => i.data.last_name));
      if (page.body.meta.links.prev_page === undefined) expect(page.body.meta.links.first_page).toBeDefined();
      next = page.body.meta.links.next_page;
    }
    expect(names).toEqual(['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo']);
  });

  it('sorts descending with :desc', async () => {
    const answer = await call(hub, 'GET', '/v2/contacts?sort_by=last_name:desc&per_page=2', { token: hub.adminToken });
    expect(answer.body.items.map((i: any) => i.data.last_name)).toEqual(['Echo', 'Delta']);
  });

  it('accepts ids comma-separated and repeated, and returns exactly those', async () => {
    const all = await call(hub, 'GET', '/v2/contacts?sort_by=id', { token: hub.adminToken });
    const [a, , c] = all.body.items.map((i: any) => i.data.id);
    const comma = await call(hub, 'GET', `/v2/contacts?ids=${c},${a}`, { token: hub.adminToken });
    const repeated = await call(hub, 'GET', `/v2/contacts?ids=${c}&ids=${a}`, { token: hub.adminToken });
    const encoded = await call(hub, 'GET', `/v2/contacts?ids=${c}%2C${a}&sort_by=id`, { token: hub.adminToken });
    for (const answer of [comma, repeated, encoded]) {
      expect(answer.body.items.map((i: any) => i.data.id).sort()).toEqual([a, c].sort());
    }
    expect((await call(hub, 'GET', '/v2/contacts?ids=1,x', { token: hub.adminToken })).status).toBe(400);
  });
});

describe('record ids', () => {
  it('never gives a new record the id of a deleted one, even the newest', async () => {
    for (const [path, data, token] of [
      ['/v2/contacts', { last_name: 'Id' }, hub.agentToken],
      ['/v2/tasks', { content: 'Id' }, hub.agentToken],
      ['/v2/call_outcomes', { name: 'Id' }, hub.adminToken],
    ] as const) {
      const first = (await call(hub, 'POST', path, { token, data })).body.data;
      expect((await call(hub, 'DELETE', `${path}/${first.id}`, { token })).status).toBe(204);
      const next = (await call(hub, 'POST', path, { token, data: path.includes('outcomes') ? { name: 'Id 2' } : data })).body.data;
      expect(next.id, path).toBeGreaterThan(first.id);
      // The deleted record stays gone: a change meant for it cannot reach the new one.
      expect((await call(hub, 'PUT', `${path}/${first.id}`, { token, data: path.includes('outcomes') ? { name: 'Id 3' } : data })).status).toBe(404);
    }
  });
});

describe('rate limit', () => {
  it('answers 429 rate_limit_exceeded in the envelope once a token spends its hourly allowance', async () => {
    const limited = await startTestHub({ rateLimitPerHour: 3 });
    try {
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await call(limited, 'GET', '/v2/users/self', { token: limited.agentToken }));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
      expect(codes(answers[3])).toEqual(['rate_limit_exceeded']);
      expect(Number(answers[3].headers.get('retry-after'))).toBeGreaterThan(0);
      expect(answers[3].body.meta.logref).toBe(answers[3].headers.get('x-request-id'));
      // Another token has its own allowance.
      expect((await call(limited, 'GET', '/v2/users/self', { token: limited.adminToken })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
