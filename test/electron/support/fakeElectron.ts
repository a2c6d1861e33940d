// A recording stand-in for the 'electron' module, and a loader that runs the
// bundled main process (dist/electron/main.cjs as scripts/build-electron.mjs
// makes it) under Node against it. What can be checked without the Electron
// binary is checked this way (mainProcess.test.ts, desktopShell.test.ts);
// launch.test.ts covers the real runtime where it exists.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '../../..');

type Listener = (...args: any[]) => unknown;

export class FakeEmitter {
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

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function fakeElectron(options: { workAreas?: Rect[] } = {}) {
  const workAreas = options.workAreas ?? [{ x: 0, y: 0, width: 1920, height: 1040 }];
  const recorded = {
    schemes: [] as unknown[],
    protocolHandlers: new Map<string, (request: { url: string }) => Promise<Response>>(),
    ipcHandlers: new Map<string, Listener>(),
    windows: [] as FakeWindow[],
    permissionRequest: undefined as Listener | undefined,
    permissionCheck: undefined as Listener | undefined,
    opened: [] as string[],
    menu: undefined as any,
    exitCode: undefined as number | undefined,
    errors: [] as string[],
    paths: new Map<string, string>(),
    badgeCounts: [] as number[],
    overlays: [] as { image: unknown; description: string }[],
    protocolClients: [] as string[],
    openDialogAnswers: [] as { canceled: boolean; filePaths: string[] }[],
    online: true,
  };
  const app = Object.assign(new FakeEmitter(), {
    isPackaged: false,
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
    setAsDefaultProtocolClient: (scheme: string) => recorded.protocolClients.push(scheme) > 0,
    setBadgeCount: (count: number) => recorded.badgeCounts.push(count),
  });
  let nextId = 1;
  class FakeContents extends FakeEmitter {
    readonly id = nextId++;
    openHandler: Listener | undefined;
    downloads: string[] = [];
    sent: { channel: string; message: any }[] = [];
    setWindowOpenHandler(handler: Listener) {
      this.openHandler = handler;
    }
    downloadURL(url: string) {
      this.downloads.push(url);
    }
    send(channel: string, message: unknown) {
      this.sent.push({ channel, message });
    }
  }
  class FakeWindow extends FakeEmitter {
    readonly webContents = new FakeContents();
    loaded: string[] = [];
    maximized = false;
    fullScreen = false;
    shown = 0;
    focused = 0;
    normalBounds: Rect;
    constructor(readonly options: { webPreferences: Record<string, unknown>; width: number; height: number; x?: number; y?: number }) {
      super();
      this.normalBounds = { x: options.x ?? 100, y: options.y ?? 100, width: options.width, height: options.height };
      recorded.windows.push(this);
      app.emit('web-contents-created', {}, this.webContents);
    }
    loadURL(url: string) {
      this.loaded.push(url);
      this.webContents.emit('did-navigate', {}, url);
      return Promise.resolve();
    }
    show() {
      this.shown++;
    }
    focus() {
      this.focused++;
    }
    restore() {}
    maximize() {
      this.maximized = true;
    }
    isMinimized() {
      return false;
    }
    isMaximized() {
      return this.maximized;
    }
    isFullScreen() {
      return this.fullScreen;
    }
    getNormalBounds() {
      return this.normalBounds;
    }
    setOverlayIcon(image: unknown, description: string) {
      recorded.overlays.push({ image, description });
    }
  }
  const electron = {
    app,
    BrowserWindow: FakeWindow,
    dialog: {
      showErrorBox: (_title: string, message: string) => recorded.errors.push(message),
      showOpenDialog: async () => recorded.openDialogAnswers.shift() ?? { canceled: true, filePaths: [] },
    },
    ipcMain: { handle: (channel: string, handler: Listener) => recorded.ipcHandlers.set(channel, handler) },
    Menu: { buildFromTemplate: (template: unknown) => template, setApplicationMenu: (menu: unknown) => (recorded.menu = menu) },
    Notification: Object.assign(class {}, { isSupported: () => false }),
    nativeImage: { createFromBitmap: (buffer: Buffer, size: { width: number; height: number }) => ({ bitmap: buffer, ...size }) },
    net: { isOnline: () => recorded.online },
    powerMonitor: new FakeEmitter(),
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown[]) => recorded.schemes.push(...schemes),
      handle: (scheme: string, handler: (request: { url: string }) => Promise<Response>) => recorded.protocolHandlers.set(scheme, handler),
    },
    screen: {
      getPrimaryDisplay: () => ({ workArea: workAreas[0] }),
      getAllDisplays: () => workAreas.map((workArea) => ({ workArea })),
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

export type FakeElectron = ReturnType<typeof fakeElectron>;

/**
 * Builds the main bundle into `dir/electron` (a stub renderer beside it),
 * then runs it with `electron` resolved to the stand-in, the user-data folder
 * at `dataDir` and `extraArgs` on the command line, and waits for its window.
 * Returns the function that undoes the module patch.
 */
export async function runMainBundle(fake: FakeElectron, dir: string, dataDir: string, extraArgs: string[] = []): Promise<() => void> {
  execFileSync(process.execPath, ['scripts/build-electron.mjs', '--outdir', join(dir, 'electron')], { cwd: ROOT, stdio: 'inherit' });
  mkdirSync(join(dir, 'renderer'), { recursive: true });
  writeFileSync(join(dir, 'renderer/index.html'), '<!doctype html><title>Outpost</title>');
  process.env.OUTPOST_DATA_DIR = dataDir;
  const moduleInternals = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const originalLoad = moduleInternals._load;
  moduleInternals._load = function (request: string, ...rest: unknown[]) {
    return request === 'electron' ? fake.electron : originalLoad.call(this, request, ...rest);
  };
  const originalArgv = process.argv;
  process.argv = [...originalArgv, ...extraArgs];
  try {
    createRequire(import.meta.url)(join(dir, 'electron/main.cjs'));
  } finally {
    process.argv = originalArgv;
  }
  await waitFor(() => fake.recorded.windows.length > 0 || fake.recorded.exitCode !== undefined);
  if (fake.recorded.exitCode !== undefined) throw new Error(`main exited ${fake.recorded.exitCode}: ${fake.recorded.errors.join('; ')}`);
  return () => {
    moduleInternals._load = originalLoad;
    delete process.env.OUTPOST_DATA_DIR;
  };
}

/** Waits (up to 5 s) for something the main process does asynchronously; throws if it never happens. */
export async function waitFor(condition: () => boolean, what = 'the main process'): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}
