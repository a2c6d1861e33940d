#!/usr/bin/env node
// `npm run dist`: builds the app and the installer for this OS with electron-builder.
// electron-builder rebuilds better-sqlite3 in node_modules for Electron's ABI;
// afterwards it is rebuilt for Node again, so the hub and the tests keep working.
import { spawnSync } from 'node:child_process';

const run = (command, args) => spawnSync(command, args, { stdio: 'inherit', shell: process.platform === 'win32' }).status ?? 1;

let status = run('npm', ['run', '--silent', 'build']);
if (status === 0) status = run('npx', ['electron-builder', '--config', 'electron-builder.yml', ...process.argv.slice(2)]);
run('npm', ['rebuild', 'better-sqlite3']);
process.exit(status);
