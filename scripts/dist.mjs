#!/usr/bin/env node
// `npm run dist`: builds the app and the installers for this OS with electron-builder
// (Linux: AppImage and deb; Windows: NSIS; macOS: dmg and zip) into release/.
// Extra arguments go to electron-builder (`npm run dist -- --x64 --arm64`).
// electron-builder rebuilds better-sqlite3 in node_modules for Electron's ABI;
// afterwards it is rebuilt for Node again, so the hub and the tests keep working.
// Nothing is uploaded unless asked (`-- --publish always`): the release workflow
// uploads the files itself.
import { spawnSync } from 'node:child_process';

const run = (command, args) => spawnSync(command, args, { stdio: 'inherit', shell: process.platform === 'win32' }).status ?? 1;

const extra = process.argv.slice(2);
const publish = extra.some((arg) => arg === '--publish' || arg.startsWith('--publish=') || arg === '-p') ? [] : ['--publish', 'never'];
let status = run('npm', ['run', '--silent', 'build']);
if (status === 0) status = run('npx', ['electron-builder', '--config', 'electron-builder.yml', ...publish, ...extra]);
run('npm', ['rebuild', 'better-sqlite3']);
process.exit(status);
