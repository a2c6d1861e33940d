import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { esbuildWebPlatform, viteWebPlatform, webVariantOf } from '../../../scripts/platformVariants.mjs';

const PLATFORM = resolve(import.meta.dirname, '../../../electron/engine/platform');
const ENGINE = resolve(PLATFORM, '..');

describe('the platform variants', () => {
  it('finds the .web.ts side of a platform module, by its file or the .js an import names', () => {
    expect(webVariantOf(join(PLATFORM, 'crypto.ts'))).toBe(join(PLATFORM, 'crypto.web.ts'));
    expect(webVariantOf(join(PLATFORM, 'crypto.js'))).toBe(join(PLATFORM, 'crypto.web.ts'));
  });

  it('finds the web side of a seam on a floor of its own too (the SQLite driver, db/)', () => {
    expect(webVariantOf(join(ENGINE, 'db/sqliteDriver.js'))).toBe(join(ENGINE, 'db/sqliteDriver.web.ts'));
    expect(webVariantOf(join(ENGINE, 'hubOnly.ts'))).toBe(join(ENGINE, 'hubOnly.web.ts'));
  });

  it('finds none for a web side itself, a missing module, or a module without a web side', () => {
    expect(webVariantOf(join(PLATFORM, 'crypto.web.ts'))).toBeNull();
    expect(webVariantOf(join(PLATFORM, 'nothing.js'))).toBeNull();
    expect(webVariantOf(join(ENGINE, 'engine.js'))).toBeNull();
  });

  it('has a web side for every Node side in platform/', () => {
    const files = readdirSync(PLATFORM);
    const nodeSides = files.filter((file) => file.endsWith('.ts') && !file.endsWith('.web.ts'));
    expect(nodeSides.filter((file) => !files.includes(file.replace(/\.ts$/, '.web.ts')))).toEqual([]);
  });

  it('swaps the Node side for the web side in Vite, and leaves other imports to Vite', () => {
    const plugin = viteWebPlatform();
    const importer = join(ENGINE, 'auth/tokens.ts');
    expect(plugin.enforce).toBe('pre');
    expect(plugin.resolveId('../platform/crypto.js', importer)).toBe(join(PLATFORM, 'crypto.web.ts'));
    expect(plugin.resolveId('../platform/crypto.js', `${importer}?v=1`)).toBe(join(PLATFORM, 'crypto.web.ts'));
    expect(plugin.resolveId('../bytes.js', importer)).toBeNull();
    expect(plugin.resolveId('undici', importer)).toBeNull();
  });

  it('swaps the Node side for the web side in esbuild', async () => {
    const result = await build({
      stdin: { contents: "export { sha256Hex } from './platform/crypto.js';", resolveDir: ENGINE, sourcefile: 'entry.ts', loader: 'ts' },
      bundle: true, write: false, platform: 'browser', format: 'esm', metafile: true, logLevel: 'silent', plugins: [esbuildWebPlatform()],
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((input) => input.endsWith('platform/crypto.web.ts'))).toBe(true);
    expect(inputs.some((input) => input.endsWith('platform/crypto.ts'))).toBe(false);
  });
});
