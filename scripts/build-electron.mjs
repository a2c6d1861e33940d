#!/usr/bin/env node
// Bundles the Electron main process and the preload into dist/electron/.
// The preload runs sandboxed, so it must be one CommonJS file with only
// 'electron' external. The main process keeps the package's dependencies
// external: electron-builder ships node_modules, and better-sqlite3 is native.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const common = { bundle: true, platform: 'node', format: 'cjs', target: 'node22', sourcemap: true, logLevel: 'warning' };

await build({
  ...common,
  entryPoints: ['electron/main.ts'],
  outfile: 'dist/electron/main.cjs',
  external: ['electron', ...Object.keys(pkg.dependencies)],
});
await build({
  ...common,
  entryPoints: ['electron/preload.ts'],
  outfile: 'dist/electron/preload.cjs',
  external: ['electron'],
});
