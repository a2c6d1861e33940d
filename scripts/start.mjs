#!/usr/bin/env node
// `npm start`: builds the UI and the Electron bundles, makes sure the Electron
// runtime and a better-sqlite3 build for its ABI exist, then opens the app.
// Where the runtime cannot be obtained it says so in one sentence and exits 1.
import { spawnSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const root = new URL('..', import.meta.url).pathname;
const electronDir = join(root, 'node_modules/electron');
const NO_RUNTIME =
  "Outpost's desktop app needs the Electron runtime, which could not be downloaded on this machine; run the hub and its web UI instead with: npm run serve";

function run(command, args, options = {}) {
  return spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options }).status === 0;
}

function fail(message) {
  console.error(message);
  process.exit(1);
}

/** The Electron executable, downloading it (bounded in time) if the package has not yet. */
function electronBinary() {
  const pathFile = join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) {
    const installed = spawnSync(process.execPath, [join(electronDir, 'install.js')], { cwd: root, stdio: 'ignore', timeout: 120_000 });
    if (installed.status !== 0 || !existsSync(pathFile)) return null;
  }
  const binary = join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

/**
 * better-sqlite3 rebuilt for Electron's ABI into a cache folder, so the Node
 * build that tests and the hub use stays intact. The main process loads it
 * through better-sqlite3's `nativeBinding` option.
 */
function electronSqliteBinding() {
  const version = require('electron/package.json').version;
  const cache = join(root, '.cache/electron-native', version);
  const binding = join(cache, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
  if (existsSync(binding)) return binding;
  mkdirSync(join(cache, 'node_modules'), { recursive: true });
  writeFileSync(join(cache, 'package.json'), JSON.stringify({ name: 'outpost-electron-native', private: true, dependencies: { 'better-sqlite3': '*' } }));
  cpSync(join(root, 'node_modules/better-sqlite3'), join(cache, 'node_modules/better-sqlite3'), { recursive: true });
  const script = `require('@electron/rebuild').rebuild({ buildPath: ${JSON.stringify(cache)}, electronVersion: ${JSON.stringify(version)}, onlyModules: ['better-sqlite3'], force: true }).then(() => process.exit(0), (e) => { console.error(e.message); process.exit(1); })`;
  const ok = run(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'inherit'], timeout: 600_000 });
  return ok && existsSync(binding) ? binding : null;
}

const binary = electronBinary();
if (!binary) fail(NO_RUNTIME);
if (!run('npx', ['vite', 'build', '--logLevel', 'warn']) || !run(process.execPath, ['scripts/build-electron.mjs'])) {
  fail('Outpost could not build its user interface; see the messages above.');
}
const binding = electronSqliteBinding();
if (!binding) fail("Outpost could not build its SQLite module for Electron (it needs Electron's headers); run the hub instead with: npm run serve");
const child = spawn(binary, [join(root, 'dist/electron/main.cjs')], { stdio: 'inherit', env: { ...process.env, OUTPOST_SQLITE_BINDING: binding } });
child.on('exit', (code) => process.exit(code ?? 0));
