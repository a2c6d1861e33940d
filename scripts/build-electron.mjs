#!/usr/bin/env node
// Bundles the Electron main process and the preload into dist/electron/
// (or `--outdir <dir>`, used by the tests).
// The preload runs sandboxed, so it must be one CommonJS file with only
// 'electron' external. The main process keeps the package's dependencies
// external: electron-builder ships node_modules, and better-sqlite3 is native
// (fastify and pino also load some modules dynamically, which bundling breaks).
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const root = new URL('..', import.meta.url).pathname;
const { values } = parseArgs({ options: { outdir: { type: 'string', default: join(root, 'dist/electron') } } });
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// The engine is ES modules; bundled as CommonJS, where import.meta is empty, it finds its own file
// by __filename instead (db/sqlWorker.ts), so esbuild's warning about import.meta is not wanted.
const common = {
  absWorkingDir: root, bundle: true, platform: 'node', format: 'cjs', target: 'node22', sourcemap: true, logLevel: 'warning',
  logOverride: { 'empty-import-meta': 'silent' },
};

try {
  await build({
    ...common,
    entryPoints: ['electron/main.ts'],
    outfile: join(values.outdir, 'main.cjs'),
    external: ['electron', ...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {})],
  });
  await build({
    ...common,
    entryPoints: ['electron/preload.ts'],
    outfile: join(values.outdir, 'preload.cjs'),
    external: ['electron'],
  });
} catch {
  // esbuild has already printed what failed, with file and line.
  process.exit(1);
}
