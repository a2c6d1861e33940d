#!/usr/bin/env node
// `npm start`: opens the desktop app from source.
//  1. finds the Electron runtime; Electron downloads it lazily, so try that once,
//     bounded in time. Without it, say so in one sentence and exit 1 (first, so
//     a machine that cannot run Electron does not wait for a build);
//  2. builds the web UI (Vite) and the Electron bundles;
//  3. makes a better-sqlite3 build for Electron's ABI in .cache/electron-native/
//     (node_modules keeps the Node build that the hub and the tests use) and
//     hands its path to the main process in OUTPOST_SQLITE_BINDING;
//  4. launches Electron on dist/electron/main.cjs.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, cpSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const root = new URL('..', import.meta.url).pathname;
const electronDir = join(root, 'node_modules/electron');
const DOWNLOAD_TIMEOUT_MS = 60_000;
const REBUILD_TIMEOUT_MS = 10 * 60_000;
const NO_RUNTIME =
  "Outpost's desktop app needs the Electron runtime, which could not be downloaded on this machine; run the hub and its web UI instead with: npm run serve";
const NO_NATIVE_SQLITE =
  "Outpost's desktop app needs SQLite built for Electron, which could not be built here (see .cache/electron-native/rebuild.log); run the hub and its web UI instead with: npm run serve";

function fail(message) {
  console.error(message);
  process.exit(1);
}

function run(command, args, options = {}) {
  return spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options }).status === 0;
}

/** Path of the Electron executable if it is on disk (the same rules as the electron package's index.js). */
function installedBinary() {
  const pathFile = join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const relative = readFileSync(pathFile, 'utf8').trim();
  const binary = join(process.env.ELECTRON_OVERRIDE_DIST_PATH || join(electronDir, 'dist'), relative);
  return existsSync(binary) ? binary : null;
}

/** The Electron executable, downloading it once (bounded in time, quietly) when missing. */
function electronBinary() {
  if (!existsSync(join(electronDir, 'install.js'))) return null;
  const found = installedBinary();
  if (found) return found;
  // install.js prints a stack trace when offline: keep it out of the user's way.
  spawnSync(process.execPath, [join(electronDir, 'install.js')], { cwd: root, stdio: 'ignore', timeout: DOWNLOAD_TIMEOUT_MS, killSignal: 'SIGKILL' });
  return installedBinary();
}

/**
 * better-sqlite3 rebuilt for Electron's ABI in a cache folder. A marker file
 * written only after a successful rebuild says the binding is for this
 * Electron version (the copied folder starts without any build). The
 * rebuild's own output (node-gyp is verbose) goes to a log file beside it.
 */
function electronSqliteBinding() {
  const version = require('electron/package.json').version;
  const sqliteVersion = require('better-sqlite3/package.json').version;
  const cacheRoot = join(root, '.cache/electron-native');
  const cache = join(cacheRoot, `electron-${version}-better-sqlite3-${sqliteVersion}`);
  const binding = join(cache, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
  const marker = join(cache, 'built-for-electron');
  if (existsSync(binding) && existsSync(marker)) return binding;

  rmSync(cache, { recursive: true, force: true });
  mkdirSync(join(cache, 'node_modules'), { recursive: true });
  writeFileSync(join(cache, 'package.json'), JSON.stringify({ name: 'outpost-electron-native', private: true, dependencies: { 'better-sqlite3': sqliteVersion } }));
  const buildDir = join('better-sqlite3', 'build');
  cpSync(join(root, 'node_modules/better-sqlite3'), join(cache, 'node_modules/better-sqlite3'), { recursive: true, filter: (source) => !source.includes(buildDir) });

  // A `nodedir` npm setting would make node-gyp compile against Node's headers instead of Electron's.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name.toLowerCase() !== 'npm_config_nodedir'));
  // A script file rather than `--input-type=module -e`: @electron/rebuild forks node-gyp workers with
  // this process's execArgv, and `--input-type` would break them.
  const script = join(cacheRoot, 'rebuild.mjs');
  writeFileSync(script, `import { rebuild } from ${JSON.stringify(pathToFileURL(require.resolve('@electron/rebuild')).href)};
await rebuild({ buildPath: ${JSON.stringify(cache)}, electronVersion: ${JSON.stringify(version)}, onlyModules: ['better-sqlite3'], force: true });
`);
  const log = openSync(join(cacheRoot, 'rebuild.log'), 'w');
  const result = spawnSync(process.execPath, [script], { cwd: root, env, stdio: ['ignore', log, log], timeout: REBUILD_TIMEOUT_MS, killSignal: 'SIGKILL' });
  closeSync(log);
  if (result.status !== 0 || !existsSync(binding)) return null;
  writeFileSync(marker, `${version}\n`);
  return binding;
}

async function main() {
  const binary = electronBinary();
  if (!binary) fail(NO_RUNTIME);

  const built =
    run(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn']) &&
    run(process.execPath, [join(root, 'scripts/build-electron.mjs')]);
  if (!built) fail('Outpost could not build its user interface; the messages above say what failed.');

  const binding = electronSqliteBinding();
  if (!binding) fail(NO_NATIVE_SQLITE);

  const child = spawn(binary, [join(root, 'dist/electron/main.cjs')], { cwd: root, stdio: 'inherit', env: { ...process.env, OUTPOST_SQLITE_BINDING: binding } });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('error', () => fail(NO_RUNTIME));
  child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
}

main().catch((error) => fail(`Outpost could not start: ${error instanceof Error ? error.message : String(error)}`));
