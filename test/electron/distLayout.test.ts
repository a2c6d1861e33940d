// The packaging checks of scripts/verify-dist.mjs: first each check against
// configurations and layouts broken on purpose (so a check that stopped
// looking would fail here), then the whole verification on this project:
// electron-builder's validation, the build, and electron-builder's own packing
// of the app's files, read back from app.asar.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { checkConfig, checkDesktopEntry, checkLayout, loadConfig, requiredPackages, validateConfig, WORKER_DRIVER_FILES, type BuilderConfig } from '../../scripts/verify-dist.mjs';

const ROOT = join(import.meta.dirname, '../..');

describe('electron-builder.yml', () => {
  it("passes electron-builder's own validation and has what the desktop app relies on", async () => {
    const config = await loadConfig(ROOT);
    await validateConfig(config);
    expect(checkConfig(config, ROOT)).toEqual([]);
  });

  it("is checked against electron-builder's schema, not only read", async () => {
    const config = await loadConfig(ROOT);
    await expect(validateConfig({ ...config, linux: { ...config.linux, targets: ['deb'] } })).rejects.toThrow(/Invalid configuration object/);
    await expect(validateConfig({ ...config, protocols: [{ schemes: ['outpost'] }] })).rejects.toThrow(/name/);
  });

  it('says what is missing', async () => {
    const config = await loadConfig(ROOT);
    const without = (change: (c: BuilderConfig) => void) => {
      const copy = structuredClone(config);
      change(copy);
      return checkConfig(copy, ROOT);
    };
    expect(without((c) => (c.protocols = []))).toEqual(['no protocols entry for the outpost scheme']);
    expect(without((c) => (c.fileAssociations = [{ ext: 'vcf' }]))).toEqual(['no fileAssociations entry for .vcf (text/vcard)']);
    expect(without((c) => (c.linux.target = ['AppImage']))).toEqual(['linux does not build deb']);
    expect(without((c) => (c.mac.target = [{ target: 'zip' }]))).toEqual(['mac does not build dmg']);
    expect(without((c) => (c.npmRebuild = false))).toEqual(['npmRebuild is off: better-sqlite3 would not be rebuilt for Electron']);
    expect(without((c) => (c.asarUnpack = []))).toEqual(['asarUnpack does not keep better-sqlite3 out of app.asar']);
    expect(without((c) => delete c.publish)).toEqual(['no publish feed for electron-updater']);
    expect(without((c) => (c.win.icon = 'package.json'))).toEqual([expect.stringContaining('win.icon package.json is not a PNG')]);
  });
});

describe('the packaged layout', () => {
  const GOOD: Record<string, string> = {
    'package.json': JSON.stringify({ main: 'dist/electron/main.cjs' }),
    'dist/electron/main.cjs': 'const a = require("fastify"); const b = require("better-sqlite3"); require("node:fs"); require("path"); require("electron");',
    'dist/electron/preload.cjs': '',
    'dist/renderer/index.html': '<script type="module" src="/assets/index-1.js"></script><link rel="stylesheet" href="/assets/index-1.css">',
    'dist/renderer/assets/index-1.js': '',
    'dist/renderer/assets/index-1.css': '',
    'node_modules/fastify/package.json': JSON.stringify({ dependencies: { avvio: '1', 'light-my-request': '1' }, optionalDependencies: { 'not-here': '1' } }),
    'node_modules/avvio/package.json': '{}',
    'node_modules/fastify/node_modules/light-my-request/package.json': JSON.stringify({ dependencies: { cookie: '1' } }),
    'node_modules/cookie/package.json': '{}',
    'node_modules/better-sqlite3/package.json': '{}',
    'node_modules/better-sqlite3/build/Release/better_sqlite3.node': '',
    'node_modules/better-sqlite3/lib/index.js': '',
    'node_modules/bindings/bindings.js': '',
  };
  const UNPACKED = ['node_modules/better-sqlite3/build/Release/better_sqlite3.node', 'node_modules/better-sqlite3/lib/index.js', 'node_modules/bindings/bindings.js'];
  const layout = (files: Record<string, string>, unpacked = UNPACKED) => {
    const entries = new Map(Object.keys(files).map((path) => [path, unpacked.includes(path)]));
    return checkLayout(entries, (path) => files[path]);
  };

  it('accepts the bundles, the renderer, the required packages with their dependencies, and an unpacked native module', () => {
    expect(layout(GOOD)).toEqual([]);
    expect(requiredPackages(GOOD['dist/electron/main.cjs'])).toEqual(['better-sqlite3', 'fastify']);
    expect(requiredPackages('require("@fastify/static/lib/x.js"); require("./local.js")')).toEqual(['@fastify/static']);
  });

  it('finds sources, tests and source maps that leaked in', () => {
    const leaked = { ...GOOD, 'electron/main.ts': '', 'test/electron/launch.test.ts': '', 'dist/electron/main.cjs.map': '', 'dist/renderer/assets/index-1.js.map': '', '.env': '' };
    expect(layout(leaked)).toEqual(['electron/main.ts', 'test/electron/launch.test.ts', 'dist/electron/main.cjs.map', 'dist/renderer/assets/index-1.js.map', '.env'].map((f) => `${f} should not be packaged (only the bundles, the built renderer and package.json belong in app.asar)`));
  });

  it('finds what the packaged app would miss at run time', () => {
    const { 'dist/electron/preload.cjs': _preload, 'node_modules/cookie/package.json': _cookie, 'dist/renderer/assets/index-1.css': _css, ...rest } = GOOD;
    expect(layout({ ...rest, 'package.json': JSON.stringify({ main: 'main.js' }) })).toEqual([
      'dist/electron/preload.cjs is missing from app.asar',
      'package.json main is main.js, not dist/electron/main.cjs',
      'dist/renderer/index.html refers to /assets/index-1.css, which is not packaged',
      'cookie (required by node_modules/fastify/node_modules/light-my-request) is not packaged',
    ]);
    expect(layout(GOOD, [])).toEqual([
      'node_modules/better-sqlite3/build/Release/better_sqlite3.node is inside app.asar: a native module must be unpacked',
      'node_modules/better-sqlite3/lib/index.js is inside app.asar: a worker thread loads the driver from app.asar.unpacked',
      'node_modules/bindings/bindings.js is inside app.asar: a worker thread loads the driver from app.asar.unpacked',
    ]);
  });

  it('checks the .desktop entry for the link and vCard handlers', () => {
    const good = '[Desktop Entry]\nName=Outpost\nExec=/opt/Outpost/outpost %U\nMimeType=text/vcard;x-scheme-handler/outpost;\n';
    expect(checkDesktopEntry(good).problems).toEqual([]);
    expect(checkDesktopEntry('[Desktop Entry]\nName=Outpost\nExec=/opt/Outpost/outpost\nMimeType=text/vcard;\n').problems).toEqual([
      'the .desktop MimeType lacks x-scheme-handler/outpost',
      'the .desktop Exec does not pass links and files on (%U)',
    ]);
  });

  it('holds for this project as electron-builder packs it', { timeout: 240_000 }, () => {
    const output = execFileSync(process.execPath, ['scripts/verify-dist.mjs', '--json'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
    const report = JSON.parse(output);
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.build).toEqual({ renderer: true, main: true, preload: true });
    expect(report.layout.appFiles).toEqual(expect.arrayContaining(['package.json', 'dist/electron/main.cjs', 'dist/electron/preload.cjs', 'dist/renderer/index.html']));
    expect(report.layout.appFiles.every((f: string) => /^(package\.json|dist\/electron\/(main|preload)\.cjs|dist\/renderer\/.+)$/.test(f) && !f.endsWith('.map'))).toBe(true);
    expect(report.layout.packages).toEqual(expect.arrayContaining(['better-sqlite3', 'fastify']));
    expect(report.layout.packageJson).toEqual({ name: 'outpost', productName: 'Outpost', main: 'dist/electron/main.cjs', desktopName: 'outpost.desktop' });
    expect(report.layout.desktopEntry).toMatchObject({ Name: 'Outpost', MimeType: 'text/vcard;x-scheme-handler/outpost;', Categories: 'Office;' });
    expect(report.layout.updateFeed).toContain('provider: generic');
    // What a worker thread loads the driver from is packed, and unpacked.
    expect(report.layout.unpackedDriver).toEqual(WORKER_DRIVER_FILES);
  });
});
