// The desktop shell: a window, the app:// protocol, and the IPC bridge into the
// engine. Kept thin on purpose: everything that can be tested under Node lives
// in electron/desktop/ and electron/engine/.
import { app, BrowserWindow, dialog, ipcMain, Menu, nativeImage, net, Notification, powerMonitor, protocol, safeStorage, screen, session, shell, type WebContents } from 'electron';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { openEngine, type Engine } from './engine/engine.js';
import { createHttpApp, CONTENT_SECURITY_POLICY } from './engine/http/app.js';
import { APP_ORIGIN, APP_SCHEME, isTrustedSender, serveRendererFile } from './desktop/appProtocol.js';
import { toBridgeResponse, toDownloadInjectOptions, toDownloadResponse, toInjectOptions } from './desktop/bridgeRequest.js';
import { decideNavigation, decideNewWindow, type NavigationDecision } from './desktop/navigation.js';
import { localAccessToken, replicaAccessToken } from './desktop/localUser.js';
import { CredentialStore, type Cipher, type HubCredentials } from './desktop/credentialStore.js';
import { hubRoutes } from './desktop/hubRoutes.js';
import { AppRedirects } from './desktop/hubSignIn.js';
import { DEEP_LINK_SCHEME, launchTargetOf, readVcardFile, type LaunchTarget } from './desktop/deepLinks.js';
import { openPath, ShellEventQueue } from './desktop/shellEvents.js';
import { captureWindowState, loadWindowState, MIN_SIZE, saveWindowState, WINDOW_STATE_FILE, windowPlacement } from './desktop/windowState.js';
import { appMenuTemplate } from './desktop/appMenu.js';
import { countOverdueTasks, OverdueBadge, overdueLabel, overlayDotBitmap, type EngineGet } from './desktop/overdueBadge.js';
import { ConnectivityWatcher } from './desktop/connectivity.js';
import { autoUpdateEnabled, DESKTOP_SETTINGS_FILE, readDesktopSettings, startAutoUpdate } from './desktop/autoUpdate.js';
import { Replica } from './engine/replica/replica.js';
import { UpstreamCredentials } from './engine/replica/upstream.js';
import { ReminderTracker } from '../shared/reminders.js';
import { fetchDueReminders } from './desktop/dueReminders.js';
import { IPC_CHANNELS, type ApiResponse } from '../shared/bridge.js';
import type { FastifyInstance } from 'fastify';

/** dist/electron/main.cjs → dist/renderer (inside app.asar when packaged). */
const RENDERER_ROOT = join(__dirname, '../renderer');
const REMINDER_CHECK_MS = 30_000;
/** Tasks become overdue as time passes, not only when something changes. */
const BADGE_REFRESH_MS = 60_000;
const HOME_PATH = '/contacts';

// Must happen before `ready`: app:// behaves like a secure, standard origin (fetch, CSP 'self', storage).
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
// A separate data folder (tests, a second profile); otherwise the OS user-data folder.
if (process.env.OUTPOST_DATA_DIR) app.setPath('userData', process.env.OUTPOST_DATA_DIR);

let mainWindow: BrowserWindow | null = null;
/** Where the first window opens: the contacts, or the screen a deep link asked for at launch. */
let startPath = HOME_PATH;
/** Set once the engine is open and a window can be made (links and files may arrive before). */
let shellReady = false;
/** Menu commands, deep links and opened files on their way to the window (see shellEvents.ts for when they are sent). */
const shellEvents = new ShellEventQueue((message) => mainWindow?.webContents.send(IPC_CHANNELS.event, message));
/** Hub sign-ins in the system browser waiting for the OS to hand back their `outpost://oauth/callback` link. */
const appRedirects = new AppRedirects();

function registerAppProtocol(http: FastifyInstance): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const download = toDownloadInjectOptions(request.url);
    if (download) return toDownloadResponse(await http.inject(download));
    return serveRendererFile(RENDERER_ROOT, request.url, CONTENT_SECURITY_POLICY);
  });
}

/** `afterWrite` runs once a request that may have changed records has been answered. */
function registerBridge(http: FastifyInstance, token: string, afterWrite: () => void): void {
  ipcMain.handle(IPC_CHANNELS.request, async (event, request: unknown): Promise<ApiResponse> => {
    // Only our own window's top frame, showing our own pages, may use the engine.
    const sender = { webContentsId: event.sender.id, frameUrl: event.senderFrame?.url, isMainFrame: event.senderFrame?.parent === null };
    if (!isTrustedSender(sender, mainWindow?.webContents.id)) return { status: 403, body: null };
    const options = toInjectOptions(request, token);
    if (!options) return { status: 400, body: null };
    shellEvents.requestSeen(request);
    const answer = toBridgeResponse(await http.inject(options));
    if (options.method !== 'GET') afterWrite();
    return answer;
  });
}

/** A GET through the engine's HTTP app in process, as the local user (what the badge and the reminders read). */
function engineReader(http: FastifyInstance, token: string): EngineGet {
  return async (path, query) => toBridgeResponse(await http.inject(toInjectOptions({ method: 'GET', path, query }, token)!));
}

/** System notifications for task reminders: the engine's clock decides which are due (reminder_due). */
function watchReminders(get: EngineGet): () => void {
  const tracker = new ReminderTracker();
  const check = async () => {
    const due = await fetchDueReminders(get);
    if (!Notification.isSupported()) return;
    for (const task of tracker.fresh(due)) {
      const notification = new Notification({ title: 'Outpost reminder', body: task.content });
      notification.on('click', () => openAppPath('/tasks'));
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

/** Brings the window to the front (a second launch, a link, a notification). */
function reveal(window: BrowserWindow): void {
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

/** Shows an app path: in the open window through the renderer's router, else in the window about to open. */
function openAppPath(path: string): void {
  if (mainWindow) {
    shellEvents.send(openPath(path));
    reveal(mainWindow);
  } else if (shellReady) {
    mainWindow = createWindow(path);
  } else {
    startPath = path;
  }
}

/** Reads a .vcf opened with the app and hands its text to the import preview; says why when it cannot. */
async function openVcardFile(file: string): Promise<void> {
  const result = await readVcardFile(file);
  await app.whenReady();
  if (!result.ok) {
    dialog.showErrorBox('Outpost could not open the file', result.message);
    return;
  }
  if (!mainWindow && shellReady) mainWindow = createWindow(HOME_PATH);
  shellEvents.send({ event: 'open-file', payload: result.event });
  if (mainWindow) reveal(mainWindow);
}

function openLaunchTarget(target: LaunchTarget | null): void {
  if (target?.kind === 'link') openAppPath(target.path);
  else if (target?.kind === 'oauth-callback') answerSignIn(target.link);
  else if (target?.kind === 'file') void openVcardFile(target.file);
}

/** The hub's redirect back from a browser sign-in: to the sign-in waiting for it, never to the window (it carries the code). */
function answerSignIn(link: string): void {
  if (appRedirects.deliver(link) && mainWindow) reveal(mainWindow);
}

/** The file dialog behind File → Import Contacts… (vCard; CSV files are imported from the contacts screen). */
async function chooseContactsFile(): Promise<void> {
  const options = { title: 'Import contacts', properties: ['openFile' as const], filters: [{ name: 'vCard', extensions: ['vcf', 'vcard'] }] };
  const choice = mainWindow ? await dialog.showOpenDialog(mainWindow, options) : await dialog.showOpenDialog(options);
  if (!choice.canceled && choice.filePaths[0]) await openVcardFile(choice.filePaths[0]);
}

function createWindow(path: string): BrowserWindow {
  const stateFile = join(app.getPath('userData'), WINDOW_STATE_FILE);
  // The primary display first: a window whose saved place is gone opens there.
  const workAreas = [screen.getPrimaryDisplay(), ...screen.getAllDisplays()].map((display) => display.workArea);
  const placement = windowPlacement(loadWindowState(stateFile), workAreas);
  const window = new BrowserWindow({
    width: placement.width,
    height: placement.height,
    ...(placement.x !== undefined && placement.y !== undefined ? { x: placement.x, y: placement.y } : {}),
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
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
  if (placement.maximized) window.maximize();
  window.once('ready-to-show', () => window.show());
  // A new page has no listeners until its app shell mounts (shellEvents.ts).
  window.webContents.on('did-navigate', () => shellEvents.pageLoaded());
  window.on('close', () => {
    try {
      saveWindowState(stateFile, captureWindowState(window));
    } catch {
      // a full or read-only disk: the next start uses the default size
    }
  });
  window.on('closed', () => {
    mainWindow = null;
    shellEvents.pageLoaded();
  });
  void window.loadURL(`${APP_ORIGIN}${path}`);
  return window;
}

function buildMenu(connectedToHub: boolean): void {
  const template = appMenuTemplate(
    { platform: process.platform, isPackaged: app.isPackaged, connectedToHub },
    { send: (message) => shellEvents.send(message), importContacts: () => void chooseContactsFile(), showAbout: () => app.showAboutPanel() },
  );
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

/** The overdue count on the dock/launcher icon, or as an overlay on the Windows taskbar button (no badge count there). */
function showOverdue(count: number): void {
  if (process.platform === 'win32') {
    const overlay = count > 0 ? nativeImage.createFromBitmap(overlayDotBitmap(), { width: 16, height: 16 }) : null;
    mainWindow?.setOverlayIcon(overlay, overdueLabel(count));
  } else {
    app.setBadgeCount(count);
  }
}

async function start(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  // A second launch (a link or a .vcf opened while the app runs) hands its command line over to this one.
  app.on('second-instance', (_event, argv, workingDirectory) => {
    if (mainWindow) reveal(mainWindow);
    openLaunchTarget(launchTargetOf(argv, workingDirectory));
  });
  // macOS delivers links and files as events, possibly before `ready`: registered now.
  app.on('open-url', (event, url) => {
    event.preventDefault();
    openLaunchTarget(launchTargetOf(['', url]));
  });
  app.on('open-file', (event, file) => {
    event.preventDefault();
    void openVcardFile(file);
  });
  // Windows and Linux: the link or file this launch was started with.
  openLaunchTarget(launchTargetOf(process.argv));
  // Unpackaged runs do not claim outpost:// (they would register a temporary path); installers register it too.
  // Only where the OS opens this app for outpost:// does the hub sign-in come back that way (RFC 8252 §7.1);
  // otherwise it keeps its loopback redirect (§7.3).
  const ownsAppScheme = app.isPackaged && app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
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
      appRedirects: ownsAppScheme ? appRedirects : undefined,
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
  const readEngine = engineReader(http, token);
  const badge = new OverdueBadge(() => countOverdueTasks(readEngine), showOverdue);
  registerAppProtocol(http);
  registerBridge(http, token, () => void badge.refresh());
  const stopReminders = watchReminders(readEngine);
  buildMenu(Boolean(replica));
  mainWindow = createWindow(startPath);
  shellReady = true;
  void badge.refresh();
  const badgeTimer = setInterval(() => void badge.refresh(), BADGE_REFRESH_MS);
  // The replica's status goes to the window as it changes (the 'sync-status' event of the bridge), so open screens refresh.
  const unwatch = replica?.watch((status) => {
    mainWindow?.webContents.send(IPC_CHANNELS.event, { event: 'sync-status', payload: status });
    void badge.refresh();
  });
  // Offline detection: back online or awake, the replica syncs at once instead of at its next round.
  const connectivity = replica ? new ConnectivityWatcher({ isOnline: () => net.isOnline(), onReconnect: () => void replica.sync() }) : undefined;
  const stopConnectivity = connectivity?.watch();
  if (connectivity) powerMonitor.on('resume', () => connectivity.resumed());
  if (autoUpdateEnabled(process.env, readDesktopSettings(join(userData, DESKTOP_SETTINGS_FILE)), app.isPackaged)) {
    // Required by name at run time, so the bundle does not need electron-updater to build.
    void startAutoUpdate(createRequire(__filename), (message) => console.warn(message));
  }

  app.on('window-all-closed', () => app.quit());
  app.on('activate', () => {
    if (!mainWindow) mainWindow = createWindow(HOME_PATH);
  });
  app.once('will-quit', () => {
    unwatch?.();
    stopConnectivity?.();
    clearInterval(badgeTimer);
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
  upstream.onNewTokens = (access, refresh) => store.save({ ...connection, access_token: access, refresh_token: refresh });
  return new Replica(engine, { hubUrl: connection.hubUrl, credentials: upstream, log: (line) => console.warn(line) });
}

start().catch((error: unknown) => {
  // A database from a newer version, a native module built for the wrong ABI, …: say so, never hang.
  const message = error instanceof Error ? error.message : String(error);
  console.error(`Outpost could not start: ${message}`);
  if (app.isReady()) dialog.showErrorBox('Outpost could not start', message);
  app.exit(1);
});
