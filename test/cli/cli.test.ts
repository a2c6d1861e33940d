import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import Database from 'better-sqlite3';
import { accessToken, cleanUp, outpost, serve, stop, tempDir } from '../support/cliProcess.js';

afterAll(cleanUp);

// Each test starts the CLI as a real process a dozen times or more (about a second each, more on a busy
// machine): the timeout is a guard against a hang, not a speed target.
describe('outpost command line', { timeout: 60_000 }, () => {
  it('adds users and prints them as JSON', async () => {
    const dir = tempDir();
    const admin = await outpost(['users', 'add', '--email', 'boss@example.com', '--name', 'Boss', '--role', 'admin', '--password', 'boss-password', '--data-dir', dir]);
    expect(JSON.parse(admin.stdout)).toMatchObject({ email: 'boss@example.com', role: 'admin', status: 'active' });
    const result = await outpost(['users', 'add', '--email', 'rep@example.com', '--name', 'Rep One', '--role', 'agent', '--password', 'rep-password', '--data-dir', dir]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ email: 'rep@example.com', name: 'Rep One', role: 'user', status: 'active' });
    const again = await outpost(['users', 'add', '--email', 'rep@example.com', '--name', 'Rep', '--role', 'agent', '--password', 'rep-password', '--data-dir', dir]);
    expect(again.code).toBe(1);
    expect(again.stderr.split('\n')).toHaveLength(1);
    expect(again.stderr).toMatch(/already exists/);
  });

  it('registers, lists and removes OAuth clients, storing only the secret hash', async () => {
    const dir = tempDir();
    const added = await outpost(['clients', 'add', '--name', 'Mail merge', '--redirect-uri', 'https://mail.example/cb', '--data-dir', dir]);
    expect(added.code).toBe(0);
    const client = JSON.parse(added.stdout);
    expect(Object.keys(client).sort()).toEqual(['client_id', 'client_secret', 'redirect_uri']);
    expect(client.client_secret).toMatch(/^[0-9a-f]{64}$/);
    const native = JSON.parse((await outpost(['clients', 'add', '--name', 'CLI', '--redirect-uri', 'http://127.0.0.1/cb', '--public', '--data-dir', dir])).stdout);
    expect(native.client_secret).toBeNull();
    const listed = JSON.parse((await outpost(['clients', 'list', '--data-dir', dir])).stdout);
    expect(listed.map((c: { name: string }) => c.name)).toEqual(['Mail merge', 'CLI']);
    expect(JSON.stringify(listed)).not.toContain(client.client_secret);
    expect((await outpost(['clients', 'remove', '--client-id', client.client_id, '--data-dir', dir])).code).toBe(0);
    const again = await outpost(['clients', 'remove', '--client-id', client.client_id, '--data-dir', dir]);
    expect([again.code, again.stderr]).toEqual([1, expect.stringMatching(/not found/)]);
    const bad = await outpost(['clients', 'add', '--name', 'Bad', '--redirect-uri', 'http://mail.example/cb', '--data-dir', dir]);
    expect([bad.code, bad.stderr.split('\n').length]).toEqual([1, 1]);
    expect(bad.stderr).toMatch(/https/);
  });

  it('deactivates and reactivates users', async () => {
    const dir = tempDir();
    await outpost(['users', 'add', '--email', 'boss@example.com', '--name', 'Boss', '--role', 'admin', '--password', 'boss-password', '--data-dir', dir]);
    await outpost(['users', 'add', '--email', 'rep@example.com', '--name', 'Rep', '--role', 'agent', '--password', 'rep-password', '--data-dir', dir]);
    expect(JSON.parse((await outpost(['users', 'deactivate', '--email', 'rep@example.com', '--data-dir', dir])).stdout).status).toBe('inactive');
    expect(JSON.parse((await outpost(['users', 'activate', '--email', 'rep@example.com', '--data-dir', dir])).stdout).status).toBe('active');
    expect((await outpost(['users', 'deactivate', '--email', 'nobody@example.com', '--data-dir', dir])).code).toBe(1);
  });

  it('shows and sets the account\'s plan, add-ons and commerce switch, refusing names it does not know', async () => {
    const dir = tempDir();
    const shown = JSON.parse((await outpost(['account', 'show', '--data-dir', dir])).stdout);
    expect(shown).toMatchObject({ plan: 'elite', addons: ['outbound_sequences'], commerce_changes: 'enabled' });
    const set = await outpost(['account', 'set', '--plan', 'growth', '--addon', 'outbound-sequences=off', '--commerce-changes', 'disabled', '--data-dir', dir]);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ plan: 'growth', addons: [], commerce_changes: 'disabled' });
    expect(JSON.parse((await outpost(['account', 'set', '--addon', 'outbound-sequences=on', '--data-dir', dir])).stdout)).toMatchObject({ plan: 'growth', addons: ['outbound_sequences'] });
    for (const [args, valid] of [
      [['--plan', 'platinum'], 'starter, team, growth, professional, enterprise, elite'],
      [['--addon', 'teleportation=on'], 'outbound-sequences'],
      [['--addon', 'outbound-sequences=maybe'], 'outbound-sequences'],
      [['--commerce-changes', 'sometimes'], 'enabled, disabled'],
    ] as const) {
      const refused = await outpost(['account', 'set', ...args, '--data-dir', dir]);
      expect(refused.code, args.join(' ')).not.toBe(0);
      expect(refused.stderr, args.join(' ')).toContain(valid);
    }
    expect(JSON.parse((await outpost(['account', 'show', '--data-dir', dir])).stdout).plan).toBe('growth');
  });

  it('sets the account\'s SMTP server and daily email quota, never printing the password', async () => {
    const dir = tempDir();
    const mail = await outpost(['account', 'set', '--smtp-url', 'smtp://rep:s3cret-pass@127.0.0.1:2525', '--email-daily-quota', '40', '--data-dir', dir]);
    expect(mail.code, mail.stderr).toBe(0);
    expect(JSON.parse(mail.stdout)).toMatchObject({ smtp_configured: true, email_daily_quota: 40 });
    expect(mail.stdout).not.toContain('s3cret-pass');
    expect((await outpost(['account', 'set', '--smtp-url', 'http://mail.example', '--data-dir', dir])).code).not.toBe(0);
    expect((await outpost(['account', 'set', '--email-daily-quota', 'lots', '--data-dir', dir])).code).not.toBe(0);
    expect(JSON.parse((await outpost(['account', 'set', '--smtp-url', 'none', '--data-dir', dir])).stdout).smtp_configured).toBe(false);
  });

  it('answers bad arguments with one line and a non-zero exit', async () => {
    const dir = tempDir();
    const cases = [
      ['users', 'add', '--email', 'x@example.com', '--name', 'X', '--role', 'boss', '--password', 'long-password', '--data-dir', dir],
      ['users', 'add', '--name', 'X', '--data-dir', dir],
      ['users', 'add', '--email', 'not-an-email', '--name', 'X', '--role', 'agent', '--password', 'long-password', '--data-dir', dir],
      ['users', 'add', '--email', 'y@example.com', '--name', 'Y', '--role', 'agent', '--password', 'short', '--data-dir', dir],
      ['tokens', 'create', '--email', 'nobody@example.com', '--data-dir', dir],
      ['tokens', 'create', '--email', 'x@example.com', '--scope', 'everything', '--data-dir', dir],
      ['seed', '--contacts', 'lots', '--data-dir', dir],
      ['seed', '--contacts', '0', '--data-dir', dir],
      ['serve', '--port', 'eighty', '--data-dir', dir],
      ['frobnicate'],
      ['users', 'add', '--bogus'],
    ];
    for (const args of cases) {
      const result = await outpost(args);
      expect(result.code, args.join(' ')).not.toBe(0);
      expect(result.stderr.split('\n'), args.join(' ')).toHaveLength(1);
      expect(result.stderr, args.join(' ')).toMatch(/^outpost: /);
    }
  });

  it('creates personal access tokens that work against a running hub, and seeds demo contacts', async () => {
    const dir = join(tempDir(), 'not-yet-created');
    const hub = await serve(dir, { OUTPOST_ADMIN_EMAIL: 'boss@example.com', OUTPOST_ADMIN_PASSWORD: 'boss-password' });
    expect(existsSync(dir)).toBe(true);
    expect(hub.stdout()).toContain('Created the first admin boss@example.com.');

    // Other commands work while the hub runs on the same folder.
    const seeded = await outpost(['seed', '--contacts', '200', '--data-dir', dir]);
    expect(seeded.code, seeded.stderr).toBe(0);
    expect(seeded.stdout).toMatch(/^Seeded 200 contacts \(20 organizations, 180 people\)/);
    const created = await outpost(['tokens', 'create', '--email', 'boss@example.com', '--scope', 'read profile', '--data-dir', dir]);
    const token = JSON.parse(created.stdout);
    expect(token).toMatchObject({ token_type: 'bearer', scope: 'read profile' });
    expect(token.access_token).toHaveLength(64);

    const list = await fetch(`${hub.url}/v2/contacts?per_page=100&is_organization=true`, { headers: { Authorization: `Bearer ${token.access_token}` } });
    const body = (await list.json()) as any;
    // The seeded organizations, and those the converted leads became.
    const converted = Number(/Converted into \d+ (?:person|people) and (\d+) organizations?\)/.exec(seeded.stdout)![1]);
    expect(body.items).toHaveLength(20 + converted);
    expect(body.items[0].data.custom_fields).toHaveProperty('Segment');
    const write = await fetch(`${hub.url}/v2/contacts`, { method: 'POST', headers: { Authorization: `Bearer ${token.access_token}`, 'Content-Type': 'application/json' }, body: '{"data":{"last_name":"X"}}' });
    expect(write.status).toBe(403);

    // Personal tokens live until revoked.
    expect((await outpost(['tokens', 'revoke', '--token', token.access_token, '--data-dir', dir])).code).toBe(0);
    const revoked = await fetch(`${hub.url}/v2/users/self`, { headers: { Authorization: `Bearer ${token.access_token}` } });
    expect(revoked.status).toBe(401);
    expect((await outpost(['tokens', 'revoke', '--token', token.access_token, '--data-dir', dir])).code).toBe(1);

    // A second hub on the same folder is refused with a clear message.
    await expect(serve(dir)).rejects.toThrow(/^outpost serve exited \(1\): outpost: Another Outpost hub is already running on the data folder/);
    await stop(hub);
  });

  it('seeds an empty folder after creating the first admin', async () => {
    const dir = tempDir();
    const result = await outpost(['seed', '--contacts', '30', '--data-dir', dir], { OUTPOST_ADMIN_EMAIL: 'first@example.com', OUTPOST_ADMIN_PASSWORD: 'first-password' });
    expect(result.code, result.stderr).toBe(0);
    // With contacts come a share of every other kind: a line each, then the total.
    expect(result.stdout.split('\n')).toEqual([
      'Created the first admin first@example.com.',
      expect.stringMatching(/^Seeded 30 contacts \(3 organizations, 27 people\) in [\d.]+ s\.$/),
      expect.stringMatching(/^Seeded 6 leads \(\d New, \d Working, \d Unqualified, \d Converted into \d (person|people) and \d organizations?\) in [\d.]+ s\.$/),
      expect.stringMatching(/^Seeded 6 deals in 6 stages \(Incoming 1, Qualified 1, Quote 1, Closure 1, Won 1, Lost 1\) and [1-4] currencies \(USD \d.*\) in [\d.]+ s\.$/),
      expect.stringMatching(/^Seeded 16 products priced in USD, EUR, GBP and CAD, and 2 orders with \d+ line items in [\d.]+ s\.$/),
      expect.stringMatching(/^Seeded 6 calls and 3 visits in [\d.]+ s\.$/),
      expect.stringMatching(/^Seeded 5 email templates and 3 sequences \(10 steps\) in [\d.]+ s\.$/),
      expect.stringMatching(/^Seeded 6 tasks \(\d overdue, \d due today, \d upcoming, \d without a due date, \d completed\), 6 notes and 3 text messages in [\d.]+ s\.$/),
      expect.stringMatching(/^Seeded 30 contacts, 6 leads, 6 deals, 16 products, 2 orders, \d+ line items, 6 calls, 3 visits, 5 email templates, 3 sequences, 6 tasks, 6 notes and 3 text messages in [\d.]+ s\.$/),
    ]);
    // A kind on its own, on the contacts there: one line.
    const calls = await outpost(['seed', '--calls', '4', '--data-dir', dir]);
    expect([calls.code, calls.stdout]).toEqual([0, expect.stringMatching(/^Seeded 4 calls and 0 visits in [\d.]+ s\.$/)]);
    expect((await outpost(['seed', '--leads', 'many', '--data-dir', dir])).stderr).toBe('outpost: --leads must be an integer of at least 0 (outpost help for usage)');
  });

  it('imports text messages and visits from JSON, all or nothing', async () => {
    const dir = tempDir();
    await outpost(['users', 'add', '--email', 'boss@example.com', '--name', 'Boss', '--role', 'admin', '--password', 'boss-password', '--data-dir', dir]);
    const file = join(dir, 'messages.json');
    writeFileSync(file, JSON.stringify([{ content: 'Hello', send_at: '2026-01-01T10:00:00+0000' }, { content: 'Bye', incoming: true }]));
    const ok = await outpost(['import', 'text-messages', file, '--data-dir', dir]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toBe('Imported 2 text messages.');
    writeFileSync(file, JSON.stringify([{ content: 'Fine' }, { content: '' }]));
    const bad = await outpost(['import', 'text-messages', file, '--data-dir', dir]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^outpost: record 2: \/content content is required\. \(nothing was imported\)$/);
    const visits = join(dir, 'visits.json');
    writeFileSync(visits, JSON.stringify([{ resource_type: 'contact', resource_id: 12345 }]));
    expect((await outpost(['import', 'visits', visits, '--data-dir', dir])).stderr).toMatch(/record 1: \/resource_id There is no contact/);
    expect((await outpost(['import', 'planets', visits, '--data-dir', dir])).code).toBe(2);
  });

  it('finishes its work, quietly, when the reader of its output goes away (`outpost seed | head -1`)', async () => {
    const dir = tempDir();
    expect((await outpost(['users', 'add', '--email', 'boss@example.com', '--name', 'Boss', '--role', 'admin', '--password', 'boss-password', '--data-dir', dir])).code).toBe(0);
    // The pipe is closed before the command writes anything: its first line already meets EPIPE.
    const child = spawn(process.execPath, [join(import.meta.dirname, '../../bin/outpost.mjs'), 'seed', '--contacts', '200', '--data-dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect([code, stderr]).toEqual([0, '']);
    // Every part of the seed was made, the last ones (written after the first line failed) too.
    const db = new Database(join(dir, 'outpost.sqlite'), { readonly: true });
    try {
      expect(db.prepare("SELECT count(*) FROM contacts WHERE custom_fields LIKE '%Segment%'").pluck().get()).toBe(200);
      expect(db.prepare('SELECT count(*) FROM text_messages').pluck().get()).toBe(20);
    } finally {
      db.close();
    }
  });

  it('serves the API guide and the guides it links to (sync, import and export), as the repository has them', async () => {
    const hub = await serve(tempDir(), { OUTPOST_ADMIN_EMAIL: 'docs@example.com', OUTPOST_ADMIN_PASSWORD: 'docs-password-1' });
    for (const [path, file] of [['/docs/api', 'docs/api.md'], ['/docs/sync.md', 'docs/sync.md'], ['/docs/import-export.md', 'docs/import-export.md']]) {
      const response = await fetch(`${hub.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      expect(await response.text()).toBe(readFileSync(file, 'utf8'));
    }
    // The guide's relative links to the sync guide land on what is served.
    expect(new URL('sync.md#the-desktop-replica', `${hub.url}/docs/api`).pathname).toBe('/docs/sync.md');
    expect(new URL('import-export.md', `${hub.url}/docs/api`).pathname).toBe('/docs/import-export.md');
    await stop(hub);
  });

  it('prints a generated admin password once on first start without the env variables', async () => {
    const dir = tempDir();
    const env = { OUTPOST_ADMIN_EMAIL: '', OUTPOST_ADMIN_PASSWORD: '' };
    const first = await serve(dir, env);
    expect(first.stdout()).toMatch(/Created the first admin admin@outpost\.local with password \S{12,} \(shown only this once\)/);
    const password = /with password (\S+)/.exec(first.stdout())![1];
    const response = await fetch(`${first.url}/oauth2/token`, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from('outpost-app:').toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', username: 'admin@outpost.local', password }),
    });
    expect(response.status).toBe(200);
    await stop(first);
    const second = await serve(dir, env);
    expect(second.stdout()).not.toMatch(/Created the first admin/);
    await stop(second);
  });

  it('runs a replica of a hub with serve --upstream: sign in with the hub account, read the hub data, and changes flow both ways', async () => {
    const hubDir = tempDir();
    const hub = await serve(hubDir, { OUTPOST_ADMIN_EMAIL: 'boss@example.com', OUTPOST_ADMIN_PASSWORD: 'boss-password-1' });
    const hubToken = await accessToken(hubDir, 'boss@example.com', 'read write profile sync');
    const hubCall = (method: string, path: string, data?: unknown) => fetch(`${hub.url}${path}`, {
      method, headers: { Authorization: `Bearer ${hubToken}`, 'Content-Type': 'application/json' }, body: data === undefined ? undefined : JSON.stringify({ data }),
    }).then((r) => r.json() as Promise<any>);
    await hubCall('POST', '/v2/contacts', { last_name: 'On the hub' });

    const replica = await serve(tempDir(), {}, ['--upstream', hub.url, '--upstream-token', hubToken]);
    expect(replica.stdout()).toMatch(/replica of http/);
    // A replica keeps no passwords: signing in is checked by the hub.
    const signIn = async (password: string) => (await fetch(`${replica.url}/oauth2/token`, {
      method: 'POST', headers: { Authorization: `Basic ${Buffer.from('outpost-app:').toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', username: 'boss@example.com', password }),
    }).then((r) => r.json())) as any;
    expect((await signIn('wrong-password')).error).toBe('invalid_grant');
    const local = (await signIn('boss-password-1')).access_token;
    const replicaCall = (method: string, path: string, data?: unknown) => fetch(`${replica.url}${path}`, {
      method, headers: { Authorization: `Bearer ${local}`, 'Content-Type': 'application/json' }, body: data === undefined ? undefined : JSON.stringify({ data }),
    }).then((r) => r.json() as Promise<any>);
    const eventually = async (check: () => Promise<boolean>) => {
      for (let i = 0; i < 40 && !(await check()); i++) await new Promise((r) => setTimeout(r, 250));
      return check();
    };
    expect(await eventually(async () => (await replicaCall('GET', '/v2/contacts')).items?.length === 1)).toBe(true);

    const task = (await replicaCall('POST', '/v2/tasks', { content: 'Made on the replica' })).data;
    expect(task.id).toBeLessThan(0);
    expect(await eventually(async () => (await hubCall('GET', '/v2/tasks')).items.some((i: any) => i.data.content === 'Made on the replica'))).toBe(true);
    await hubCall('POST', '/v2/tasks', { content: 'Made on the hub' });
    expect(await eventually(async () => (await replicaCall('GET', '/v2/tasks')).items.some((i: any) => i.data.content === 'Made on the hub'))).toBe(true);
    const status = (await replicaCall('GET', '/v2/replica/status')).data;
    expect(status).toMatchObject({ pending: 0, issues: 0 });
    await stop(replica);
    await stop(hub);
  }, 60_000);
});
