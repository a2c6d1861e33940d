import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { isExternalHttpUrl, isTrustedSender, isTrustedSenderUrl, resolveAppFile, serveRendererFile } from '../../electron/desktop/appProtocol.js';
import { appDownloadUrl, toBridgeResponse, toDownloadInjectOptions, toDownloadResponse, toInjectOptions } from '../../electron/desktop/bridgeRequest.js';
import { decideNavigation, decideNewWindow } from '../../electron/desktop/navigation.js';
import { LOCAL_USER_EMAIL, localAccessToken } from '../../electron/desktop/localUser.js';
import { openEngine } from '../../electron/engine/engine.js';
import { createHttpApp, CONTENT_SECURITY_POLICY } from '../../electron/engine/http/app.js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
    expect(resolveAppFile(ROOT, 'app://outpost/%E0%A4%A.js')).toBeNull();
    expect(resolveAppFile(ROOT, 'file:///etc/passwd.js')).toBeNull();
  });

  it('answers with the file and the strict CSP, or a plain 404', async () => {
    const root = mkdtempSync(join(tmpdir(), 'outpost-renderer-'));
    try {
      mkdirSync(join(root, 'assets'));
      writeFileSync(join(root, 'index.html'), '<!doctype html><title>Outpost</title>');
      writeFileSync(join(root, 'assets/app.js'), 'console.log(1)');
      writeFileSync(join(root, '..', 'outside-renderer.js'), 'secret');
      const page = await serveRendererFile(root, 'app://outpost/contacts/12', CONTENT_SECURITY_POLICY);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(await page.text()).toContain('<title>Outpost</title>');
      const script = await serveRendererFile(root, 'app://outpost/assets/app.js', CONTENT_SECURITY_POLICY);
      expect([script.status, script.headers.get('content-type'), await script.text()]).toEqual([200, 'text/javascript; charset=utf-8', 'console.log(1)']);
      expect((await serveRendererFile(root, 'app://outpost/assets/missing.js', CONTENT_SECURITY_POLICY)).status).toBe(404);
      expect((await serveRendererFile(root, 'app://outpost/assets', CONTENT_SECURITY_POLICY)).status).toBe(200); // a client route
      expect((await serveRendererFile(root, 'app://outpost/..%2foutside-renderer.js', CONTENT_SECURITY_POLICY)).status).toBe(404);
      expect((await serveRendererFile(root, 'app://outpost/assets%2f..%2f..%2foutside-renderer.js', CONTENT_SECURITY_POLICY)).status).toBe(404);
    } finally {
      rmSync(join(root, '..', 'outside-renderer.js'), { force: true });
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('trusts only its own origin and opens only http(s) links externally', () => {
    expect(isTrustedSenderUrl('app://outpost/contacts')).toBe(true);
    expect(isTrustedSenderUrl('https://example.com/')).toBe(false);
    expect(isTrustedSenderUrl(undefined)).toBe(false);
    expect(isTrustedSenderUrl('app://evil/contacts')).toBe(false);
    expect(isTrustedSenderUrl('file:///work/dist/renderer/index.html')).toBe(false);
    expect(isExternalHttpUrl('https://example.com/x')).toBe(true);
    expect(isExternalHttpUrl('file:///etc/passwd')).toBe(false);
    expect(isExternalHttpUrl('javascript:alert(1)')).toBe(false);
  });
});

describe('IPC senders and navigation', () => {
  const ours = { webContentsId: 7, frameUrl: 'app://outpost/contacts', isMainFrame: true };

  it('answers only the top frame of our own window while it shows app://', () => {
    expect(isTrustedSender(ours, 7)).toBe(true);
    expect(isTrustedSender({ ...ours, webContentsId: 8 }, 7)).toBe(false);
    expect(isTrustedSender(ours, undefined)).toBe(false);
    expect(isTrustedSender({ ...ours, isMainFrame: false }, 7)).toBe(false);
    expect(isTrustedSender({ ...ours, frameUrl: 'https://example.com/' }, 7)).toBe(false);
    expect(isTrustedSender({ ...ours, frameUrl: undefined }, 7)).toBe(false);
  });

  it('stays on app://, sends http(s) to the browser and refuses the rest', () => {
    expect(decideNavigation('app://outpost/tasks')).toEqual({ action: 'allow' });
    expect(decideNavigation('https://example.com/a')).toEqual({ action: 'open-external', url: 'https://example.com/a' });
    expect(decideNavigation('file:///etc/passwd')).toEqual({ action: 'deny' });
    expect(decideNavigation('app://evil/x')).toEqual({ action: 'deny' });
    expect(decideNewWindow('app://outpost/contacts')).toEqual({ action: 'deny' });
    expect(decideNewWindow('javascript:alert(1)')).toEqual({ action: 'deny' });
  });

  it('fetches document downloads of the in-process API through app://', () => {
    const link = 'http://outpost.invalid/downloads/documents/7?expires=1&signature=ab';
    expect(appDownloadUrl(link)).toBe('app://outpost/downloads/documents/7?expires=1&signature=ab');
    expect(decideNewWindow(link)).toEqual({ action: 'download', url: 'app://outpost/downloads/documents/7?expires=1&signature=ab' });
    expect(decideNavigation(link)).toEqual({ action: 'download', url: 'app://outpost/downloads/documents/7?expires=1&signature=ab' });
    expect(appDownloadUrl('http://outpost.invalid/v2/contacts')).toBeNull();
    expect(appDownloadUrl('http://example.com/downloads/documents/7')).toBeNull();
    expect(toDownloadInjectOptions('app://outpost/downloads/documents/7?expires=1&signature=ab')).toMatchObject({ method: 'GET', url: '/downloads/documents/7?expires=1&signature=ab' });
    expect(toDownloadInjectOptions('app://outpost/v2/contacts')).toBeNull();
    expect(toDownloadInjectOptions('app://evil/downloads/documents/7')).toBeNull();
  });
});

describe('IPC bridge requests', () => {
  it('refuses malformed requests from the renderer', () => {
    for (const bad of [null, 'GET /v2', { method: 'TRACE', path: '/v2/contacts' }, { method: 'GET', path: '/etc/passwd' }, { method: 'GET', path: '/v2/../admin' }, { method: 'GET', path: '/v2/contacts?x=1' }, { method: 'GET', path: '/v2/contacts', query: 'x=1' }, { method: 'POST', path: '/v2/documents', upload: { contentType: 'text/plain', bytes: 'not bytes' } }]) {
      expect(toInjectOptions(bad, 't'.repeat(64))).toBeNull();
    }
  });

  it('runs a renderer request through the real HTTP app in process, with the main process token', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'outpost-bridge-'));
    const engine = openEngine({ dataDir: dir });
    try {
      const token = await localAccessToken(engine);
      expect(token).toMatch(/^[0-9a-f]{64}$/);
      expect(engine.users.findByEmail(LOCAL_USER_EMAIL)?.role).toBe('admin');
      const nextRun = await localAccessToken(engine); // a second start reuses the user, with a fresh token
      expect(nextRun).not.toBe(token);
      expect(engine.tokens.revokePersonal(nextRun)).toBe(true);
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
      const me = toBridgeResponse(await app.inject(toInjectOptions({ method: 'GET', path: '/v2/users/self' }, token)!));
      expect((me.body as any).data.email).toBe(LOCAL_USER_EMAIL);
      const revoked = toBridgeResponse(await app.inject(toInjectOptions({ method: 'GET', path: '/v2/contacts' }, nextRun)!));
      expect(revoked.status).toBe(401);
      await app.close();
    } finally {
      engine.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('document downloads in the desktop app', () => {
  it('serve the signed link of the in-process API as a file to save', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'outpost-download-'));
    const engine = openEngine({ dataDir: dir });
    try {
      const token = await localAccessToken(engine);
      const app = await createHttpApp(engine, { rateLimitPerHour: 0 });
      const contact = toBridgeResponse(await app.inject(toInjectOptions({ method: 'POST', path: '/v2/contacts', body: { data: { last_name: 'Doc' } } }, token)!));
      const bytes = new TextEncoder().encode('hello').buffer as ArrayBuffer;
      const uploaded = toBridgeResponse(await app.inject(toInjectOptions({ method: 'POST', path: '/v2/documents', query: { resource_type: 'contact', resource_id: (contact.body as any).data.id, name: 'hello.txt' }, upload: { contentType: 'text/plain', bytes } }, token)!));
      expect(uploaded.status).toBe(200);
      const link = (uploaded.body as any).data.download_url as string;
      expect(link.startsWith('http://outpost.invalid/downloads/documents/')).toBe(true);
      const response = toDownloadResponse(await app.inject(toDownloadInjectOptions(appDownloadUrl(link)!)!));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-disposition')).toContain('hello.txt');
      expect(await response.text()).toBe('hello');
      const forged = toDownloadResponse(await app.inject(toDownloadInjectOptions('app://outpost/downloads/documents/1?expires=1&signature=00')!));
      expect(forged.status).toBe(403);
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
