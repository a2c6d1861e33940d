// The desktop shell: a window, the app:// protocol, and the IPC bridge into the
// engine. Kept thin on purpose: everything that can be tested under Node lives
// in electron/desktop/ and electron/engine/.
import { app, BrowserWindow, ipcMain, Menu, net, Notification, protocol, session, shell } from 'electron';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openEngine, type Engine } from './engine/engine.js';
import { createHttpApp, CONTENT_SECURITY_POLICY } from './engine/http/app.js';
import { APP_ORIGIN, APP_SCHEME, isExternalHttpUrl, isTrustedSenderUrl, resolveAppFile } from './desktop/appProtocol.js';
import { toBridgeResponse, toInjectOptions } from './desktop/bridgeRequest.js';
import { ReminderTracker, type DueReminder } from '../shared/reminders.js';
import { IPC_CHANNELS } from '../shared/bridge.js';
import type { FastifyInstance } from 'fastify';

const RENDERER_ROOT = join(__dirname, '../renderer');
const LOCAL_USER_EMAIL = 'me@outpost.local';

protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

let mainWindow: BrowserWindow | null = null;

/** The rep's own user in the local replica; it never signs in, the main process acts for it. */
async function localAccessToken(engine: Engine): Promise<string> {
  let user = engine.users.findByEmail(LOCAL_USER_EMAIL);
  if (!user) {
    await engine.users.create({ email: LOCAL_USER_EMAIL, name: 'Me', role: 'admin', password: randomBytes(24).toString('base64url') });
    user = engine.users.findByEmail(LOCAL_USER_EMAIL)!;
  }
  return engine.tokens.createPersonal(user.id, ['read', 'write', 'profile', 'sync']);
}

function registerAppProtocol(): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const target = resolveAppFile(RENDERER_ROOT, request.url);
    if (!target) return new Response('Not found', { status: 404 });
    const file = await net.fetch(pathToFileURL(target.file).toString());
    const headers = new Headers({ 'Content-Type': target.mimeType, 'X-Content-Type-Options': 'nosniff' });
    if (target.mimeType.startsWith('text/html')) headers.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    return new Response(file.body, { status: file.status, headers });
  });
}

function registerBridge(http: FastifyInstance, token: string): void {
  ipcMain.handle(IPC_CHANNELS.request, async (event, request: unknown) => {
    // Only our own window, showing our own pages, may use the engine.
    if (!mainWindow || event.sender !== mainWindow.webContents || !isTrustedSenderUrl(event.senderFrame?.url)) {
      return { status: 403, body: null };
    }
    const options = toInjectOptions(request, token);
    if (!options) return { status: 400, body: null };
    return toBridgeResponse(await http.inject(options));
  });
}

const REMINDER_CHECK_MS = 30_000;

/** System notifications for task reminders: the engine's clock decides which are due (reminder_due). */
function watchReminders(http: FastifyInstance, token: string): void {
  const tracker = new ReminderTracker();
  const check = async () => {
    const options = toInjectOptions({ method: 'GET', path: '/v2/tasks', query: { reminder_due: true, per_page: 20 } }, token);
    const answer = toBridgeResponse(await http.inject(options!));
    const due = ((answer.body as { items?: { data: DueReminder }[] } | null)?.items ?? []).map((i) => i.data);
    for (const task of tracker.fresh(due)) {
      const notification = new Notification({ title: 'Outpost reminder', body: task.content });
      notification.on('click', () => {
        mainWindow?.show();
        void mainWindow?.loadURL(`${APP_ORIGIN}/tasks`);
      });
      notification.show();
    }
  };
  setInterval(() => void check().catch(() => undefined), REMINDER_CHECK_MS);
  void check().catch(() => undefined);
}

function createWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 1200,
    height: 800,
    title: 'Outpost',
    show: false,
    webPreferences: {
      preload: join(__dirname, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    },
  });
  window.once('ready-to-show', () => window.show());
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (isExternalHttpUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  window.webContents.on('will-navigate', (event, url) => {
    if (!url.startsWith(`${APP_ORIGIN}/`)) event.preventDefault();
  });
  window.webContents.on('will-attach-webview', (event) => event.preventDefault());
  void window.loadURL(`${APP_ORIGIN}/contacts`);
  return window;
}

function buildMenu(): void {
  const isMac = process.platform === 'darwin';
  Menu.setApplicationMenu(Menu.buildFromTemplate([
    ...(isMac ? [{ role: 'appMenu' as const }] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
  ]));
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
  await app.whenReady();
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  const engine = openEngine({ dataDir: app.getPath('userData'), nativeBinding: process.env.OUTPOST_SQLITE_BINDING || undefined });
  const http = await createHttpApp(engine, { rateLimitPerHour: 0 });
  registerAppProtocol();
  const token = await localAccessToken(engine);
  registerBridge(http, token);
  watchReminders(http, token);
  buildMenu();
  mainWindow = createWindow();
  app.on('window-all-closed', () => app.quit());
  app.on('will-quit', () => {
    void http.close();
    engine.close();
  });
}

void start();
