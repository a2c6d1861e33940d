import type * as NodeSide from './files.js';
import type { DocumentContents } from './files.js';

/**
 * The data folder in the browser (files.ts is Node's). The database is a file
 * of the Origin Private File System's pool, named by its path, and nothing
 * else is kept beside it: documents' bytes go into a table of the database
 * (resources/documentContents.ts), so wiping the pool wipes everything.
 */

/** Nothing to create: the pool's names are flat, a folder is only part of a name. */
export function makeFolder(_folder: string): void {}

export function pathIn(folder: string, name: string): string {
  return `${folder.replace(/\/+$/, '')}/${name}`;
}

/** Nothing to remove: the only files asked for (a first sync's search build aside) are made by Node's worker alone. */
export function removeFileIfAny(_file: string): void {}

export function documentFolder(_folder: string): DocumentContents | null {
  return null;
}

// Fails the type check when this side drifts from Node's.
({ makeFolder, pathIn, removeFileIfAny, documentFolder }) satisfies typeof NodeSide;
