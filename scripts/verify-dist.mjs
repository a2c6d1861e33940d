#!/usr/bin/env node
// `node scripts/verify-dist.mjs [--json] [--keep]`: checks the desktop packaging as
// far as a machine without the Electron runtime and without network can.
//  1. electron-builder.yml passes electron-builder's own validation (its JSON
//     schema, app-builder-lib's validateConfiguration) and says what the app
//     relies on (targets, outpost:// protocol, .vcf association, native rebuild,
//     publish feed, icon);
//  2. the renderer and the main/preload bundles are built (what `npm run build`
//     runs) into a staging copy of the project, so the working tree's dist/ is
//     left alone;
//  3. electron-builder itself packs the staged app for Linux as an unpacked
//     directory (`--dir`): its `files` globs, node_modules collection, app.asar
//     and asarUnpack, with a stand-in for the Electron runtime (the download is
//     what this machine cannot do) and without the native rebuild (it needs
//     Electron's headers from the network). Then app.asar is read back: main.cjs,
//     preload.cjs and the renderer where main.cjs looks for them, better-sqlite3's
//     .node unpacked, every package the main bundle requires present with its
//     dependencies, and nothing else of the project (sources, tests, maps) inside.
//     The .desktop entry the deb and AppImage would get is computed by
//     electron-builder's own LinuxTargetHelper.
// Exits 1 and lists every problem when a check fails. docs/desktop.md, "Building installers",
// says what this does not verify.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

const ROOT = new URL('..', import.meta.url).pathname;
const require = createRequire(import.meta.url);
const CONFIG_FILE = 'electron-builder.yml';

/** Where main.cjs expects its neighbours (electron/main.ts: RENDERER_ROOT, the preload path) and the package's entry. */
export const EXPECTED_FILES = ['package.json', 'dist/electron/main.cjs', 'dist/electron/preload.cjs', 'dist/renderer/index.html'];
/** The only project files (outside node_modules) that belong in app.asar. */
const ALLOWED_APP_FILE = /^(package\.json|dist\/electron\/(main|preload)\.cjs|dist\/renderer\/.+)$/;
const NATIVE_SQLITE = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';
/**
 * The driver's JavaScript and what it requires to find its .node file: a worker thread loads them
 * (electron/engine/db/sqlWorker.ts) from app.asar.unpacked, without counting on asar support in workers.
 */
export const WORKER_DRIVER_FILES = ['node_modules/better-sqlite3/lib/index.js', 'node_modules/bindings/bindings.js', 'node_modules/file-uri-to-path/index.js'];

// ---------------------------------------------------------------- configuration

/** electron-builder's configuration as it loads it (the YAML, merged with its defaults' parents). */
export async function loadConfig(projectDir = ROOT) {
  const { getConfig } = require('app-builder-lib/out/util/config/config.js');
  return quietly(() => getConfig(projectDir, join(projectDir, CONFIG_FILE), null));
}

/** electron-builder's own validation (JSON schema and deprecations); throws its message when invalid. */
export async function validateConfig(config) {
  const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js');
  const { DebugLogger } = require('builder-util');
  await validateConfiguration(structuredClone(config), new DebugLogger(false));
}

const list = (value) => (value == null ? [] : Array.isArray(value) ? value : [value]);
const targetNames = (platform) => list(platform?.target).map((t) => (typeof t === 'string' ? t : t.target).toLowerCase());

/** What the desktop app relies on in the configuration; one sentence per thing missing. */
export function checkConfig(config, projectDir = ROOT) {
  const problems = [];
  const need = (ok, message) => ok || problems.push(message);
  need(config.appId === 'app.outpost.desktop', 'appId is not app.outpost.desktop');
  need(config.productName === 'Outpost', 'productName is not Outpost (the user-data folder is named after it)');
  for (const [platform, targets] of [['linux', ['appimage', 'deb']], ['win', ['nsis']], ['mac', ['dmg']]]) {
    for (const target of targets) need(targetNames(config[platform]).includes(target), `${platform} does not build ${target}`);
  }
  need(list(config.protocols).some((p) => list(p.schemes).includes('outpost')), 'no protocols entry for the outpost scheme');
  need(list(config.fileAssociations).some((f) => list(f.ext).includes('vcf') && f.mimeType === 'text/vcard'), 'no fileAssociations entry for .vcf (text/vcard)');
  need(config.npmRebuild !== false, 'npmRebuild is off: better-sqlite3 would not be rebuilt for Electron');
  need(list(config.asarUnpack).some((p) => p.includes('better-sqlite3')), 'asarUnpack does not keep better-sqlite3 out of app.asar');
  need(list(config.publish).some((p) => (typeof p === 'string' ? p : p?.provider)), 'no publish feed for electron-updater');
  need(config.extraMetadata?.desktopName === 'outpost.desktop', 'extraMetadata.desktopName is not outpost.desktop (the Linux badge and window matching need it)');
  for (const platform of ['linux', 'win', 'mac']) {
    const icon = config[platform]?.icon;
    if (!icon) continue;
    const size = pngSize(join(projectDir, icon));
    need(size !== null && size.width >= 512 && size.height >= 512, `${platform}.icon ${icon} is not a PNG of at least 512×512 (macOS needs 512)`);
  }
  return problems;
}

function pngSize(file) {
  if (!existsSync(file)) return null;
  const bytes = readFileSync(file);
  if (bytes.length < 24 || bytes.toString('latin1', 1, 4) !== 'PNG') return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

// ---------------------------------------------------------------- build and pack

/** A copy of the project with the bundles built into it, sharing node_modules (a symlink). */
function stageProject(stage) {
  for (const file of ['package.json', 'package-lock.json', CONFIG_FILE]) cpSync(join(ROOT, file), join(stage, file));
  cpSync(join(ROOT, 'build'), join(stage, 'build'), { recursive: true });
  // A real copy, not a link: electron-builder asks `npm ls` which packages to pack, and npm
  // reports every nested dependency as missing when node_modules is a link out of the project.
  cpSync(join(ROOT, 'node_modules'), join(stage, 'node_modules'), { recursive: true, verbatimSymlinks: true });
  // The two steps of `npm run build` (build:web, build:electron), aimed at the stage.
  run(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn', '--outDir', join(stage, 'dist/renderer'), '--emptyOutDir']);
  run(process.execPath, [join(ROOT, 'scripts/build-electron.mjs'), '--outdir', join(stage, 'dist/electron')]);
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${args.slice(0, 2).join(' ')} failed:\n${result.stdout}${result.stderr}`);
}

/** Stands in for the Electron runtime electron-builder would download: an executable it can copy and rename. */
function fakeElectronDist(dir) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'electron'), '#!/bin/sh\necho "stand-in for the Electron runtime (scripts/verify-dist.mjs)"\n');
  chmodSync(join(dir, 'electron'), 0o755);
  writeFileSync(join(dir, 'version'), require('electron/package.json').version);
  return dir;
}

/** electron-builder's Linux `dir` target on the staged project; returns the unpacked app, its .desktop entry and electron-builder's warnings. */
async function pack(stage, output) {
  const { build, Platform, Arch } = require('electron-builder');
  const { LinuxTargetHelper } = require('app-builder-lib/out/targets/LinuxTargetHelper.js');
  let desktopEntry = null;
  const warnings = [];
  await quietly(() =>
    build({
      projectDir: stage,
      targets: Platform.LINUX.createTarget('dir', Arch.x64),
      publish: 'never',
      config: {
        electronDist: fakeElectronDist(join(output, 'electron-stand-in')),
        npmRebuild: false,
        directories: { output: join(output, 'release') },
        afterPack: async ({ packager }) => {
          desktopEntry = await new LinuxTargetHelper(packager).computeDesktopEntry(packager.platformSpecificBuildOptions);
        },
      },
    }),
    warnings,
  );
  return { appDir: join(output, 'release/linux-unpacked'), desktopEntry, warnings };
}

/** electron-builder logs every step to stdout: its steps are dropped, its warnings collected for the report (stdout may be JSON). */
async function quietly(action, warnings = []) {
  const { log } = require('builder-util');
  const { info, warn } = log;
  log.info = () => undefined;
  log.warn = (fieldsOrMessage, message) => {
    warnings.push(message === undefined ? String(fieldsOrMessage) : `${message} ${JSON.stringify(fieldsOrMessage)}`);
  };
  try {
    return await action();
  } finally {
    Object.assign(log, { info, warn });
  }
}

// ---------------------------------------------------------------- layout

/** Every file of an asar archive: path (with /) → whether it was left unpacked. */
export function asarEntries(archive) {
  const asar = require('@electron/asar');
  const entries = new Map();
  const walk = (node, prefix) => {
    for (const [name, child] of Object.entries(node.files ?? {})) {
      const path = prefix ? `${prefix}/${name}` : name;
      if (child.files) walk(child, path);
      else entries.set(path, Boolean(child.unpacked));
    }
  };
  walk(asar.getRawHeader(archive).header, '');
  return entries;
}

/** Packages the main process loads by name at run time rather than through the bundle's requires. */
const RUNTIME_PACKAGES = ['electron-updater'];

/** Bare package names a CommonJS bundle requires (not node: built-ins, not electron). */
export function requiredPackages(bundleText) {
  const names = new Set();
  for (const [, specifier] of bundleText.matchAll(/\brequire\("([^"]+)"\)/g)) {
    if (specifier.startsWith('.') || specifier === 'electron' || isBuiltin(specifier)) continue;
    const parts = specifier.split('/');
    names.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
  }
  return [...names].sort();
}

/**
 * The packed app against what it needs at run time. `read(path)` gives a
 * packed file's text. Returns the problems (empty when all is well).
 */
export function checkLayout(entries, read) {
  const problems = [];
  for (const file of EXPECTED_FILES) if (!entries.has(file)) problems.push(`${file} is missing from app.asar`);
  for (const path of entries.keys()) {
    if (path.startsWith('node_modules/')) continue;
    if (!ALLOWED_APP_FILE.test(path) || path.endsWith('.map')) problems.push(`${path} should not be packaged (only the bundles, the built renderer and package.json belong in app.asar)`);
  }
  if (!entries.has(NATIVE_SQLITE)) problems.push(`${NATIVE_SQLITE} is missing`);
  else if (!entries.get(NATIVE_SQLITE)) problems.push(`${NATIVE_SQLITE} is inside app.asar: a native module must be unpacked`);
  for (const file of WORKER_DRIVER_FILES) {
    if (entries.has(file) && !entries.get(file)) problems.push(`${file} is inside app.asar: a worker thread loads the driver from app.asar.unpacked`);
  }
  if (entries.has('package.json')) {
    const pkg = JSON.parse(read('package.json'));
    if (pkg.main !== 'dist/electron/main.cjs') problems.push(`package.json main is ${pkg.main}, not dist/electron/main.cjs`);
  }
  if (entries.has('dist/renderer/index.html')) {
    for (const [, asset] of read('dist/renderer/index.html').matchAll(/(?:src|href)="\/([^"]+)"/g)) {
      if (!entries.has(`dist/renderer/${asset}`)) problems.push(`dist/renderer/index.html refers to /${asset}, which is not packaged`);
    }
  }
  if (entries.has('dist/electron/main.cjs')) problems.push(...checkDependencies(entries, read, requiredPackages(read('dist/electron/main.cjs'))));
  return problems;
}

/** Node's resolution over the archive: each required package, and (transitively) its dependencies, must be found. */
function checkDependencies(entries, read, roots) {
  const problems = [];
  const seen = new Set();
  const queue = roots.map((name) => ({ name, from: '', by: 'dist/electron/main.cjs' }));
  while (queue.length > 0) {
    const { name, from, by } = queue.shift();
    const dir = resolvePackage(entries, from, name);
    if (!dir) {
      problems.push(`${name} (required by ${by}) is not packaged`);
      continue;
    }
    if (seen.has(dir)) continue;
    seen.add(dir);
    const pkg = JSON.parse(read(`${dir}/package.json`));
    const optional = new Set(Object.keys(pkg.optionalDependencies ?? {}));
    for (const dependency of Object.keys(pkg.dependencies ?? {})) {
      if (!optional.has(dependency)) queue.push({ name: dependency, from: dir, by: dir });
    }
  }
  return problems;
}

function resolvePackage(entries, from, name) {
  let dir = from;
  for (;;) {
    const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    if (entries.has(`${candidate}/package.json`)) return candidate;
    if (!dir) return null;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut === -1 ? '' : dir.slice(0, cut);
  }
}

/** The .desktop entry the deb and the AppImage install: the app must be offered for outpost:// links and vCards. */
export function checkDesktopEntry(entry) {
  const problems = [];
  const fields = Object.fromEntries([...entry.matchAll(/^([A-Za-z]+)=(.*)$/gm)].map(([, key, value]) => [key, value]));
  const mime = (fields.MimeType ?? '').split(';');
  if (!mime.includes('x-scheme-handler/outpost')) problems.push('the .desktop MimeType lacks x-scheme-handler/outpost');
  if (!mime.includes('text/vcard')) problems.push('the .desktop MimeType lacks text/vcard');
  if (!/ %U$/.test(fields.Exec ?? '')) problems.push('the .desktop Exec does not pass links and files on (%U)');
  if (fields.Name !== 'Outpost') problems.push('the .desktop Name is not Outpost');
  return { fields, problems };
}

// ---------------------------------------------------------------- main

async function verify({ keep }) {
  const report = { ok: false, config: {}, build: {}, layout: {}, warnings: [], problems: [] };
  const config = await loadConfig();
  await validateConfig(config); // throws electron-builder's own message when the schema is not met
  report.config = { validatedBy: `app-builder-lib ${require('app-builder-lib/package.json').version}`, problems: checkConfig(config) };
  report.problems.push(...report.config.problems);

  mkdirSync(join(ROOT, '.cache'), { recursive: true });
  const work = mkdtempSync(join(ROOT, '.cache/verify-dist-'));
  try {
    const stage = join(work, 'project');
    mkdirSync(stage);
    stageProject(stage);
    report.build = { renderer: existsSync(join(stage, 'dist/renderer/index.html')), main: existsSync(join(stage, 'dist/electron/main.cjs')), preload: existsSync(join(stage, 'dist/electron/preload.cjs')) };
    const { appDir, desktopEntry, warnings } = await pack(stage, work);
    report.warnings = warnings;
    const archive = join(appDir, 'resources/app.asar');
    const entries = asarEntries(archive);
    const asar = require('@electron/asar');
    const read = (path) => asar.extractFile(archive, path).toString('utf8');
    const packed = JSON.parse(read('package.json'));
    const layoutProblems = checkLayout(entries, read);
    // Loaded by name at run time (electron/desktop/autoUpdate.ts), so the bundle's requires do not show it.
    layoutProblems.push(...checkDependencies(entries, read, RUNTIME_PACKAGES));
    const unpackedBinding = join(appDir, 'resources/app.asar.unpacked', NATIVE_SQLITE);
    if (!existsSync(unpackedBinding)) layoutProblems.push(`${NATIVE_SQLITE} is not in app.asar.unpacked`);
    const updateConfig = join(appDir, 'resources/app-update.yml');
    if (!existsSync(updateConfig)) layoutProblems.push('resources/app-update.yml (the update feed) is missing');
    const desktop = checkDesktopEntry(desktopEntry ?? '');
    layoutProblems.push(...desktop.problems);
    const files = [...entries.keys()];
    report.layout = {
      appDir: keep ? appDir : undefined,
      files: files.length,
      appFiles: files.filter((f) => !f.startsWith('node_modules/')).sort(),
      packages: requiredPackages(read('dist/electron/main.cjs')),
      unpacked: files.filter((f) => entries.get(f)).length,
      unpackedDriver: WORKER_DRIVER_FILES.filter((f) => entries.get(f)),
      packageJson: { name: packed.name, productName: packed.productName, main: packed.main, desktopName: packed.desktopName },
      updateFeed: existsSync(updateConfig) ? readFileSync(updateConfig, 'utf8') : null,
      desktopEntry: desktop.fields,
      problems: layoutProblems,
    };
    report.problems.push(...layoutProblems);
  } finally {
    if (!keep) rmSync(work, { recursive: true, force: true });
  }
  report.ok = report.problems.length === 0;
  return report;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { json: { type: 'boolean', default: false }, keep: { type: 'boolean', default: false } } });
  try {
    const report = await verify({ keep: values.keep });
    if (values.json) console.log(JSON.stringify(report, null, 2));
    else if (report.ok) console.log(`Packaging verified: ${report.layout.files} files in app.asar (${report.layout.unpacked} unpacked), configuration valid for ${report.config.validatedBy}.`);
    else console.error(`Packaging problems:\n - ${report.problems.join('\n - ')}`);
    process.exit(report.ok ? 0 : 1);
  } catch (error) {
    if (values.json) console.log(JSON.stringify({ ok: false, problems: [error instanceof Error ? error.message : String(error)] }, null, 2));
    else console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
