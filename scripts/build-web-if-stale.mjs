#!/usr/bin/env node
// `npm run serve` builds the web UI only when its sources changed since the last build.
// "Changed" is by content, not mtime: a hash of every file the renderer build reads (renderer/,
// shared/, vite.config.ts, package-lock.json) is kept in dist/renderer.stamp — beside dist/renderer/,
// not in it, so the stamp is never packaged — with a hash of the index.html it built, so a build made
// since by other means (`vite build` from other sources) is not taken for it. Prints one line: whether
// it built or skipped.
// `--check` prints whether a build is due and exits 1 if so, without building.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SOURCES = ['renderer', 'shared', 'vite.config.ts', 'package-lock.json'];
const STAMP = join(ROOT, 'dist/renderer.stamp');
const BUILT = join(ROOT, 'dist/renderer/index.html');

function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true }).flatMap((e) => (e.isDirectory() || e.isFile() ? files(join(path, e.name)) : []));
}

/** A hash of the renderer build's inputs: their paths and contents, in a stable order. */
export function sourceHash(root = ROOT) {
  const hash = createHash('sha256');
  const all = SOURCES.flatMap((s) => files(join(root, s))).sort();
  for (const file of all) {
    hash.update(relative(root, file).split('\\').join('/'));
    hash.update('\0');
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const builtHash = () => createHash('sha256').update(readFileSync(BUILT)).digest('hex');

function main() {
  const check = process.argv.includes('--check');
  const hash = sourceHash();
  const stamp = existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : '';
  if (existsSync(BUILT) && stamp === `${hash} ${builtHash()}`) {
    console.log('Web UI is up to date (dist/renderer); not rebuilding.');
    return 0;
  }
  const why = !existsSync(BUILT) ? 'no build yet' : !stamp ? 'no record of the last build' : 'its sources changed';
  if (check) {
    console.log(`Web UI needs a build (${why}).`);
    return 1;
  }
  console.log(`Building the web UI (${why})…`);
  const vite = join(ROOT, 'node_modules/vite/bin/vite.js');
  const run = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  if (run.status !== 0) return run.status ?? 1;
  writeFileSync(STAMP, `${hash} ${builtHash()}\n`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main();
