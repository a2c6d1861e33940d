#!/usr/bin/env node
// `npm install`'s postinstall: builds native/pqsync, the PostgreSQL hub's libpq driver
// (electron/engine/db/libpqConnection.ts), with node-gyp against the machine's libpq. Optional: without
// libpq's headers (pg_config; Debian: libpq-dev) or a compiler, it says so and the hub uses its other
// driver, the bridge (docs/hub.md, "The database driver"). It never fails the install.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const skip = (why) => {
  console.log(`native/pqsync not built (${why}): a hub on PostgreSQL will use its bridge driver.`);
  process.exit(0);
};

if (process.platform === 'win32') skip('not on Windows');
if (spawnSync('pg_config', ['--includedir'], { encoding: 'utf8' }).status !== 0) skip('no pg_config: install libpq-dev, or libpq on macOS');
// npm hands its own node-gyp to install scripts; run by hand, the one in node_modules.
let nodeGyp = process.env.npm_config_node_gyp;
if (!nodeGyp) {
  try {
    nodeGyp = createRequire(import.meta.url).resolve('node-gyp/bin/node-gyp.js');
  } catch {
    skip('node-gyp not found');
  }
}
const built = spawnSync(process.execPath, [nodeGyp, 'rebuild', '--directory', join(root, 'native/pqsync')], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
if (built.status !== 0) skip(`node-gyp failed: ${built.stderr.split('\n').filter((line) => /ERR!/.test(line)).slice(0, 3).join(' ').trim() || built.status}`);
console.log('native/pqsync built: a hub on PostgreSQL talks to it through libpq.');
