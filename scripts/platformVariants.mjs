// The browser side of the engine's platform seams (docs/architecture.md, "Platform seams").
//
// A module that differs between Node and the browser is <name>.ts (what Node, tsc and vitest load) with a sibling
// <name>.web.ts exporting the same names: the ground's seams in electron/engine/platform/, and the few that stand on
// a floor of their own (db/sqliteDriver.ts, db/sqlThreads.ts, hubOnly.ts). A browser bundle swaps the first for the
// second with one of the plugins below; everything else resolves as usual.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';

const require = createRequire(import.meta.url);

/**
 * Packages whose main build needs Node's Buffer at load, and the browser build they ship for the same API
 * (with a Buffer of their own inside).
 */
export const BROWSER_BUILDS = {
  'csv-parse/sync': 'csv-parse/browser/esm/sync',
  'csv-stringify/sync': 'csv-stringify/browser/esm/sync',
};

/** The file of a package's browser build, for an import a browser bundle must not take from its Node build; else null. */
export function browserBuildOf(specifier) {
  const build = BROWSER_BUILDS[specifier];
  return build ? require.resolve(build) : null;
}

/** Compared with forward slashes: Vite names files so on every system, esbuild with the system's separator. */
const SOURCES = '/electron/';

/**
 * The `.web.ts` sibling of a module of electron/, or null. `absolutePath` is the module's file or the `.js` spelling
 * an import uses (`…/platform/crypto.js`); modules without a sibling, outside electron/, and web sides have none.
 */
export function webVariantOf(absolutePath) {
  if (!absolutePath.replaceAll('\\', '/').includes(SOURCES) || absolutePath.includes('node_modules')) return null;
  const match = /^(.*)\.(?:ts|js)$/.exec(absolutePath);
  if (!match || match[1].endsWith('.web')) return null;
  const web = `${match[1]}.web.ts`;
  return existsSync(web) ? web : null;
}

function webVariantOfImport(specifier, importer) {
  if (!importer || !(specifier.startsWith('./') || specifier.startsWith('../'))) return null;
  return webVariantOf(resolve(dirname(importer), specifier));
}

/** esbuild: relative imports of a module with a `.web.ts` side resolve to it; packages to their browser build. */
export function esbuildWebPlatform() {
  return {
    name: 'outpost-web-platform',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        const web = webVariantOfImport(args.path, args.importer);
        return web ? { path: web } : undefined;
      });
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        const browserBuild = browserBuildOf(args.path);
        return browserBuild ? { path: browserBuild } : undefined;
      });
    },
  };
}

/** Vite / Rollup: the same swap, before Vite's own resolution. */
export function viteWebPlatform() {
  return {
    name: 'outpost-web-platform',
    enforce: 'pre',
    resolveId(source, importer) {
      return browserBuildOf(source) ?? webVariantOfImport(source, importer ? importer.split('?')[0] : importer);
    },
  };
}
