// The bundled main process (dist/electron/main.cjs as scripts/build-electron.mjs
// makes it) run under Node against a recording stand-in for the 'electron'
// module. This checks what can be checked without the Electron binary: the
// bundle loads with its externals, opens the engine in the user-data folder,
// creates the local user, hardens the window, serves app:// and answers the
// IPC bridge only for its own window. launch.test.ts covers the real runtime.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine } from '../../electron/engine/engine.js';
import { IPC_CHANNELS } from '../../shared/bridge.js';

const ROOT = join(import.meta.dirname, '../..');

type Listener = (...args: any[]) => unknown;

class FakeEmitter {
  readonly listeners = new Map<string, Listener[]>();
  on(event: string, listener: Listener) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  once(event: string, listener: Listener) {
    return this.on(event, listener);
  }
  emit(event: string, ...args: unknown[]) {
    for (const listener of this.listeners.get(event) ?? []) listener(...args);
  }
}

function fakeElectron() {
  const recorded = {
    schemes: [] as unknown[],
    protocolHandlers: new Map<string, (request: { url: string }) => Promise<Response>>(),
    ipcHandlers: new Map<string, Listener>(),
    windows: [] as FakeWindow[],
    permissionRequest: undefined as Listener | undefined,
    permissionCheck: undefined as Listener | undefined,
    opened: [] as string[],
    menu: undefined as unknown,
    exitCode: undefined as number | undefined,
    errors: [] as string[],
    paths: new Map<string, string>(),
  };
  const app = Object.assign(new FakeEmitter(), {
    requestSingleInstanceLock: () => true,
    whenReady: () => Promise.resolve(),
    isReady: () => true,
    quit: () => undefined,
    exit: (code: number) => {
      recorded.exitCode = code;
    },
    getPath: (name: string) => recorded.paths.get(name) ?? join(tmpdir(), 'outpost-unexpected-default-path'),
    setPath: (name: string, value: string) => recorded.paths.set(name, value),
    showAboutPanel: () => undefined,
  });
  let nextId = 1;
  class FakeContents extends FakeEmitter {
    readonly id = nextId++;
    openHandler: Listener | undefined;
    downloads: string[] = [];
    setWindowOpenHandler(handler: Listener) {
      this.openHandler = handler;
    }
    downloadURL(url: string) {
      this.downloads.push(url);
    }
  }
  class FakeWindow extends FakeEmitter {
    readonly webContents = new FakeContents();
    loaded: string[] = [];
    constructor(readonly options: { webPreferences: Record<string, unknown> }) {
      super();
      recorded.windows.push(this);
      app.emit('web-contents-created', {}, this.webContents);
    }
    loadURL(url: string) {
      this.loaded.push(url);
      return Promise.resolve();
    }
    show() {}
    focus() {}
    isMinimized() {
      return false;
    }
  }
  const electron = {
    app,
    BrowserWindow: FakeWindow,
    dialog: { showErrorBox: (_title: string, message: string) => recorded.errors.push(message) },
    ipcMain: { handle: (channel: string, handler: Listener) => recorded.ipcHandlers.set(channel, handler) },
    Menu: { buildFromTemplate: (template: unknown) => template, setApplicationMenu: (menu: unknown) => (recorded.menu = menu) },
    Notification: Object.assign(class {}, { isSupported: () => false }),
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown[]) => recorded.schemes.push(...schemes),
      handle: (scheme: string, handler: (request: { url: string }) => Promise<Response>) => recorded.protocolHandlers.set(scheme, handler),
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (handler: Listener) => (recorded.permissionRequest = handler),
        setPermissionCheckHandler: (handler: Listener) => (recorded.permissionCheck = handler),
      },
    },
    shell: { openExternal: (url: string) => recorded.opened.push(url) },
    // No OS keychain in the stand-in: hub credentials would be kept in memory only (the app starts unconnected).
    safeStorage: { isEncryptionAvailable: () => false, encryptString: () => Buffer.alloc(0), decryptString: () => '' },
  };
  return { electron, recorded, app, FakeContents };
}

describe('the bundled main process (with a stand-in for Electron)', () => {
  // Inside the project, so the bundle's external packages resolve from node_modules as in dist/.
  mkdirSync(join(ROOT, '.cache'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, '.cache/test-main-'));
  const dataDir = join(dir, 'user-data');
  const fake = fakeElectron();
  const { recorded } = fake;
  const moduleInternals = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const originalLoad = moduleInternals._load;

  beforeAll(async () => {
    execFileSync(process.execPath, ['scripts/build-electron.mjs', '--outdir', join(dir, 'electron')], { cwd: ROOT, stdio: 'inherit' });
    mkdirSync(join(dir, 'renderer'));
    writeFileSync(join(dir, 'renderer/index.html'), '<!doctype html><title>Outpost</title>');
    process.env.OUTPOST_DATA_DIR = dataDir;
    moduleInternals._load = function (request: string, ...rest: unknown[]) {
      return request === 'electron' ? fake.electron : originalLoad.call(this, request, ...rest);
    };
    createRequire(import.meta.url)(join(dir, 'electron/main.cjs'));
    for (let i = 0; i < 200 && recorded.windows.length === 0 && recorded.exitCode === undefined; i++) await new Promise((r) => setTimeout(r, 25));
    if (recorded.exitCode !== undefined) throw new Error(`main exited ${recorded.exitCode}: ${recorded.errors.join('; ')}`);
  });

  afterAll(() => {
    moduleInternals._load = originalLoad;
    delete process.env.OUTPOST_DATA_DIR;
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
