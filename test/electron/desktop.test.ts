import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { isExternalHttpUrl, isTrustedSenderUrl, resolveAppFile } from '../../electron/desktop/appProtocol.js';
import { toBridgeResponse, toInjectOptions } from '../../electron/desktop/bridgeRequest.js';
import { openEngine } from '../../electron/engine/engine.js';
import { createHttpApp } from '../../electron/engine/http/app.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

const ROOT = '/opt/outpost/renderer';

describe('app:// protocol', () => {
  it('serves files of the built renderer and index.html for client routes', () => {
    expect(resolveAppFile(ROOT, 'app://outpost/assets/index-abc.js')).toEqual({ file: join(ROOT, 'assets/index-abc.js'), mimeType: 'text/javascript; charset=utf-8' });
    expect(resolveAppFile(ROOT, 'app://outpost/contacts/12')?.file).toBe(join(ROOT, 'index.html'));
  });

  it('refuses traversal, other hosts and unknown file types', () => {
    // URL parsing already folds dot segments, so the file stays inside the renderer root.
    expect(resolveAppFile(ROOT, 'app://outpost/../../etc/passwd.js')?.file).toBe(join(ROOT, 'etc/passwd.js'));
    expect(resolveAppFile(ROOT, 'app://outpost/%2e%2e/%2e%2e/etc/passwd.js')?.file).toBe(join(ROOT, 'etc/passwd.js'));
    expect(resolveAppFile(ROOT, 'app://outpost/a/..%2f..%2f..%2fetc%2fpasswd.js')).toBeNull();
    expect(resolveAppFile(ROOT, 'app://evil/index.js')).toBeNull();
    expect(resolveAppFile(ROOT, 'app://outpost/secret.sqlite')).toBeNull();
    expect(resolveAppFile(ROOT, 'not a url')).toBeNull();
  });

  it('trusts only its own origin and opens only http(s) links externally', () => {
    expect(isTrustedSenderUrl('app://outpost/contacts')).toBe(true);
    expect(isTrustedSenderUrl('https://example.com/')).toBe(false);
    expect(isTrustedSenderUrl(undefined)).toBe(false);
    expect(isExternalHttpUrl('https://example.com/x')).toBe(true);
    expect(isExternalHttpUrl('file:///etc/passwd')).toBe(false);
    expect(isExternalHttpUrl('javascript:alert(1)')).toBe(false);
  });
});

describe('IPC bridge requests', () => {
  it('refuses malformed requests from the renderer', () => {
    for (const bad of [null, 'GET /v2', { method: 'TRACE', path: '/v2/contacts' }, { method: 'GET', path: '/etc/passwd' }, { method: 'GET', path: '/v2/../admin' }]) {
      expect(toInjectOptions(bad, 't'.repeat(64))).toBeNull();
    }
  });

  it('runs a renderer request through the real HTTP app in process, with the main process token', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'outpost-bridge-'));
    const engine = openEngine({ dataDir: dir });
    try {
      const userId = await engine.users.create({ email: 'me@outpost.local', name: 'Me', role: 'admin', password: 'local-password' });
      const token = engine.tokens.createPersonal(userId, ['read', 'write', 'profile']);
      const app = await createHttpApp(engine, { rateLimitPerHour: 0 });
      const created = toBridgeResponse(await app.inject(toInjectOptions({ method: 'POST', path: '/v2/contacts', body: { data: { last_name: 'Bridged' } } }, token)!));
      expect(created.status).toBe(200);
      expect((created.body as any).data.last_name).toBe('Bridged');
      expect(created.requestId).toMatch(/^[0-9a-f-]{36}$/);
      const listed = toBridgeResponse(await app.inject(toInjectOptions({ method: 'GET', path: '/v2/contacts', query: { q: 'brid', per_page: 5 } }, token)!));
      expect((listed.body as any).items).toHaveLength(1);
      const invalid = toBridgeResponse(await app.inject(toInjectOptions({ method: 'POST', path: '/v2/contacts', body: { data: {} } }, token)!));
      expect(invalid.status).toBe(422);
      const deleted = toBridgeResponse(await app.inject(toInjectOptions({ method: 'DELETE', path: `/v2/contacts/${(created.body as any).data.id}` }, token)!));
      expect(deleted).toMatchObject({ status: 204, body: null });
      await app.close();
    } finally {
      engine.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('reminder notifications', () => {
  it('announce each due reminder once, and again when it is moved', async () => {
    const { ReminderTracker } = await import('../../shared/reminders.js');
    const tracker = new ReminderTracker();
    const due = [{ id: 1, content: 'Call Ann', remind_at: '2026-03-02T09:00:00Z' }];
    expect(tracker.fresh(due)).toEqual(due);
    expect(tracker.fresh(due)).toEqual([]);
    const moved = [{ ...due[0], remind_at: '2026-03-02T11:00:00Z' }];
    expect(tracker.fresh(moved)).toEqual(moved);
  });
});
