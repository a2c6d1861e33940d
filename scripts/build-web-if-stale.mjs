#!/usr/bin/env node
// `npm run serve` builds the web UI only when its sources changed since the last build.
// "Changed" is by content (scripts/buildStamp.mjs): every file the renderer build reads (renderer/,
// shared/, the engine and its browser host that the page's engine worker bundles, the platform-variant
// plugin, vite.config.ts, package-lock.json) and the index.html it built are recorded in
// dist/renderer.stamp — beside dist/renderer/, not in it, so the stamp is never packaged — so a build
// made since by other means (`vite build` from other sources) is not taken for it. Prints one line:
// whether it built or skipped.
// `--check` prints whether a build is due and exits 1 if so, without building.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { filesUnder, staleness, writeStamp } from './buildStamp.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SOURCES = ['renderer', 'shared', 'electron/engine', 'electron/browser', 'scripts/platformVariants.mjs', 'vite.config.ts', 'package-lock.json'];
const STAMP = join(ROOT, 'dist/renderer.stamp');
const OUTPUTS = ['dist/renderer/index.html'];

function main() {
  const check = process.argv.includes('--check');
  const inputs = filesUnder(ROOT, SOURCES);
  const why = staleness(ROOT, STAMP, { inputs, outputs: OUTPUTS });
  if (why === null) {
    console.log('Web UI is up to date (dist/renderer); not rebuilding.');
    return 0;
  }
  if (check) {
    console.log(`Web UI needs a build (${why}).`);
    return 1;
  }
  console.log(`Building the web UI (${why})…`);
  const vite = join(ROOT, 'node_modules/vite/bin/vite.js');
  const run = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  if (run.status !== 0) return run.status ?? 1;
  writeStamp(ROOT, STAMP, { inputs, outputs: OUTPUTS });
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main();
