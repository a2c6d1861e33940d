import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';

const BROWSER_DIR = resolve('electron/browser');
/** The worker's entry is the platform step's: it loads the engine, whose Node modules are that step's to move. */
const NOT_CHECKED_HERE = new Set(['engineEntry.ts']);

/** Imports leaving electron/browser/ stay unresolved (external), so each file's own imports are what is seen. */
const stopAtTheFolder: Plugin = {
  name: 'stop-at-the-folder',
  setup(builder) {
    builder.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      const inside = args.path.startsWith('.') && resolve(args.resolveDir, args.path).startsWith(BROWSER_DIR);
      return inside ? undefined : { path: args.path, external: true };
    });
  },
};

describe('electron/browser/ runs in a browser', () => {
  it('imports no Node module, no Fastify, no light-my-request and no other package at run time (types only)', async () => {
    const files = readdirSync(BROWSER_DIR).filter((name) => name.endsWith('.ts') && !NOT_CHECKED_HERE.has(name));
    expect(files).toEqual(expect.arrayContaining(['routeHost.ts', 'dispatch.ts', 'query.ts']));
    const result = await build({
      entryPoints: files.map((name) => join(BROWSER_DIR, name)),
      bundle: true, platform: 'browser', format: 'esm', write: false, outdir: 'unused', metafile: true, logLevel: 'silent',
      // The tsconfig's `.js` import suffixes name the `.ts` files.
      resolveExtensions: ['.ts', '.js'],
      plugins: [stopAtTheFolder],
    });
    const imported = Object.values(result.metafile.inputs).flatMap((input) => input.imports.filter((one) => one.external).map((one) => one.path));
    expect(imported).toContain('../engine/http/apiScope.js');
    // What leaves the folder is the engine's and shared/ code (relative paths), never a package or a Node module.
    expect(imported.filter((path) => !path.startsWith('../'))).toEqual([]);
  });
});
