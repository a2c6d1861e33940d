import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, AGENT, call, codes, fields, startTestHub, type TestHub } from '../support/testHub.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtpServer.js';
import { cleanUp, outpost, tempDir } from '../support/cliProcess.js';
import { startTestReplica } from '../support/testReplica.js';

/** Team administration and the test email: a real hub over HTTP, a real SMTP server. */
let hub: TestHub;
let smtp: TestSmtpServer;
beforeAll(async () => {
  hub = await startTestHub();
  smtp = await startSmtpServer();
});
afterAll(async () => {
  cleanUp();
  await smtp.close();
  await hub.close();
});

const APP_BASIC = `Basic ${Buffer.from('outpost-app:').toString('base64')}`;

/** The password grant of the built-in app: what signing in does. */
async function signIn(email: string, password: string) {
  const response = await fetch(`${hub.url}/oauth2/token`, {
    method: 'POST',
    headers: { Authorization: APP_BASIC, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: email, password }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** The public endpoint behind the invite page; form-encoded like the rest of /oauth2. */
async function publicPost(path: string, form: Record<string, string>) {
  const response = await fetch(`${hub.url}${path}`, {
    method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

const admin = (method: string, path: string, data?: unknown) => call(hub, method, path, { token: hub.adminToken, data });
const tokenOf = (inviteUrl: string) => inviteUrl.split('/invite/')[1];

describe('adding users', () => {
  it('adds an active user with a password, who can sign in', async () => {
    const answer = await admin('POST', '/v2/users', { name: 'Pat Password', email: 'pat@example.com', role: 'user', password: 'pat-secret-1' });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ name: 'Pat Password', email: 'pat@example.com', role: 'user', status: 'active', invited: false, confirmed: true });
    expect(answer.body.meta.invite_url).toBeUndefined();
    expect((await signIn('pat@example.com', 'pat-secret-1')).status).toBe(200);
    const listed = await admin('GET', '/v2/users?email=pat@example.com');
    expect(listed.body.items.map((i: any) => i.data.id)).toEqual([answer.body.data.id]);
  });

  it('invites a user without a password: a one-time link on the hub that sets it and signs them in', async () => {
    const answer = await admin('POST', '/v2/users', { name: 'Ivy Invite', email: 'ivy@example.com', role: 'admin' });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ role: 'admin', status: 'active', invited: true, confirmed: false });
    const url: string = answer.body.meta.invite_url;
    expect(url).toMatch(new RegExp(`^${hub.url}/invite/[0-9a-f]{64}$`));
    expect(answer.body.meta.invite_expires_at).toBe('2026-03-09T10:00:00Z');
    // Only a hash is stored: the link's token is nowhere in the database.
    const stored = hub.engine.db.prepare('SELECT token_hash FROM user_invitations').pluck().all() as string[];
    expect(stored).not.toContain(tokenOf(url));
    // Not signed in before the password is set.
    expect((await signIn('ivy@example.com', '')).status).toBe(400);

    const lookup = await publicPost('/oauth2/invitations/lookup', { token: tokenOf(url) });
    expect(lookup.body).toEqual({ email: 'ivy@example.com', name: 'Ivy Invite', invited: true });
    const accepted = await publicPost('/oauth2/invitations/accept', { token: tokenOf(url), password: 'ivy-secret-1' });
    expect(accepted.status).toBe(200);
    expect(accepted.headers.get('cache-control')).toBe('no-store');
    expect(accepted.body).toEqual({ email: 'ivy@example.com', name: 'Ivy Invite' });
    const signedIn = await signIn('ivy@example.com', 'ivy-secret-1');
    expect(signedIn.status).toBe(200);
    const self = await call(hub, 'GET', '/v2/users/self', { token: signedIn.body.access_token });
    expect(self.body.data).toMatchObject({ email: 'ivy@example.com', invited: false, confirmed: true });

    const again = await publicPost('/oauth2/invitations/accept', { token: tokenOf(url), password: 'another-pass-1' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: 'invalid_grant', error_description: expect.stringMatching(/already been used/) });
  });

  it('answers JSON as well as forms, and refuses a short password or a missing or unknown token', async () => {
    const { body } = await admin('POST', '/v2/users', { name: 'Jo Json', email: 'jo@example.com', role: 'user' });
    const token = tokenOf(body.meta.invite_url);
    const short = await publicPost('/oauth2/invitations/accept', { token, password: 'short' });
    expect(short).toMatchObject({ status: 400, body: { error: 'invalid_request', error_description: 'The password must be at least 8 characters.' } });
    expect((await publicPost('/oauth2/invitations/accept', { password: 'long-enough-1' })).body.error).toBe('invalid_request');
    expect((await publicPost('/oauth2/invitations/accept', { token: 'f'.repeat(64), password: 'long-enough-1' })).body)
      .toEqual({ error: 'invalid_grant', error_description: expect.stringMatching(/not valid/) });
    const json = await fetch(`${hub.url}/oauth2/invitations/accept`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token, password: 'jo-secret-12' }),
    });
    expect(json.status).toBe(200);
    expect((await signIn('jo@example.com', 'jo-secret-12')).status).toBe(200);
  });

  it('expires links after 7 days, and a fresh link ends the earlier one', async () => {
    const { body } = await admin('POST', '/v2/users', { name: 'Ed Expired', email: 'ed@example.com', role: 'user' });
    const id = body.data.id;
    const first = tokenOf(body.meta.invite_url);
    hub.clock.advance(7 * 86_400_000 + 1000);
    try {
      const late = await publicPost('/oauth2/invitations/accept', { token: first, password: 'ed-secret-12' });
      expect(late.body).toEqual({ error: 'invalid_grant', error_description: expect.stringMatching(/expired/) });
      const fresh = await admin('POST', `/v2/users/${id}/invitation`);
      expect(fresh.status).toBe(200);
      expect(fresh.body.data.invite_url).toMatch(/\/invite\/[0-9a-f]{64}$/);
      expect(Date.parse(fresh.body.data.expires_at) - hub.clock.now().getTime()).toBe(7 * 86_400_000);
      const second = await admin('POST', `/v2/users/${id}/invitation`);
      const replaced = await publicPost('/oauth2/invitations/accept', { token: tokenOf(fresh.body.data.invite_url), password: 'ed-secret-12' });
      expect(replaced.body.error_description).toMatch(/replaced by a newer one/);
      expect((await publicPost('/oauth2/invitations/accept', { token: tokenOf(second.body.data.invite_url), password: 'ed-secret-12' })).status).toBe(200);
      expect((await signIn('ed@example.com', 'ed-secret-12')).status).toBe(200);
    } finally {
      hub.clock.set('2026-03-02T10:00:00Z');
    }
  });

  it('resets a password with a link: the old sessions end, the new password signs in', async () => {
    const created = await admin('POST', '/v2/users', { name: 'Rae Reset', email: 'rae@example.com', role: 'user', password: 'rae-secret-1' });
    const old = await signIn('rae@example.com', 'rae-secret-1');
    const link = await admin('POST', `/v2/users/${created.body.data.id}/invitation`);
    expect((await publicPost('/oauth2/invitations/lookup', { token: tokenOf(link.body.data.invite_url) })).body.invited).toBe(false);
    expect((await publicPost('/oauth2/invitations/accept', { token: tokenOf(link.body.data.invite_url), password: 'rae-secret-2' })).status).toBe(200);
    expect((await call(hub, 'GET', '/v2/users/self', { token: old.body.access_token })).status).toBe(401);
    expect((await signIn('rae@example.com', 'rae-secret-1')).status).toBe(400);
    expect((await signIn('rae@example.com', 'rae-secret-2')).status).toBe(200);
  });

  it('refuses a duplicate email as the CLI does, and lists every field problem in one 422', async () => {
    const duplicate = await admin('POST', '/v2/users', { name: 'Other', email: AGENT.email.toUpperCase(), role: 'user' });
    expect(duplicate.status).toBe(422);
    expect(codes(duplicate)).toEqual(['already_exists']);
    expect(fields(duplicate)).toEqual(['/email']);

    const bad = await admin('POST', '/v2/users', { name: ' ', email: 'not-an-email', role: 'owner', password: 'short', color: 'red' });
    expect(bad.status).toBe(422);
    expect(Object.fromEntries(bad.body.errors.map((e: any) => [e.error.field, e.error.code]))).toEqual({
      '/name': 'blank', '/email': 'incorrect_value', '/role': 'incorrect_value', '/password': 'incorrect_value', '/color': 'unknown',
    });
    expect(bad.body.errors.find((e: any) => e.error.field === '/role').error.message).toBe('role must be one of: user, admin.');
    const missing = await admin('POST', '/v2/users', {});
    expect(codes(missing)).toEqual(['missing', 'missing', 'missing']);
    expect(fields(missing).sort()).toEqual(['/email', '/name', '/role']);
  });
});

describe('changing users', () => {
  it('changes the role, shown by GET /v2/users/:id; read-only fields sent back are ignored, unknown ones refused', async () => {
    const { body } = await admin('POST', '/v2/users', { name: 'Rob Role', email: 'rob@example.com', role: 'user', password: 'rob-secret-1' });
    const user = body.data;
    const changed = await admin('PUT', `/v2/users/${user.id}`, { ...user, role: 'admin', name: 'Robin Role' });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ role: 'admin', name: 'Robin Role', email: 'rob@example.com', roles: [{ id: 1, name: 'Admin' }] });
    expect((await admin('GET', `/v2/users/${user.id}`)).body.data.role).toBe('admin');
    const unknown = await admin('PUT', `/v2/users/${user.id}`, { nickname: 'R', status: 'asleep' });
    expect(unknown.status).toBe(422);
    expect(codes(unknown).sort()).toEqual(['incorrect_value', 'unknown']);
    expect((await admin('PUT', '/v2/users/999999', { name: 'Nobody' })).status).toBe(404);
  });

  it('deactivating revokes tokens and blocks sign-in; reactivating allows a new sign-in', async () => {
    const { body } = await admin('POST', '/v2/users', { name: 'Dee Active', email: 'dee@example.com', role: 'user', password: 'dee-secret-1' });
    const session = await signIn('dee@example.com', 'dee-secret-1');
    expect((await call(hub, 'GET', '/v2/users/self', { token: session.body.access_token })).status).toBe(200);

    const off = await admin('PUT', `/v2/users/${body.data.id}`, { status: 'inactive' });
    expect(off.body.data.status).toBe('inactive');
    expect((await call(hub, 'GET', '/v2/users/self', { token: session.body.access_token })).status).toBe(401);
    expect((await signIn('dee@example.com', 'dee-secret-1')).body.error).toBe('invalid_grant');
    // No link for a deactivated user.
    expect((await admin('POST', `/v2/users/${body.data.id}/invitation`)).status).toBe(409);

    expect((await admin('PUT', `/v2/users/${body.data.id}`, { status: 'active' })).body.data.status).toBe('active');
    const fresh = await signIn('dee@example.com', 'dee-secret-1');
    expect(fresh.status).toBe(200);
    // The old token stays revoked.
    expect((await call(hub, 'GET', '/v2/users/self', { token: session.body.access_token })).status).toBe(401);
  });

  it('sets a password: the user is confirmed, their sessions end and the open link stops working', async () => {
    const { body } = await admin('POST', '/v2/users', { name: 'Sue Set', email: 'sue@example.com', role: 'user' });
    const set = await admin('PUT', `/v2/users/${body.data.id}`, { password: 'sue-secret-1' });
    expect(set.body.data).toMatchObject({ invited: false, confirmed: true });
    expect((await signIn('sue@example.com', 'sue-secret-1')).status).toBe(200);
    expect((await publicPost('/oauth2/invitations/accept', { token: tokenOf(body.meta.invite_url), password: 'sue-secret-2' })).body.error).toBe('invalid_grant');
    expect(codes(await admin('PUT', `/v2/users/${body.data.id}`, { password: 'short' }))).toEqual(['incorrect_value']);
  });

  it('keeps an active administrator: the last one cannot be demoted or deactivated', async () => {
    const lone = await startTestHub();
    try {
      const put = (data: unknown) => call(lone, 'PUT', `/v2/users/${lone.adminId}`, { token: lone.adminToken, data });
      for (const data of [{ role: 'user' }, { status: 'inactive' }]) {
        const refused = await put(data);
        expect(refused.status).toBe(409);
        expect(codes(refused)).toEqual(['conflict']);
        expect(refused.body.errors[0].error.message).toBe(`${ADMIN.name} is the only active administrator: make someone else an administrator first.`);
      }
      // An invited admin who has not set a password cannot sign in, so does not count.
      await call(lone, 'POST', '/v2/users', { token: lone.adminToken, data: { name: 'New Admin', email: 'new-admin@example.com', role: 'admin' } });
      expect((await put({ role: 'user' })).status).toBe(409);
      await call(lone, 'PUT', `/v2/users/${lone.agentId}`, { token: lone.adminToken, data: { role: 'admin' } });
      expect((await put({ role: 'user' })).body.data.role).toBe('user');
    } finally {
      await lone.close();
    }
  });

  it('records each change for devices (the user sync type)', async () => {
    const before = hub.engine.db.prepare("SELECT COUNT(*) FROM change_log WHERE resource_type = 'user'").pluck().get() as number;
    const { body } = await admin('POST', '/v2/users', { name: 'Syd Sync', email: 'syd@example.com', role: 'user', password: 'syd-secret-1' });
    await admin('PUT', `/v2/users/${body.data.id}`, { role: 'admin' });
    await admin('PUT', `/v2/users/${body.data.id}`, { status: 'inactive' });
    expect(hub.engine.db.prepare("SELECT COUNT(*) FROM change_log WHERE resource_type = 'user'").pluck().get()).toBe(before + 3);
  });
});

describe('agents', () => {
  it('get 403 forbidden on every team route', async () => {
    const routes: [string, string, unknown][] = [
      ['POST', '/v2/users', { name: 'X', email: 'x@example.com', role: 'user' }],
      ['PUT', `/v2/users/${hub.agentId}`, { role: 'admin' }],
      ['POST', `/v2/users/${hub.adminId}/invitation`, undefined],
      ['POST', '/v2/accounts/self/test_email', { to: AGENT.email }],
    ];
    for (const [method, path, data] of routes) {
      const answer = await call(hub, method, path, { token: hub.agentToken, data });
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(codes(answer)).toEqual(['forbidden']);
    }
    expect((await admin('GET', `/v2/users/${hub.agentId}`)).body.data.role).toBe('user');
  });
});

describe('test email', () => {
  const testEmail = (data: unknown) => admin('POST', '/v2/accounts/self/test_email', data);

  it('without a mail server answers 422 naming the setting', async () => {
    const answer = await testEmail({ to: 'someone@example.com' });
    expect(answer.status).toBe(422);
    expect(codes(answer)).toEqual(['missing']);
    expect(fields(answer)).toEqual(['/smtp_url']);
    expect(answer.body.errors[0].error.message).toMatch(/No mail server/);
  });

  it('sends a short message through the configured server', async () => {
    expect((await admin('PUT', '/v2/accounts/self', { smtp_url: smtp.url })).status).toBe(200);
    const answer = await testEmail({ to: 'someone@example.com' });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ sent: true, to: 'someone@example.com' });
    const message = smtp.messages.at(-1)!;
    expect(message.to).toEqual(['someone@example.com']);
    expect(message.from).toBe(ADMIN.email);
    expect(message.subject).toBe('Outpost test email');
    expect(message.messageId).toBe(answer.body.data.message_id);
    // The password of the URL is never served.
    expect(JSON.stringify((await admin('GET', '/v2/accounts/self')).body)).not.toContain('mail-secret');
  });

  it('says in words what the server answered when it refuses the login, without the password', async () => {
    smtp.mode = 'reject_auth';
    try {
      const answer = await testEmail({ to: 'someone@example.com' });
      expect(answer.status).toBe(422);
      expect(fields(answer)).toEqual(['/smtp_url']);
      const { message } = answer.body.errors[0].error;
      expect(message).toMatch(/^The mail server 127\.0\.0\.1:\d+ refused the user name or password\. It answered: "535 Invalid username or password"\.$/);
      expect(answer.text).not.toContain('mail-secret');
    } finally {
      smtp.mode = 'accept';
    }
  });

  it('says so when nothing answers at the address', async () => {
    const closed = await startSmtpServer();
    await closed.close();
    await admin('PUT', '/v2/accounts/self', { smtp_url: closed.url });
    const answer = await testEmail({ to: 'someone@example.com' });
    expect(answer.status).toBe(422);
    expect(answer.body.errors[0].error.message).toMatch(/could not be reached \(the connection was refused\)/);
    await admin('PUT', '/v2/accounts/self', { smtp_url: null });
  });

  it('checks the recipient', async () => {
    const bad = await testEmail({ to: 'nobody', cc: 'x' });
    expect(bad.status).toBe(422);
    expect(Object.fromEntries(bad.body.errors.map((e: any) => [e.error.field, e.error.code]))).toEqual({ '/to': 'incorrect_value', '/cc': 'unknown' });
    expect(codes(await testEmail({}))).toEqual(['missing']);
  });
});

describe('the command line', () => {
  it('invites a user when `users add` has no password, printing the link once on stderr', async () => {
    const dir = tempDir();
    // The first user of an empty data folder is its admin (an agent first is refused: test/cli/firstAdmin.test.ts).
    const result = await outpost(['users', 'add', '--email', 'cli@example.com', '--name', 'Cli Invite', '--role', 'admin', '--hub-url', 'https://hub.example.com/', '--data-dir', dir]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ email: 'cli@example.com', invited: true, confirmed: false, status: 'active' });
    expect(result.stderr).toMatch(/^Invite link \(works once, until \S+; send it to cli@example\.com\): https:\/\/hub\.example\.com\/invite\/[0-9a-f]{64}$/);
  }, 60_000);
});

describe('a desktop replica', () => {
  it('receives new and changed users, and refuses team changes, which are the hub\'s (409 in words)', async () => {
    const device = await startTestReplica(hub, hub.adminId);
    try {
      const { body } = await admin('POST', '/v2/users', { name: 'Remy Replica', email: 'remy@example.com', role: 'user', password: 'remy-secret-1' });
      await admin('PUT', `/v2/users/${body.data.id}`, { role: 'admin' });
      await device.replica.sync();
      const copy = await call(device.local, 'GET', `/v2/users/${body.data.id}`, { token: device.token });
      expect(copy.body.data).toMatchObject({ name: 'Remy Replica', role: 'admin' });
      const refused = await call(device.local, 'POST', '/v2/users', { token: device.token, data: { name: 'X', email: 'x@example.com', role: 'user' } });
      expect(refused.status).toBe(409);
      expect(refused.body.errors[0].error.message).toMatch(/can only be made on the hub/);
      expect((await call(device.local, 'POST', '/v2/accounts/self/test_email', { token: device.token, data: { to: 'a@example.com' } })).status).toBe(409);
    } finally {
      await device.close();
    }
  });
});
