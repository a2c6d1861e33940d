// Opens the real desktop app with Playwright's Electron driver. Runs only where
// the Electron runtime exists (it is downloaded lazily and cannot be on every
// machine) and the app is built with a better-sqlite3 for Electron's ABI
// (`npm start` makes both); otherwise it says why it skips.
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');
const ELECTRON = join(ROOT, 'node_modules/electron');

function electronBinary(): string | null {
  const pathFile = join(ELECTRON, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = join(process.env.ELECTRON_OVERRIDE_DIST_PATH || join(ELECTRON, 'dist'), readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

/** The better-sqlite3 build for Electron that `npm start` leaves in .cache/electron-native/ (or OUTPOST_SQLITE_BINDING). */
function electronSqliteBinding(): string | null {
  if (process.env.OUTPOST_SQLITE_BINDING) return process.env.OUTPOST_SQLITE_BINDING;
  const cache = join(ROOT, '.cache/electron-native');
  if (!existsSync(cache)) return null;
  const electronVersion = JSON.parse(readFileSync(join(ELECTRON, 'package.json'), 'utf8')).version;
  for (const entry of readdirSync(cache)) {
    const binding = join(cache, entry, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
    if (entry.startsWith(`electron-${electronVersion}-`) && existsSync(join(cache, entry, 'built-for-electron')) && existsSync(binding)) return binding;
  }
  return null;
}

const binary = electronBinary();
const bundle = join(ROOT, 'dist/electron/main.cjs');
const binding = binary ? electronSqliteBinding() : null;
const skipReason = !binary
  ? 'the Electron binary is not installed (node_modules/electron/path.txt or its executable is missing; Electron downloads it on first use, which this machine cannot)'
  : !existsSync(bundle) || !existsSync(join(ROOT, 'dist/renderer/index.html'))
    ? 'the app is not built (run npm run build)'
    : !binding
      ? 'there is no better-sqlite3 build for Electron\'s ABI (run npm start once, or set OUTPOST_SQLITE_BINDING)'
      : null;

describe('desktop app launch', () => {
  if (skipReason) console.log(`Electron launch test skipped: ${skipReason}.`);

  it.skipIf(skipReason !== null)('opens the window on the contacts screen, isolated from Node', { timeout: 60_000 }, async () => {
    const { _electron } = await import('playwright-core');
    const dataDir = mkdtempSync(join(tmpdir(), 'outpost-electron-'));
    // Chromium refuses to start as root with its OS sandbox (CI containers); contextIsolation and the renderer sandbox flag still apply.
    const args = process.getuid?.() === 0 ? ['--no-sandbox', bundle] : [bundle];
    const app = await _electron.launch({ executablePath: binary!, args, env: { ...process.env, OUTPOST_SQLITE_BINDING: binding!, OUTPOST_DATA_DIR: dataDir } });
    try {
      const window = await app.firstWindow();
      await window.getByRole('heading', { name: 'Contacts' }).waitFor();
      expect(await window.title()).toBe('Outpost');
      expect(window.url()).toBe('app://outpost/contacts');
      const isolated = await window.evaluate(() => ({
        require: typeof (globalThis as any).require,
        process: typeof (globalThis as any).process,
        bridge: Object.keys((globalThis as any).outpost ?? {}).sort(),
      }));
      expect(isolated).toEqual({ require: 'undefined', process: 'undefined', bridge: ['on', 'request'] });
      const me = await window.evaluate(() => (globalThis as any).outpost.request({ method: 'GET', path: '/v2/users/self' }));
      expect(me).toMatchObject({ status: 200, body: { data: { email: 'me@outpost.local' } } });
    } finally {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it.skipIf(skipReason !== null)('opens the screen of an outpost:// link given at launch, with the native menu', { timeout: 60_000 }, async () => {
    const { _electron } = await import('playwright-core');
    const dataDir = mkdtempSync(join(tmpdir(), 'outpost-electron-'));
    const args = [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), bundle, 'outpost://tasks'];
    const app = await _electron.launch({ executablePath: binary!, args, env: { ...process.env, OUTPOST_SQLITE_BINDING: binding!, OUTPOST_DATA_DIR: dataDir } });
    try {
      const window = await app.firstWindow();
      await window.waitForLoadState();
      expect(window.url()).toBe('app://outpost/tasks');
      const menus = await app.evaluate(({ Menu }) => Menu.getApplicationMenu()?.items.map((item) => item.label));
      expect(menus).toEqual(expect.arrayContaining(['File', 'Edit', 'View', 'Go', 'Window', 'Help']));
    } finally {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
