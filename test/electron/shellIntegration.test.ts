// The small pure parts of the desktop integration: when shell events reach the
// window, the overdue badge, offline detection and the auto-update switch.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { command, openPath, ShellEventQueue, type ShellMessage } from '../../electron/desktop/shellEvents.js';
import { countOverdueTasks, MAX_COUNTED, OverdueBadge, overdueLabel, overlayDotBitmap, type EngineGet } from '../../electron/desktop/overdueBadge.js';
import { ConnectivityWatcher } from '../../electron/desktop/connectivity.js';
import { autoUpdateEnabled, readDesktopSettings, startAutoUpdate } from '../../electron/desktop/autoUpdate.js';

const vcard = (name: string): ShellMessage => ({ event: 'open-file', payload: { kind: 'vcard', name, text: 'BEGIN:VCARD' } });

describe('shell events on their way to the window', () => {
  it('wait for the first request past the session check, then go in order; later ones go at once', () => {
    const delivered: ShellMessage[] = [];
    const queue = new ShellEventQueue((m) => delivered.push(m));
    queue.send(openPath('/deals/7'));
    queue.send(vcard('a.vcf'));
    queue.requestSeen({ method: 'GET', path: '/v2/users/self' });
    queue.requestSeen({ method: 'GET', path: '/v2/accounts/self' });
    queue.requestSeen(null);
    expect(delivered).toEqual([]);
    queue.requestSeen({ method: 'GET', path: '/v2/contacts' });
    expect(delivered).toEqual([openPath('/deals/7'), vcard('a.vcf')]);
    queue.send(command('new-contact'));
    expect(delivered.at(-1)).toEqual(command('new-contact'));
  });

  it('stop after a page load until the new page listens; drop menu commands meanwhile; keep at most ten', () => {
    const delivered: ShellMessage[] = [];
    const queue = new ShellEventQueue((m) => delivered.push(m));
    queue.requestSeen({ path: '/v2/tasks' });
    queue.pageLoaded();
    queue.send(command('command-palette'));
    for (let i = 1; i <= 12; i++) queue.send(openPath(`/contacts/${i}`));
    expect(queue.waiting).toHaveLength(10);
    queue.requestSeen({ path: '/v2/tasks' });
    expect(delivered).toEqual(Array.from({ length: 10 }, (_, i) => openPath(`/contacts/${i + 3}`)));
  });
});

describe('the overdue badge', () => {
  /** An engine with `overdue` tasks for user 7, served `per_page` at a time. */
  function engine(overdue: number, seen: Record<string, unknown>[] = []): EngineGet {
    return async (path, query = {}) => {
      if (path === '/v2/users/self') return { status: 200, body: { data: { id: 7 } } };
      seen.push(query);
      const page = Number(query.page), perPage = Number(query.per_page);
      const items = Array.from({ length: Math.max(0, Math.min(perPage, overdue - (page - 1) * perPage)) }, () => ({ data: {} }));
      const more = page * perPage < overdue;
      return { status: 200, body: { items, meta: { links: more ? { next_page: `/v2/tasks?page=${page + 1}` } : {} } } };
    };
  }

  it("counts the user's open overdue tasks page by page, up to a cap", async () => {
    const seen: Record<string, unknown>[] = [];
    expect(await countOverdueTasks(engine(0, seen))).toBe(0);
    expect(seen[0]).toEqual({ owner_id: 7, overdue: true, completed: false, per_page: 100, page: 1 });
    expect(await countOverdueTasks(engine(250))).toBe(250);
    const capped: Record<string, unknown>[] = [];
    expect(await countOverdueTasks(engine(5000, capped))).toBe(MAX_COUNTED);
    expect(capped).toHaveLength(10);
  });

  it('knows no count without a user or when the engine refuses', async () => {
    expect(await countOverdueTasks(async () => ({ status: 401, body: null }))).toBeNull();
    const refusing: EngineGet = async (path) => (path === '/v2/users/self' ? { status: 200, body: { data: { id: 1 } } } : { status: 400, body: null });
    expect(await countOverdueTasks(refusing)).toBeNull();
  });

  it('touches the badge only when the number changes, and never runs two counts at once', async () => {
    const shown: number[] = [];
    let count: number | null = 2;
    let running = 0, overlapped = false, counts = 0;
    const badge = new OverdueBadge(async () => {
      running++;
      counts++;
      overlapped ||= running > 1;
      await new Promise((resolve) => setImmediate(resolve));
      running--;
      return count;
    }, (n) => shown.push(n));
    await badge.refresh();
    await badge.refresh();
    expect(shown).toEqual([2]);
    count = 3;
    // Asked for three times while one runs: one more count after it, not two.
    await Promise.all([badge.refresh(), badge.refresh(), badge.refresh()]);
    expect([overlapped, counts, shown]).toEqual([false, 4, [2, 3]]);
    count = null; // the engine could not say: keep the number shown
    await badge.refresh();
    expect(shown).toEqual([2, 3]);
  });

  it('labels the count and draws the Windows overlay dot', () => {
    expect([overdueLabel(0), overdueLabel(1), overdueLabel(4), overdueLabel(MAX_COUNTED)]).toEqual(['No overdue tasks', '1 overdue task', '4 overdue tasks', '999+ overdue tasks']);
    const dot = overlayDotBitmap(16);
    expect(dot).toHaveLength(16 * 16 * 4);
    const pixel = (x: number, y: number) => [...dot.subarray((y * 16 + x) * 4, (y * 16 + x) * 4 + 4)];
    expect(pixel(0, 0)).toEqual([0, 0, 0, 0]); // transparent corner
    expect(pixel(8, 8)).toEqual([48, 38, 220, 255]); // red centre (BGRA)
    expect(pixel(8, 1)).toEqual([255, 255, 255, 255]); // white rim
  });
});

describe('offline detection', () => {
  it('asks for a sync when the network comes back, and after waking up while online', () => {
    let online = false;
    let syncs = 0;
    const watcher = new ConnectivityWatcher({ isOnline: () => online, onReconnect: () => syncs++ });
    watcher.check();
    expect(syncs).toBe(0);
    online = true;
    watcher.check();
    watcher.check();
    expect([syncs, watcher.isOnline]).toEqual([1, true]);
    watcher.resumed();
    expect(syncs).toBe(2);
    online = false;
    watcher.resumed();
    watcher.check();
    expect([syncs, watcher.isOnline]).toEqual([2, false]);
  });

  it('polls until stopped', async () => {
    let looks = 0;
    const watcher = new ConnectivityWatcher({ isOnline: () => (looks++, true), onReconnect: () => undefined });
    const stop = watcher.watch(1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    stop();
    const after = looks;
    expect(after).toBeGreaterThan(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(looks).toBe(after);
  });
});

describe('automatic updates', () => {
  it('are off unless a packaged app is told to update, by the environment or the settings file', () => {
    expect(autoUpdateEnabled({}, {}, true)).toBe(false);
    expect(autoUpdateEnabled({ OUTPOST_AUTO_UPDATE: '1' }, {}, true)).toBe(true);
    expect(autoUpdateEnabled({ OUTPOST_AUTO_UPDATE: '1' }, {}, false)).toBe(false); // never from a development run
    expect(autoUpdateEnabled({}, { autoUpdate: true }, true)).toBe(true);
    expect(autoUpdateEnabled({ OUTPOST_AUTO_UPDATE: 'off' }, { autoUpdate: true }, true)).toBe(false); // IT can force it off
    expect(autoUpdateEnabled({ OUTPOST_AUTO_UPDATE: 'maybe' }, {}, true)).toBe(false);
  });

  it('read the settings file when it is a JSON object', () => {
    const dir = mkdtempSync(join(tmpdir(), 'outpost-settings-'));
    try {
      const file = join(dir, 'desktop-settings.json');
      expect(readDesktopSettings(file)).toEqual({});
      writeFileSync(file, '{"autoUpdate": true}');
      expect(readDesktopSettings(file)).toEqual({ autoUpdate: true });
      writeFileSync(file, '[true]');
      expect(readDesktopSettings(file)).toEqual({});
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('check through electron-updater when it is installed, and say why not otherwise', async () => {
    const log: string[] = [];
    let checks = 0;
    await startAutoUpdate((name) => (name === 'electron-updater' ? { autoUpdater: { checkForUpdatesAndNotify: async () => checks++ } } : null), (m) => log.push(m));
    expect([checks, log]).toEqual([1, []]);
    await startAutoUpdate(() => {
      throw new Error('Cannot find module');
    }, (m) => log.push(m));
    expect(log).toEqual([expect.stringContaining('electron-updater is not installed')]);
    await startAutoUpdate(() => ({ autoUpdater: { checkForUpdatesAndNotify: async () => Promise.reject(new Error('offline')) } }), (m) => log.push(m));
    expect(log.at(-1)).toBe('Update check failed: offline');
  });
});
