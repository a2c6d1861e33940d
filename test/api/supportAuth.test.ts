import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, AGENT, call, startTestHub, type TestHub } from '../support/testHub.js';
import { basic, bearer, supportCall } from '../support/supportApi.js';
import { hashPassword } from '../../electron/engine/auth/passwords.js';
import { MAX_FAILED_SIGN_INS, SIGN_IN_WINDOW_SECONDS } from '../../electron/engine/auth/signIn.js';
import { REMEMBER_SECONDS } from '../../electron/engine/http/supportAuth.js';

let hub: TestHub;
const LIST = '/api/v2/custom_objects';
const list = (auth: string | null) => supportCall(hub, 'GET', LIST, { auth });
const create = (auth: string | null, key: string) =>
  supportCall(hub, 'POST', LIST, { auth, body: { custom_object: { key, title: 'Car', title_pluralized: 'Cars' } } });

/** A user of its own per test, so failed sign-ins of one test cannot lock another's. */
async function newUser(name: string, role: 'admin' | 'user' = 'user') {
  const email = `${name}@example.com`;
  const password = `${name}-password-1`;
  const id = await hub.engine.users.create({ email, name, password, role });
  return { id, email, password, auth: basic(email, password) };
}

function expectUnauthorized(answer: Awaited<ReturnType<typeof list>>) {
  expect(answer.status).toBe(401);
  expect(answer.body).toEqual({ error: 'Unauthorized', description: expect.any(String) });
  expect(answer.headers.get('www-authenticate')).toBe('Basic realm="Outpost"');
}

beforeAll(async () => {
  hub = await startTestHub();
});
afterAll(() => hub.close());

describe('HTTP Basic with a user\'s email and password', () => {
  it('lets admins and agents in', async () => {
    for (const user of [ADMIN, AGENT]) {
      const answer = await list(basic(user.email, user.password));
      expect(answer.status, user.email).toBe(200);
      expect(answer.body).toEqual({ custom_objects: [] });
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    }
  });

  it('answers a wrong password, an unknown email, a malformed header and a missing one with 401 in this interface\'s style', async () => {
    expectUnauthorized(await list(basic(ADMIN.email, 'not-the-password')));
    expectUnauthorized(await list(basic('nobody@example.com', ADMIN.password)));
    expectUnauthorized(await list(`Basic ${Buffer.from('no-colon-here').toString('base64')}`));
    expectUnauthorized(await list('Digest username="admin"'));
    expectUnauthorized(await list(null));
    // The right password still works afterwards (one failure does not lock).
    expect((await list(basic(ADMIN.email, ADMIN.password))).status).toBe(200);
  });

  it('accepts a password holding colons', async () => {
    const email = 'colons@example.com';
    await hub.engine.users.create({ email, name: 'Colons', password: 'a:b:c:d-1234', role: 'user' });
    expect((await list(basic(email, 'a:b:c:d-1234'))).status).toBe(200);
    expectUnauthorized(await list(basic(email, 'a:b')));
  });

  it('refuses a deactivated user at once, even right after a remembered success', async () => {
    const user = await newUser('leaver');
    expect((await list(user.auth)).status).toBe(200);
    hub.engine.users.setStatus(user.id, 'inactive');
    expectUnauthorized(await list(user.auth));
    hub.engine.users.setStatus(user.id, 'active');
    expect((await list(user.auth)).status).toBe(200);
  });

  it('refuses the old password at once after a password change, and takes the new one', async () => {
    const user = await newUser('changer');
    expect((await list(user.auth)).status).toBe(200);
    hub.engine.db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(await hashPassword('brand-new-password-1'), user.id);
    expectUnauthorized(await list(user.auth));
    expect((await list(basic(user.email, 'brand-new-password-1'))).status).toBe(200);
  });

  it('applies a role change at once to a remembered success', async () => {
    const user = await newUser('promoted');
    expect((await create(user.auth, 'promoted_thing')).status).toBe(403);
    hub.engine.db.prepare("UPDATE users SET role = 'admin' WHERE id = ?").run(user.id);
    expect((await create(user.auth, 'promoted_thing')).status).toBe(201);
  });

  it('remembers a success only for the same credentials, and only for a while', async () => {
    const user = await newUser('remembered');
    expect((await list(user.auth)).status).toBe(200);
    expectUnauthorized(await list(basic(user.email, 'wrong-password')));
    // Lock the email with failures: a success still remembered is not a new password check...
    for (let i = 1; i < MAX_FAILED_SIGN_INS; i++) await list(basic(user.email, `wrong-${i}`));
    expect((await list(user.auth)).status).toBe(200);
    // ...but once forgotten, the password is checked again and the lock applies.
    hub.clock.advance(REMEMBER_SECONDS * 1000);
    expect((await list(user.auth)).status).toBe(429);
    hub.clock.advance(SIGN_IN_WINDOW_SECONDS * 1000);
    expect((await list(user.auth)).status).toBe(200);
  });

  it('locks an email after repeated failures, even for the right password, with Retry-After', async () => {
    const user = await newUser('guessed');
    const answers = [];
    for (let i = 0; i < MAX_FAILED_SIGN_INS; i++) answers.push(await list(basic(user.email, `guess-${i}`)));
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401, 429]);
    const locked = await list(user.auth);
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({ error: 'TooManyRequests', description: expect.stringContaining('Too many failed sign-ins') });
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    hub.clock.advance(SIGN_IN_WINDOW_SECONDS * 1000);
    expect((await list(user.auth)).status).toBe(200);
  });
});

describe('Bearer tokens', () => {
  it('accepts the /v2 tokens and refuses unknown or revoked ones', async () => {
    expect((await list(bearer(hub.agentToken))).status).toBe(200);
    expectUnauthorized(await list(bearer('0'.repeat(64))));
    const user = await newUser('tokened');
    const token = hub.tokenFor(user.id);
    expect((await list(bearer(token))).status).toBe(200);
    hub.engine.users.setStatus(user.id, 'inactive');
    expectUnauthorized(await list(bearer(token)));
  });

  it('needs the read scope to read and the write scope to change', async () => {
    const readOnly = bearer(hub.tokenFor(hub.adminId, ['read']));
    expect((await list(readOnly)).status).toBe(200);
    const refused = await create(readOnly, 'scoped');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'Forbidden', description: expect.stringContaining("'write' scope") });
    const writeOnly = bearer(hub.tokenFor(hub.adminId, ['write']));
    expect((await list(writeOnly)).status).toBe(403);
    expect((await create(writeOnly, 'scoped')).status).toBe(201);
  });
});

describe('paths, methods and bodies', () => {
  const admin = () => bearer(hub.adminToken);

  it('asks for credentials before saying a path does not exist', async () => {
    for (const path of ['/api/v2/nothing/here', '/api/v2', '/api/v2/custom_objects/car/nowhere/else']) {
      expectUnauthorized(await supportCall(hub, 'GET', path, { auth: null }));
      const answer = await supportCall(hub, 'GET', path, { auth: admin() });
      expect(answer.status, path).toBe(404);
      expect(answer.body).toEqual({ error: 'InvalidEndpoint', description: expect.any(String) });
    }
    // Credentials come before the body is even read.
    expectUnauthorized(await supportCall(hub, 'POST', '/api/v2/nothing', { auth: null, raw: '{not json' }));
  });

  it('answers a known path called with another method 405 naming the allowed ones (after authentication)', async () => {
    const onList = await supportCall(hub, 'DELETE', LIST, { auth: admin() });
    expect(onList.status).toBe(405);
    expect(onList.body).toEqual({ error: 'MethodNotAllowed', description: 'This endpoint allows GET, POST.' });
    expect(onList.headers.get('allow')).toBe('GET, POST');
    const onOne = await supportCall(hub, 'PUT', `${LIST}/car`, { auth: admin(), body: { custom_object: {} } });
    expect([onOne.status, onOne.headers.get('allow')]).toEqual([405, 'GET, PATCH, DELETE']);
    expectUnauthorized(await supportCall(hub, 'PUT', `${LIST}/car`, { auth: null }));
  });

  it('accepts the real service\'s .json ending on paths', async () => {
    expect((await supportCall(hub, 'GET', `${LIST}.json`, { auth: admin() })).status).toBe(200);
    expect((await supportCall(hub, 'GET', `${LIST}/scoped.json`, { auth: admin() })).body.custom_object.key).toBe('scoped');
  });

  it('answers bad bodies 400, 413 and 415 in this interface\'s style', async () => {
    const badJson = await supportCall(hub, 'POST', LIST, { auth: admin(), raw: '{"custom_object": {' });
    expect(badJson.status).toBe(400);
    expect(badJson.body).toEqual({ error: 'InvalidPayload', description: expect.any(String) });
    for (const body of [undefined, [], { title: 'No wrapper' }, { custom_object: 'car' }, { custom_object: [] }]) {
      const answer = await supportCall(hub, 'POST', LIST, { auth: admin(), body });
      expect([answer.status, answer.body.error], JSON.stringify(body)).toEqual([400, 'InvalidPayload']);
    }
    const huge = await supportCall(hub, 'POST', LIST, { auth: admin(), body: { custom_object: { key: 'big', title: 'x'.repeat(1024 * 1024), title_pluralized: 'x' } } });
    expect(huge.status).toBe(413);
    expect(huge.body).toEqual({ error: 'PayloadTooLarge', description: expect.any(String) });
    const csv = await supportCall(hub, 'POST', LIST, { auth: admin(), raw: 'key,title', contentType: 'text/csv' });
    expect(csv.status).toBe(415);
    expect(csv.body).toEqual({ error: 'UnsupportedMediaType', description: expect.any(String) });
  });

  it('leaves the /v2 interface its own style', async () => {
    const answer = await call(hub, 'GET', '/v2/nothing', { token: hub.adminToken });
    expect(answer.status).toBe(404);
    expect(answer.body.errors[0].error.code).toBe('incorrect_path');
  });
});

describe('rate limit', () => {
  let limited: TestHub;
  beforeAll(async () => {
    limited = await startTestHub({ rateLimitPerHour: 3 });
  });
  afterAll(() => limited.close());

  it('applies the /v2 limit per credentials, answered 429 in this interface\'s style', async () => {
    const auth = bearer(limited.adminToken);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await supportCall(limited, 'GET', LIST, { auth })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await supportCall(limited, 'GET', LIST, { auth });
    expect(refused.body).toEqual({ error: 'TooManyRequests', description: expect.stringContaining('3 requests per hour') });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Other credentials have their own count.
    expect((await supportCall(limited, 'GET', LIST, { auth: bearer(limited.agentToken) })).status).toBe(200);
  });
});
