import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No import circles in the app's code (docs/architecture.md): two files that
 * import each other, however long the way round, are one piece that cannot be
 * read, tested or moved apart. eslint.config.js keeps arrows from running up
 * the layers; this keeps them from running round inside one. Every import
 * counts, `import type`, `export … from` and import() too.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const FOLDERS = ['electron', 'shared', 'renderer'];

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Each file and the files of the tree it imports (relative imports; `.js` names the `.ts` or `.tsx` file). */
function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  return new Map(files.map((file) => {
    const imported = ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles
      .filter(({ fileName }) => fileName.startsWith('.'))
      .map(({ fileName }) => resolve(dirname(file), fileName).replace(/\.js$/, ''))
      .flatMap((base) => [`${base}.ts`, `${base}.tsx`].filter((candidate) => known.has(candidate)));
    return [file, imported];
  }));
}

/** The circles: groups of files each of which reaches every other (Tarjan's strongly connected components). */
function circles(graph: Map<string, string[]>): string[][] {
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string) => {
    order.set(file, order.size);
    low.set(file, order.get(file)!);
    stack.push(file);
    for (const next of graph.get(file)!) {
      if (!order.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (stack.includes(next)) {
        low.set(file, Math.min(low.get(file)!, order.get(next)!));
      }
    }
    if (low.get(file) !== order.get(file)) return;
    const group = stack.splice(stack.indexOf(file));
    if (group.length > 1 || graph.get(file)!.includes(file)) found.push(group.map((f) => relative(ROOT, f)).sort());
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return found;
}

describe('imports', () => {
  it('make no circle in electron/, shared/ or renderer/', () => {
    const graph = importGraph(FOLDERS.flatMap((folder) => sourceFiles(join(ROOT, folder))));
    expect(graph.size).toBeGreaterThan(400);
    expect(circles(graph)).toEqual([]);
  });

  it('are all seen, import type and import() included (a circle of them is found)', () => {
    const a = join(ROOT, 'a.ts');
    const b = join(ROOT, 'b.ts');
    const c = join(ROOT, 'c.ts');
    expect(circles(new Map([[a, [b]], [b, [c]], [c, [a]]]))).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    const kinds = ts.preProcessFile("import type { A } from './a.js'; export * from './b.js'; const c = () => import('./c.js');", true, true);
    expect(kinds.importedFiles.map((f) => f.fileName)).toEqual(['./a.js', './b.js', './c.js']);
  });
});
