import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');
const pathFile = join(ROOT, 'node_modules/electron/path.txt');
const binary = existsSync(pathFile) ? join(ROOT, 'node_modules/electron/dist', readFileSync(pathFile, 'utf8').trim()) : null;
const bundle = join(ROOT, 'dist/electron/main.cjs');
const skipReason = !binary || !existsSync(binary)
  ? 'the Electron binary is not installed (it cannot be downloaded on this machine)'
  : !existsSync(bundle) ? 'the app is not built (run npm run build)' : null;

describe('desktop app launch', () => {
  if (skipReason) console.log(`Electron launch test skipped: ${skipReason}.`);

  it.skipIf(skipReason !== null)('opens the window on the contacts screen', async () => {
    const { _electron } = await import('playwright-core');
    const app = await _electron.launch({ executablePath: binary!, args: [bundle], env: { ...process.env, OUTPOST_SQLITE_BINDING: process.env.OUTPOST_SQLITE_BINDING ?? '' } });
    try {
      const window = await app.firstWindow();
      expect(await window.title()).toBe('Outpost');
      await window.getByRole('heading', { name: 'Contacts' }).waitFor();
      const isolated = await window.evaluate(() => typeof (globalThis as any).require === 'undefined' && typeof (globalThis as any).outpost?.request === 'function');
      expect(isolated).toBe(true);
    } finally {
      await app.close();
    }
  });
});
