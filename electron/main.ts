// The desktop shell: a window, the app:// protocol, and the IPC bridge into the
// engine. Kept thin on purpose: everything that can be tested under Node lives
// in electron/desktop/ and electron/engine/.
import { app, BrowserWindow, dialog, ipcMain, Menu, Notification, protocol, safeStorage, session, shell, type WebContents } from 'electron';
import { join } from 'node:path';
import { openEngine, type Engine } from './engine/engine.js';
import { createHttpApp, CONTENT_SECURITY_POLICY } from './engine/http/app.js';
import { APP_ORIGIN, APP_SCHEME, isTrustedSender, serveRendererFile } from './desktop/appProtocol.js';
import { toBridgeResponse, toDownloadInjectOptions, toDownloadResponse, toInjectOptions } from './desktop/bridgeRequest.js';
import { decideNavigation, decideNewWindow, type NavigationDecision } from './desktop/navigation.js';
import { localAccessToken, replicaAccessToken } from './desktop/localUser.js';
import { CredentialStore, type Cipher, type HubCredentials } from './desktop/credentialStore.js';
import { hubRoutes } from './desktop/hubRoutes.js';
import { Replica } from './engine/replica/replica.js';
import { UpstreamCredentials } from './engine/replica/upstream.js';
import { ReminderTracker, type DueReminder } from '../shared/reminders.js';
import { IPC_CHANNELS, type ApiResponse } from '../shared/bridge.js';
import type { FastifyInstance } from 'fastify';

/** dist/electron/main.cjs → dist/renderer (inside app.asar when packaged). */
const RENDERER_ROOT = join(__dirname, '../renderer');
const REMINDER_CHECK_MS = 30_000;

// Must happen before `ready`: app:// behaves like a secure, standard origin (fetch, CSP 'self', storage).
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
// A separate data folder (tests, a second profile); otherwise the OS user-data folder.
if (process.env.OUTPOST_DATA_DIR) app.setPath('userData', process.env.OUTPOST_DATA_DIR);

let mainWindow: BrowserWindow | null = null;

function registerAppProtocol(http: FastifyInstance): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const download = toDownloadInjectOptions(request.url);
    if (download) return toDownloadResponse(await http.inject(download));
    return serveRendererFile(RENDERER_ROOT, request.url, CONTENT_SECURITY_POLICY);
  });
}

function registerBridge(http: FastifyInstance, token: string): void {
  ipcMain.handle(IPC_CHANNELS.request, async (event, request: unknown): Promise<ApiResponse> => {
    // Only our own window's top frame, showing our own pages, may use the engine.
    const sender = { webContentsId: event.sender.id, frameUrl: event.senderFrame?.url, isMainFrame: event.senderFrame?.parent === null };
    if (!isTrustedSender(sender, mainWindow?.webContents.id)) return { status: 403, body: null };
    const options = toInjectOptions(request, token);
    if (!options) return { status: 400, body: null };
    return toBridgeResponse(await http.inject(options));
  });
}

/** System notifications for task reminders: the engine's clock decides which are due (reminder_due). */
function watchReminders(http: FastifyInstance, token: string): () => void {
  const tracker = new ReminderTracker();
  const check = async () => {
    const options = toInjectOptions({ method: 'GET', path: '/v2/tasks', query: { reminder_due: true, per_page: 20 } }, token);
    const answer = toBridgeResponse(await http.inject(options!));
    const due = ((answer.body as { items?: { data: DueReminder }[] } | null)?.items ?? []).map((i) => i.data);
    if (!Notification.isSupported()) return;
    for (const task of tracker.fresh(due)) {
      const notification = new Notification({ title: 'Outpost reminder', body: task.content });
      notification.on('click', () => {
        mainWindow?.show();
        void mainWindow?.loadURL(`${APP_ORIGIN}/tasks`);
      });
      notification.show();
    }
  };
  const timer = setInterval(() => void check().catch(() => undefined), REMINDER_CHECK_MS);
  void check().catch(() => undefined);
  return () => clearInterval(timer);
}

function follow(contents: WebContents, decision: NavigationDecision): void {
  if (decision.action === 'download') contents.downloadURL(decision.url);
  else if (decision.action === 'open-external') void shell.openExternal(decision.url);
}

/** Applied to every webContents the app ever creates: no navigation away, no new windows, no webviews. */
function harden(contents: WebContents): void {
  contents.setWindowOpenHandler(({ url }) => {
    follow(contents, decideNewWindow(url));
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event, url) => {
    const decision = decideNavigation(url);
    if (decision.action === 'allow') return;
    event.preventDefault();
    follow(contents, decision);
  });
  contents.on('will-redirect', (event, url) => {
    if (decideNavigation(url).action !== 'allow') event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

function createWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 1200,
    height: 800,
    minWidth: 720,
    minHeight: 480,
    title: 'Outpost',
    show: false,
    webPreferences: {
      preload: join(__dirname, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      webviewTag: false,
      spellcheck: true,
    },
  });
  window.once('ready-to-show', () => window.show());
  window.on('closed', () => {
    mainWindow = null;
  });
  void window.loadURL(`${APP_ORIGIN}/contacts`);
  return window;
}

function buildMenu(): void {
  const isMac = process.platform === 'darwin';
  Menu.setApplicationMenu(
    Menu.buildFromTemplate([
      ...(isMac ? [{ role: 'appMenu' as const }] : []),
      { role: 'fileMenu' },
      { role: 'editMenu' },
      { role: 'viewMenu' },
      { role: 'windowMenu' },
      { role: 'help', submenu: [{ label: 'About Outpost', click: () => app.showAboutPanel() }] },
    ]),
  );
}

async function start(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  app.on('second-instance', () => {
    if (mainWindow?.isMinimized()) mainWindow.restore();
    mainWindow?.focus();
  });
  app.on('web-contents-created', (_event, contents) => harden(contents));
  await app.whenReady();
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);

  // The database lives in the OS user-data folder. OUTPOST_SQLITE_BINDING (set by `npm start`) points at a
  // better-sqlite3 build for Electron's ABI; packaged apps have it rebuilt in place by electron-builder.
  // Connected to a hub (Settings → Hub), the engine is a replica of it in its own folder.
  const userData = app.getPath('userData');
  const credentials = new CredentialStore(join(userData, 'hub-credentials.bin'), KEYCHAIN);
  const connection = credentials.load();
  const engine: Engine = openEngine({
    dataDir: connection ? join(userData, 'replica') : userData,
    nativeBinding: process.env.OUTPOST_SQLITE_BINDING || undefined,
    replica: Boolean(connection),
  });
  const replica = connection ? replicaOf(engine, connection, credentials) : undefined;
  const http = await createHttpApp(engine, {
    rateLimitPerHour: 0,
    replica,
    shellRoutes: (api) => hubRoutes(api, {
      openBrowser: (url) => shell.openExternal(url),
      credentials,
      restart: () => {
        app.relaunch();
        app.exit(0);
      },
    }),
  });
  if (replica && connection?.user) replica.adoptUser(connection.user);
  const token = replica && connection?.user ? replicaAccessToken(engine, connection.user.id) : await localAccessToken(engine);
  replica?.start();
  registerAppProtocol(http);
  registerBridge(http, token);
  const stopReminders = watchReminders(http, token);
  buildMenu();
  mainWindow = createWindow();
  // The replica's status goes to the window as it changes (the 'sync-status' event of the bridge), so open screens refresh.
  const unwatch = replica?.watch((status) => mainWindow?.webContents.send(IPC_CHANNELS.event, { event: 'sync-status', payload: status }));

  app.on('window-all-closed', () => app.quit());
  app.on('activate', () => {
    if (!mainWindow) mainWindow = createWindow();
  });
  app.once('will-quit', () => {
    unwatch?.();
    void replica?.stop();
    stopReminders();
    engine.tokens.revokePersonal(token);
    void http.close();
    engine.close();
  });
}

/** The OS keychain, through Electron's safeStorage, for the hub credentials. */
const KEYCHAIN: Cipher = {
  isAvailable: () => safeStorage.isEncryptionAvailable(),
  encrypt: (text) => safeStorage.encryptString(text),
  decrypt: (data) => safeStorage.decryptString(data),
};

/** The replica of the connected hub; renewed tokens are saved for the next start. */
function replicaOf(engine: Engine, connection: HubCredentials, store: CredentialStore): Replica {
  const upstream = new UpstreamCredentials(connection.hubUrl, connection.access_token, connection.refresh_token);
  upstream.onRenew = (access, refresh) => store.save({ ...connection, access_token: access, refresh_token: refresh });
  return new Replica(engine, { hubUrl: connection.hubUrl, credentials: upstream });
}

start().catch((error: unknown) => {
  // A database from a newer version, a native module built for the wrong ABI, …: say so, never hang.
  const message = error instanceof Error ? error.message : String(error);
  console.error(`Outpost could not start: ${message}`);
  if (app.isReady()) dialog.showErrorBox('Outpost could not start', message);
  app.exit(1);
});
