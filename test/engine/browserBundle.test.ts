import { builtinModules } from 'node:module';
import { relative, resolve } from 'node:path';
import { build, type Metafile, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { esbuildWebPlatform } from '../../scripts/platformVariants.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
// The worker itself: the engine, the replica, and the routes and rules it answers with.
const ENTRY = 'electron/browser/engineWorker.ts';

const NODE_BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

interface Reached {
  module: string;
  importer: string;
  why: 'Node built-in' | 'unresolved';
}

/**
 * Records every import that would not load in a browser (a Node built-in, or
 * one esbuild cannot resolve for the browser) and leaves it out of the bundle,
 * so that one build lists them all.
 */
function nodeOnlyImports(reached: Reached[]): Plugin {
  return {
    name: 'node-only-imports',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === 'resolving') return undefined;
        const importer = relative(ROOT, args.importer);
        if (NODE_BUILTINS.has(args.path)) {
          reached.push({ module: args.path, importer, why: 'Node built-in' });
          return { path: args.path, external: true };
        }
        const resolved = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'resolving' });
        if (resolved.errors.length === 0) return resolved;
        reached.push({ module: args.path, importer, why: 'unresolved' });
        return { path: args.path, external: true };
      });
    },
  };
}

/**
 * Node's globals as the engine's own code would use them (a worker has none of
 * them, and esbuild bundles code that names them without a word). Packages are
 * left out: they test for them (`typeof process`) or name methods so.
 */
const NODE_GLOBALS = /(?<![.\w$])(process\.|Buffer[.(]|setImmediate\(|clearImmediate\(|__dirname|__filename)/;

/** Each line of the engine's code in the bundle that uses one of Node's globals, with its source file. */
function nodeGlobalsUsed(bundle: string): string[] {
  let source = '';
  const found: string[] = [];
  for (const line of bundle.split('\n')) {
    source = /^\/\/ (\S+)$/.exec(line)?.[1] ?? source;
    const code = line.trim();
    const comment = code.startsWith('//') || code.startsWith('/*') || code.startsWith('*');
    // Words in strings are not uses ("Expected a string or Buffer." is Fastify's message, copied).
    const outsideStrings = code.replace(/(['"`])(?:\\.|(?!\1).)*\1/g, '""');
    if (source.startsWith('electron/') && !comment && NODE_GLOBALS.test(outsideStrings)) found.push(`${source}: ${code.slice(0, 160)}`);
  }
  return found;
}

/** The importers from the entry down to `file` (the first path found, breadth first). */
function chainTo(file: string, metafile: Metafile): string[] {
  const importedBy = new Map<string, string>();
  const queue = [ENTRY];
  for (let at = queue.shift(); at !== undefined; at = queue.shift()) {
    if (at === file) break;
    for (const { path } of metafile.inputs[at]?.imports ?? []) {
      if (path in metafile.inputs && path !== ENTRY && !importedBy.has(path)) {
        importedBy.set(path, at);
        queue.push(path);
      }
    }
  }
  const chain = [file];
  for (let at = importedBy.get(file); at !== undefined; at = importedBy.get(at)) chain.unshift(at);
  return chain;
}

describe('the engine bundled for a browser worker', () => {
  it('reaches nothing of Node, modules or globals: every platform module is swapped for its .web.ts side', async () => {
    const reached: Reached[] = [];
    const result = await build({
      absWorkingDir: ROOT,
      entryPoints: [ENTRY],
      bundle: true,
      write: false,
      platform: 'browser',
      format: 'esm',
      metafile: true,
      logLevel: 'silent',
      plugins: [esbuildWebPlatform(), nodeOnlyImports(reached)],
    });
    const report = reached.map(({ module, importer, why }) => `${module} (${why}), imported by ${chainTo(importer, result.metafile).join(' → ')}`);
    expect(report).toEqual([]);
    expect(result.errors).toEqual([]);
    expect(nodeGlobalsUsed(result.outputFiles[0].text)).toEqual([]);
    // The swap happened: the browser's sides are in the bundle, Node's are not.
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs).toContain('electron/engine/platform/crypto.web.ts');
    expect(inputs).not.toContain('electron/engine/platform/crypto.ts');
  });
});
