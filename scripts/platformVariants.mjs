// The browser side of the engine's platform seams (docs/architecture.md, "Platform seams").
//
// A module that differs between Node and the browser lives in electron/engine/platform/<name>.ts (what Node, tsc
// and vitest load) with a sibling <name>.web.ts exporting the same names. A browser bundle swaps the first for the
// second with one of the plugins below; everything else resolves as usual.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Compared with forward slashes: Vite names files so on every system, esbuild with the system's separator. */
const PLATFORM_FOLDER = '/electron/engine/platform/';

/**
 * The `.web.ts` sibling of a platform module, or null. `absolutePath` is the module's file or the `.js` spelling an
 * import uses (`…/platform/crypto.js`); files outside electron/engine/platform/ and web sides themselves have none.
 */
export function webVariantOf(absolutePath) {
  if (!absolutePath.replaceAll('\\', '/').includes(PLATFORM_FOLDER)) return null;
  const match = /^(.*)\.(?:ts|js)$/.exec(absolutePath);
  if (!match || match[1].endsWith('.web')) return null;
  const web = `${match[1]}.web.ts`;
  return existsSync(web) ? web : null;
}

function webVariantOfImport(specifier, importer) {
  if (!importer || !(specifier.startsWith('./') || specifier.startsWith('../'))) return null;
  return webVariantOf(resolve(dirname(importer), specifier));
}

/** esbuild: relative imports of a platform module resolve to its `.web.ts` side when it has one. */
export function esbuildWebPlatform() {
  return {
    name: 'outpost-web-platform',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        const web = webVariantOfImport(args.path, args.importer);
        return web ? { path: web } : undefined;
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
      return webVariantOfImport(source, importer ? importer.split('?')[0] : importer);
    },
  };
}
