import sqlite3InitModule, { type Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import type { SqliteConnection } from './connection.js';
import { setUpOrClose, WasmDatabase, type OoDatabase } from './wasmDatabase.js';
import type * as NodeSide from './sqliteDriver.js';
import type { SqliteOpenOptions, SqlitePrepareOptions } from './sqliteDriver.js';

/**
 * The engine's SQLite in the browser: SQLite compiled to WebAssembly
 * (@sqlite.org/sqlite-wasm) in the engine's dedicated worker, its files in the
 * Origin Private File System through the opfs-sahpool VFS (synchronous access
 * handles: no SharedArrayBuffer, no COOP/COEP headers). Everything but
 * loading and the pool is db/wasmDatabase.ts, which the Node tests run too.
 */

/** The pool's VFS name unless told otherwise. */
const POOL = 'outpost';

/** The parts of sqlite-wasm's pool (SAHPoolUtil) used here; importDb is synchronous when given bytes. */
interface Pool {
  removeVfs(): Promise<boolean>;
  exportFile(name: string): Uint8Array;
  importDb(name: string, bytes: Uint8Array): unknown;
  unlink(name: string): boolean;
}

let sqlite: { sqlite3: Sqlite3Static; vfs: string; pool: Pool } | null = null;

/** Loads the WebAssembly and installs the OPFS pool (async, once): the opening that follows stays synchronous. */
export async function prepareSqlite(options: SqlitePrepareOptions = {}): Promise<void> {
  if (sqlite) return;
  const sqlite3 = await sqlite3InitModule();
  const vfs = options.poolName ?? POOL;
  const pool = await sqlite3.installOpfsSAHPoolVfs({ name: vfs, directory: options.directory });
  sqlite = { sqlite3, vfs, pool };
}

/**
 * Opens (and creates) `file` in the pool (an absolute name, `/outpost/<user>.sqlite3`).
 * One connection holds it, with a rollback journal (setUpWasmConnection): one
 * connection has no readers for WAL to spare, and WAL writes every page twice
 * (to the log, then to the file). On a browser profile the two measured alike
 * (a first sync of 15 000 records in 1.5–2.2 s with either, three runs each);
 * in a private window, where each file access is a round trip to the browser
 * process, WAL made that sync's end take 5.1 s instead of 3.2 s.
 */
export function openSqlite(file: string, options: SqliteOpenOptions = {}): SqliteConnection {
  const { sqlite3, vfs } = loaded();
  const DB = sqlite3.oo1.DB as unknown as new (options: { filename: string; flags: string; vfs: string }) => OoDatabase;
  const db = new WasmDatabase(sqlite3, new DB({ filename: file, flags: options.readonly ? 'r' : 'c', vfs }), { name: file, readonly: options.readonly });
  return setUpOrClose(db, { pageSize: options.pageSize, journal: 'truncate' });
}

/** A copy of the database file `file` of the pool as it is now (committed: its journal is a rollback journal). */
export function databaseFileBytes(file: string): Uint8Array {
  return loaded().pool.exportFile(file);
}

/**
 * Puts `bytes` (a whole database file) in the pool as `file`, replacing a
 * file of that name, and returns the name ATTACH opens it by.
 */
export function putDatabaseFile(file: string, bytes: Uint8Array): string {
  const { pool, vfs } = loaded();
  pool.importDb(file, bytes);
  return `file:${file}?vfs=${vfs}`;
}

/** Removes the pool's file `file`, if it has one (closed). */
export function removeDatabaseFile(file: string): void {
  loaded().pool.unlink(file);
}

function loaded(): NonNullable<typeof sqlite> {
  if (!sqlite) throw new Error('SQLite is not loaded: await prepareSqlite() once before opening a database.');
  return sqlite;
}

/**
 * Removes the pool: its OPFS folder with every database in it (their
 * connections closed first); the next prepareSqlite installs an empty one.
 */
export async function removeSqliteFiles(_folder: string): Promise<void> {
  if (!sqlite) return;
  await sqlite.pool.removeVfs();
  sqlite = null;
}

// Fails the type check when this side's exports drift from the Node side's.
({ prepareSqlite, openSqlite, removeSqliteFiles }) satisfies Pick<typeof NodeSide, 'prepareSqlite' | 'openSqlite' | 'removeSqliteFiles'>;
