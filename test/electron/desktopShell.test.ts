// The desktop integration of the bundled main process, run under Node with the
// stand-in for Electron (support/fakeElectron.ts): a database of an older
// release in the user-data folder is migrated, the launch's deep link decides
// the first screen, the window reopens where it was, second launches and
// macOS events hand over links and .vcf files, the menu sends its commands, and
// the badge counts the user's overdue tasks. Unpackaged, the hub sign-in keeps
// its loopback redirect (hubSignInShell.test.ts: the packaged app's outpost:// one).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS, SCHEMA_VERSION } from '../../electron/engine/db/migrations/index.js';
import { IPC_CHANNELS } from '../../shared/bridge.js';
import { fakeElectron, ROOT, runMainBundle, waitFor } from './support/fakeElectron.js';
import { ADMIN, startTestHub } from '../support/testHub.js';
import { decide, openConsent } from '../support/consentForm.js';

const OLD_SCHEMA = 6;
const VCARD = 'BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ann Example\r\nN:Example;Ann;;;\r\nEND:VCARD\r\n';

/** The user-data folder of someone who used an older release: schema 6, the local user, four tasks. */
function olderReleaseDatabase(file: string): void {
  const raw = new Database(file);
  for (const migration of MIGRATIONS.filter((m) => m.version <= OLD_SCHEMA)) raw.exec(migration.sql);
  raw.pragma(`user_version = ${OLD_SCHEMA}`);
  const now = '2026-01-01T00:00:00Z';
  raw.prepare("INSERT INTO account (id, name, created_at, updated_at) VALUES (1, 'Old', ?, ?)").run(now, now);
  const user = raw.prepare("INSERT INTO users (id, name, email, role, created_at, updated_at) VALUES (?, ?, ?, 'admin', ?, ?)");
  user.run(1, 'Me', 'me@outpost.local', now, now);
  user.run(2, 'Colleague', 'colleague@example.com', now, now);
  const task = raw.prepare('INSERT INTO tasks (id, creator_id, owner_id, content, completed, due_date, created_at, updated_at) VALUES (?, 1, ?, ?, ?, ?, ?, ?)');
  task.run(5, 1, 'Call back (overdue)', 0, '2020-01-01T09:00:00Z', now, now);
  task.run(6, 1, 'Done long ago', 1, '2020-01-01T09:00:00Z', now, now);
  task.run(7, 1, 'Next millennium', 0, '2999-01-01T09:00:00Z', now, now);
  task.run(8, 2, "A colleague's overdue task", 0, '2020-01-01T09:00:00Z', now, now);
  raw.close();
}

describe('desktop integration of the main process (with a stand-in for Electron)', () => {
  mkdirSync(join(ROOT, '.cache'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, '.cache/test-shell-'));
  const dataDir = join(dir, 'user-data');
  const fake = fakeElectron({ workAreas: [{ x: 0, y: 0, width: 1920, height: 1040 }] });
  const { recorded, app } = fake;
  let restore: (() => void) | undefined;

  beforeAll(async () => {
    mkdirSync(dataDir, { recursive: true });
    olderReleaseDatabase(join(dataDir, 'outpost.sqlite'));
    writeFileSync(join(dataDir, 'window-state.json'), JSON.stringify({ bounds: { x: 200, y: 150, width: 1000, height: 700 }, maximized: true }));
    writeFileSync(join(dir, 'ann.vcf'), VCARD);
    writeFileSync(join(dir, 'latin1.vcf'), Buffer.from('BEGIN:VCARD\r\nFN:J\xf6rg\r\nEND:VCARD\r\n', 'latin1'));
    restore = await runMainBundle(fake, join(dir, 'bundle'), dataDir, ['outpost://deals/7']);
  });

  afterAll(() => {
    app.emit('will-quit');
    restore?.();
    rmSync(dir, { recursive: true, force: true });
  });

  const window = () => recorded.windows[0];
  const trustedEvent = () => ({ sender: { id: window().webContents.id }, senderFrame: { url: 'app://outpost/deals/7', parent: null } });
  const invoke = (request: unknown) => recorded.ipcHandlers.get(IPC_CHANNELS.request)!(trustedEvent(), request) as Promise<any>;
  /** What the shell sent the window (sync-status aside). */
  const shellMessages = () => window().webContents.sent.filter((s) => s.channel === IPC_CHANNELS.event && s.message.event !== 'sync-status').map((s) => s.message);
  const menuItem = (menu: string, label: string) => {
    const submenu = (recorded.menu as any[]).find((m) => m.label === menu)?.submenu as any[] | undefined;
    return submenu?.find((item) => item.label === label);
  };
  const shownOverdue = () => (process.platform === 'win32' ? recorded.overlays.at(-1)?.description : recorded.badgeCounts.at(-1));

  it('opens the first window on the launch link, where the window was last time', () => {
    expect(recorded.windows).toHaveLength(1);
    expect(window().loaded).toEqual(['app://outpost/deals/7']);
    expect(window().options).toMatchObject({ x: 200, y: 150, width: 1000, height: 700, minWidth: 720, minHeight: 480 });
    expect(window().maximized).toBe(true);
    // An unpackaged run leaves outpost:// to the installed app.
    expect(recorded.protocolClients).toEqual([]);
  });

  it('keeps deep links until the page has mounted its app shell, then sends them', async () => {
    app.emit('second-instance', {}, ['/opt/Outpost/outpost', '--flag', 'outpost://contacts/12/'], dir);
    expect(window().focused).toBeGreaterThan(0);
    expect(shellMessages()).toEqual([]);
    await invoke({ method: 'GET', path: '/v2/users/self' }); // the session check: listeners are not there yet
    expect(shellMessages()).toEqual([]);
    await invoke({ method: 'GET', path: '/v2/contacts' }); // a screen loads: the shell is mounted
    expect(shellMessages()).toEqual([{ event: 'open-path', payload: { path: '/contacts/12' } }]);
  });

  it('ignores links to anything but the screens of the app', () => {
    const before = shellMessages().length;
    app.emit('second-instance', {}, ['/opt/Outpost/outpost', 'outpost://settings/custom-objects/x/../../admin'], dir);
    app.emit('second-instance', {}, ['/opt/Outpost/outpost', 'outpost://contacts/12/edit'], dir);
    app.emit('second-instance', {}, ['/opt/Outpost/outpost', 'https://evil.example/contacts/1'], dir);
    // A hub sign-in's redirect back carries a code: it is for a waiting sign-in (none here), never for the window.
    app.emit('second-instance', {}, ['/opt/Outpost/outpost', 'outpost://oauth/callback?code=abc&state=xyz'], dir);
    expect(shellMessages()).toHaveLength(before);
  });

  it('keeps the loopback redirect for the hub sign-in, as outpost:// is not claimed', async () => {
    const hub = await startTestHub();
    try {
      const answer = invoke({ method: 'POST', path: '/v2/desktop/hub', body: { data: { hub_url: hub.url } } });
      await waitFor(() => recorded.opened.length > 0, 'the browser to open');
      const authorize = new URL(recorded.opened[0]);
      expect(authorize.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/callback$/);
      // Denied in the browser, which follows the redirect to the loopback listener: the settings hear why.
      const back = await decide(hub.url, await openConsent(hub.url, Object.fromEntries(authorize.searchParams)), 'deny', ADMIN);
      await (await fetch(back.location!)).text();
      const denied = await answer;
      expect([denied.status, denied.body.errors[0].error.message]).toEqual([422, 'The sign-in was cancelled in the browser.']);
    } finally {
      await hub.close();
    }
  });

  it('hands a .vcf opened by a second launch to the import preview as text', async () => {
    app.emit('second-instance', {}, ['/opt/Outpost/outpost', 'ann.vcf'], dir);
    await waitFor(() => shellMessages().some((m) => m.event === 'open-file'), 'the vCard');
    expect(shellMessages().at(-1)).toEqual({ event: 'open-file', payload: { kind: 'vcard', name: 'ann.vcf', text: VCARD } });
  });

  it('takes macOS links and files from open-url and open-file, and says why a file cannot be read', async () => {
    let prevented = 0;
    const event = { preventDefault: () => prevented++ };
    app.emit('open-url', event, 'outpost://tasks');
    expect(shellMessages().at(-1)).toEqual({ event: 'open-path', payload: { path: '/tasks' } });
    const before = shellMessages().length;
    app.emit('open-file', event, join(dir, 'latin1.vcf'));
    await waitFor(() => recorded.errors.length > 0, 'the error dialog');
    expect(recorded.errors.at(-1)).toMatch(/latin1\.vcf is not UTF-8 text/);
    expect(shellMessages()).toHaveLength(before);
    expect(prevented).toBe(2);
  });

  it('builds the menu: commands and screens go to the window, Import Contacts… opens a chosen vCard', async () => {
    expect(menuItem('File', 'New Contact')).toMatchObject({ accelerator: 'CmdOrCtrl+N' });
    expect(menuItem('File', 'Sync Now')).toBeUndefined(); // not connected to a hub
    menuItem('File', 'New Contact').click();
    menuItem('Go', 'Command Palette…').click();
    menuItem('Go', 'Leads').click();
    expect(shellMessages().slice(-3)).toEqual([
      { event: 'command', payload: { name: 'new-contact' } },
      { event: 'command', payload: { name: 'command-palette' } },
      { event: 'open-path', payload: { path: '/leads' } },
    ]);
    recorded.openDialogAnswers.push({ canceled: false, filePaths: [join(dir, 'ann.vcf')] });
    const files = shellMessages().filter((m) => m.event === 'open-file').length;
    menuItem('File', 'Import Contacts…').click();
    await waitFor(() => shellMessages().filter((m) => m.event === 'open-file').length > files, 'the chosen vCard');
  });

  it('drops menu commands while a reloaded page is not listening yet', async () => {
    window().webContents.emit('did-navigate', {}, 'app://outpost/contacts');
    const before = shellMessages().length;
    menuItem('File', 'New Task').click();
    await invoke({ method: 'GET', path: '/v2/tasks' });
    expect(shellMessages()).toHaveLength(before);
  });

  it('migrates the older release’s database in the user-data folder, keeping its records', async () => {
    const schema = new Database(join(dataDir, 'outpost.sqlite'), { readonly: true });
    try {
      expect(schema.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    } finally {
      schema.close();
    }
    const task = await invoke({ method: 'GET', path: '/v2/tasks/5' });
    expect(task.body.data).toMatchObject({ content: 'Call back (overdue)', overdue: true, completed: false });
  });

  it("shows the number of the user's own open overdue tasks, and follows changes", async () => {
    const one = process.platform === 'win32' ? '1 overdue task' : 1;
    const none = process.platform === 'win32' ? 'No overdue tasks' : 0;
    await waitFor(() => shownOverdue() === one, 'the badge');
    const done = await invoke({ method: 'PUT', path: '/v2/tasks/5', body: { data: { completed: true } } });
    expect(done.status).toBe(200);
    await waitFor(() => shownOverdue() === none, 'the badge to clear');
  });

  it('remembers the window’s place when it closes', () => {
    window().maximized = false;
    window().normalBounds = { x: 40, y: 30, width: 900, height: 600 };
    window().emit('close', {});
    expect(JSON.parse(readFileSync(join(dataDir, 'window-state.json'), 'utf8'))).toEqual({ bounds: { x: 40, y: 30, width: 900, height: 600 }, maximized: false });
  });
});
