import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { SqliteConnection } from './connection.js';

/**
 * The engine's SQLite on Node: better-sqlite3, a native build of SQLite. The
 * browser's side is sqlite.web.ts (SQLite compiled to WebAssembly over the
 * Origin Private File System), swapped in by the browser bundle.
 */

/** What the browser side needs to know before its first open (nothing here). */
export interface SqlitePrepareOptions {
  /** The browser's OPFS folder of the pool that holds this engine's databases (one per hub and user). */
  directory?: string;
  /** The pool's VFS name: two pools in one worker need two. */
  poolName?: string;
}

export interface SqliteOpenOptions {
  /** Path of a better-sqlite3 .node build for another ABI (Electron's). */
  nativeBinding?: string;
  readonly?: boolean;
  /** Page size in bytes of a database file created now (SQLite's 4096 if not given); an existing file keeps its own. */
  pageSize?: number;
}

/** Made ready once before the first open: a no-op on Node (the native module loads with its import); the browser's loads WebAssembly. */
export async function prepareSqlite(_options: SqlitePrepareOptions = {}): Promise<void> {}

/** Opens (and creates) `file` in WAL mode, so readers never block the writer. */
export function openSqlite(file: string, options: SqliteOpenOptions = {}): SqliteConnection {
  const db = new Database(file, { nativeBinding: options.nativeBinding, readonly: options.readonly ?? false });
  try {
    // Before WAL mode is set: that writes the new file's header, and with it the page size for good.
    if (options.pageSize !== undefined) db.pragma(`page_size = ${Math.trunc(options.pageSize)}`);
    db.pragma('journal_mode = WAL');
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/**
 * Removes every database file kept in `folder` (closed first): on Node the
 * folder; in the browser the OPFS pool prepareSqlite installed (a sign-out
 * leaves none of the rep's data behind).
 */
export async function removeSqliteFiles(folder: string): Promise<void> {
  rmSync(folder, { recursive: true, force: true });
}
