// The bundled main process (dist/electron/main.cjs as scripts/build-electron.mjs
// makes it) run under Node against a recording stand-in for the 'electron'
// module (support/fakeElectron.ts). This checks what can be checked without the
// Electron binary: the bundle loads with its externals, opens the engine in the
// user-data folder, creates the local user, hardens the window, serves app://
// and answers the IPC bridge only for its own window. desktopShell.test.ts
// covers deep links, files, the menu, the window state and the badge;
// launch.test.ts the real runtime.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openEngine } from '../../electron/engine/engine.js';
import { IPC_CHANNELS } from '../../shared/bridge.js';
import { fakeElectron, ROOT, runMainBundle } from './support/fakeElectron.js';

describe('the bundled main process (with a stand-in for Electron)', () => {
  // Inside the project, so the bundle's external packages resolve from node_modules as in dist/.
  mkdirSync(join(ROOT, '.cache'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, '.cache/test-main-'));
  const dataDir = join(dir, 'user-data');
  const fake = fakeElectron();
  const { recorded } = fake;
  let restore: (() => void) | undefined;

  beforeAll(async () => {
    restore = await runMainBundle(fake, dir, dataDir);
  });

  afterAll(() => {
    restore?.();
    rmSync(dir, { recursive: true, force: true });
  });

  const window = () => recorded.windows[0];
  const trustedEvent = () => ({ sender: { id: window().webContents.id }, senderFrame: { url: 'app://outpost/contacts', parent: null } });
  const invoke = (event: unknown, request: unknown) => recorded.ipcHandlers.get(IPC_CHANNELS.request)!(event, request) as Promise<any>;

  it('opens one hardened window on app:// and the database in the user-data folder', () => {
    expect(recorded.schemes).toEqual([{ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) }]);
    expect(recorded.windows).toHaveLength(1);
    const prefs = window().options.webPreferences;
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false });
    expect(existsSync(prefs.preload as string)).toBe(true);
    expect(window().loaded).toEqual(['app://outpost/contacts']);
    expect(existsSync(join(dataDir, 'outpost.sqlite'))).toBe(true);
    expect(recorded.menu).toBeTruthy();
  });

  it('denies permission requests', () => {
    let granted: boolean | undefined;
    recorded.permissionRequest!({}, 'media', (answer: boolean) => (granted = answer));
    expect(granted).toBe(false);
    expect(recorded.permissionCheck!({}, 'notifications')).toBe(false);
  });

  it('runs bridge requests from its own window as the local admin, and refuses anyone else', async () => {
    const created = await invoke(trustedEvent(), { method: 'POST', path: '/v2/contacts', body: { data: { last_name: 'Desktop' } } });
    expect(created.status).toBe(200);
    expect(created.body.data.last_name).toBe('Desktop');
    expect(created.requestId).toMatch(/^[0-9a-f-]{36}$/);
    const me = await invoke(trustedEvent(), { method: 'GET', path: '/v2/users/self' });
    expect(me.body.data).toMatchObject({ email: 'me@outpost.local', role: 'admin' });
    expect(await invoke({ ...trustedEvent(), sender: { id: 999 } }, { method: 'GET', path: '/v2/contacts' })).toEqual({ status: 403, body: null });
    expect(await invoke({ ...trustedEvent(), senderFrame: { url: 'app://outpost/contacts', parent: {} } }, { method: 'GET', path: '/v2/contacts' })).toEqual({ status: 403, body: null });
    expect(await invoke({ ...trustedEvent(), senderFrame: { url: 'https://example.com/', parent: null } }, { method: 'GET', path: '/v2/contacts' })).toEqual({ status: 403, body: null });
    expect(await invoke(trustedEvent(), { method: 'GET', path: '/etc/passwd' })).toEqual({ status: 400, body: null });
  });

  it('serves the renderer over app:// with the CSP, and nothing outside it', async () => {
    const handler = recorded.protocolHandlers.get('app')!;
    const page = await handler({ url: 'app://outpost/contacts/1' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect((await handler({ url: 'app://outpost/..%2f..%2fpackage.json' })).status).toBe(404);
  });

  it('blocks navigation, new windows and webviews; http(s) links go to the browser', () => {
    const contents = window().webContents;
    expect(contents.openHandler!({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(contents.openHandler!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(recorded.opened).toEqual(['https://example.com/']);
    const navigate = (url: string) => {
      let prevented = false;
      contents.emit('will-navigate', { preventDefault: () => (prevented = true) }, url);
      return prevented;
    };
    expect(navigate('app://outpost/tasks')).toBe(false);
    expect(navigate('file:///etc/passwd')).toBe(true);
    expect(navigate('https://example.org/')).toBe(true);
    expect(recorded.opened).toEqual(['https://example.com/', 'https://example.org/']);
    let webviewPrevented = false;
    contents.emit('will-attach-webview', { preventDefault: () => (webviewPrevented = true) });
    expect(webviewPrevented).toBe(true);
  });

  it('revokes its token and closes the database on quit', () => {
    fake.app.emit('will-quit');
    const engine = openEngine({ dataDir });
    try {
      const live = engine.db.prepare('SELECT count(*) FROM access_tokens WHERE revoked_at IS NULL').pluck().get();
      expect(live).toBe(0);
    } finally {
      engine.close();
    }
  });
});
