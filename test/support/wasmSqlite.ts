import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import sqlite3InitModule, { type Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import type { SqliteConnection } from '../../electron/engine/db/connection.js';
import { setUpOrClose, WasmDatabase, type OoDatabase } from '../../electron/engine/db/wasmDatabase.js';
import { loadBytes } from '../../electron/engine/db/searchBuildCopy.js';
import type * as NodeSide from '../../electron/engine/db/sqliteDriver.js';
import type { SqliteOpenOptions, SqlitePrepareOptions } from '../../electron/engine/db/sqliteDriver.js';

/**
 * The platform's SQLite for the wasm test run (vitest.wasm.config.ts swaps it
 * in for electron/engine/db/sqliteDriver.ts): the browser's adapter
 * (db/wasmDatabase.ts) over SQLite compiled to WebAssembly, in Node. Node has
 * no OPFS, so each database lives in the WebAssembly memory while open: its
 * file's bytes are read in at open and written back at close, so a test that
 * closes and reopens a file, or reads it afterwards with better-sqlite3,
 * finds what was written. Meanwhile the file on disk is stale: what reads it
 * from another connection while the engine runs is excluded from the run.
 */

let sqlite3: Sqlite3Static | null = null;

export async function prepareSqlite(_options: SqlitePrepareOptions = {}): Promise<void> {
  sqlite3 ??= await sqlite3InitModule();
}

/** The bytes of a file a native connection wrote in WAL mode, marked as a rollback-journal file (SQLite's in-memory files have no WAL). */
export function withoutWal(bytes: Uint8Array): Uint8Array {
  if (bytes.length >= 20) {
    bytes[18] = 1;
    bytes[19] = 1;
  }
  return bytes;
}

export function openSqlite(file: string, options: SqliteOpenOptions = {}): SqliteConnection {
  if (!sqlite3) throw new Error('SQLite is not loaded: await prepareSqlite() once before opening a database.');
  const wasm = sqlite3;
  const DB = wasm.oo1.DB as unknown as new (filename: string) => OoDatabase;
  const inMemory = file === ':memory:' || file === '';
  const persist = (db: WasmDatabase) => writeFileSync(file, wasm.capi.sqlite3_js_db_export(db.pointer));
  const db = new WasmDatabase(wasm, new DB(':memory:'), { name: file, readonly: options.readonly, beforeClose: inMemory || options.readonly ? undefined : persist });
  if (!inMemory && existsSync(file)) loadBytes(wasm, db, 'main', withoutWal(new Uint8Array(readFileSync(file))), { readonly: options.readonly });
  return setUpOrClose(db, { pageSize: options.pageSize, journal: 'wal' });
}

({ prepareSqlite, openSqlite }) satisfies Pick<typeof NodeSide, 'prepareSqlite' | 'openSqlite'>;
