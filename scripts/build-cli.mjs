#!/usr/bin/env node
// Builds the `outpost` command (electron/engine/cli.ts: the hub and every other command) and the program of
// a PostgreSQL hub node's engine workers (electron/engine/http/engineWorker.ts) to JavaScript, into dist/cli/,
// so that a start runs JavaScript and compiles nothing: compiling the TypeScript at every start took
// seconds. bin/outpost.mjs makes this build when it is missing or its sources changed
// (scripts/buildStamp.mjs; the record is dist/cli.stamp), so nobody has to run it by hand; run alone
// (`npm run build:cli`), it builds unconditionally.
//
// ES modules with code splitting: what cli.ts imports lazily (the HTTP stack for `serve`, the demo-data
// generator for `seed`) stays a chunk of its own, loaded only by the commands that need it. Every package
// stays external, loaded from node_modules as Node resolves it: the native ones (better-sqlite3, the
// optional native/pqsync) could not be bundled, and fastify and pino load some modules dynamically.
// Every file lands in dist/cli/ itself, so a module finds its neighbours (engineWorker.mjs) and the
// project's root (two folders up, as from electron/engine/) by its own URL.
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { staleness, writeStamp } from './buildStamp.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT_DIR = join(ROOT, 'dist/cli');
const STAMP = join(ROOT, 'dist/cli.stamp');
const ENTRY = join(OUT_DIR, 'cli.mjs');
/** Files that shape the build besides the sources esbuild reads (which it lists itself). */
const SETTINGS = ['scripts/build-cli.mjs', 'package.json', 'tsconfig.json'];
/**
 * Files of an earlier build (and a crashed build's temporary files) are removed only once this old: a command
 * started from that build a moment ago may still be importing them, and another build may be writing its own.
 */
const KEEP_OLD_FILES_MS = 60 * 60_000;

/** Why the build must be made (again), or null when dist/cli/ is current. */
export function cliStaleness() {
  return staleness(ROOT, STAMP);
}

/**
 * Builds dist/cli/. Several commands may find the build stale at once (the tests start many): each file is
 * written to a temporary name and renamed, the chunks before the modules that import them and the stamp
 * last, so a command never loads half a file; builders of the same sources write the same files.
 */
export async function buildCli() {
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    throw new Error('the outpost command is built from its TypeScript sources into dist/cli/ by esbuild, which is not installed: run npm install (with its dev dependencies), or copy a dist/cli/ built elsewhere');
  }
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: { cli: 'electron/engine/cli.ts', engineWorker: 'electron/engine/http/engineWorker.ts' },
    outdir: OUT_DIR,
    outExtension: { '.js': '.mjs' },
    chunkNames: '[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    packages: 'external',
    // Stack traces name the TypeScript files when Node runs with --enable-source-maps.
    sourcemap: 'linked',
    metafile: true,
    write: false,
    logLevel: 'warning',
  });
  mkdirSync(OUT_DIR, { recursive: true });
  const entries = new Set(['cli.mjs', 'engineWorker.mjs'].map((name) => join(OUT_DIR, name)));
  const ordered = [...result.outputFiles].sort((a, b) => Number(entries.has(a.path)) - Number(entries.has(b.path)));
  for (const file of ordered) {
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, file.contents);
    renameSync(temporary, file.path);
  }
  const written = new Set(result.outputFiles.map((file) => file.path));
  for (const name of readdirSync(OUT_DIR)) {
    const path = join(OUT_DIR, name);
    if (!written.has(path) && Date.now() - statSync(path, { throwIfNoEntry: false })?.mtimeMs > KEEP_OLD_FILES_MS) rmSync(path, { force: true });
  }
  const inputs = [...Object.keys(result.metafile.inputs), ...SETTINGS].sort();
  const outputs = [...written].map((path) => relative(ROOT, path).split('\\').join('/')).sort();
  mkdirSync(dirname(STAMP), { recursive: true });
  writeStamp(ROOT, STAMP, { inputs, outputs });
}

/**
 * The URL of the built command's module, building it first when it is missing or stale. A build is
 * announced on stderr only at a terminal: scripts and tests read the command's output streams.
 */
export async function builtCli() {
  const why = cliStaleness();
  if (why !== null) {
    if (process.stderr.isTTY) process.stderr.write(`Building the outpost command into dist/cli/ (${why})…\n`);
    await buildCli();
  }
  return pathToFileURL(ENTRY).href;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    await buildCli();
  } catch (err) {
    // esbuild has already printed what failed, with file and line.
    if (!(err && Array.isArray(err.errors))) console.error(`build-cli: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  }
}
