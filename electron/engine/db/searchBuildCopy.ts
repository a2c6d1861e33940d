import type { Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import type { SqliteDb } from './database.js';
import { copySearchIndexesInSql, fillSearchIndexesAside } from './searchBuild.js';
import { reconnectSearchIndexes, SEARCH_BUILD_SCHEMA } from './searchIndexes.js';
import { SEARCH_INDEXES, type SearchIndex } from './searchIndexSql.js';
import { registerSearchFunctions } from './sqlFunctions.js';
import { WasmDatabase, type OoDatabase } from './wasmDatabase.js';

// The browser's search build aside (db/sqlThreads.web.ts): a helper worker builds search indexes from a copy of
// the database while the engine's worker builds the rest; the engine then copies them in.

/** The search indexes of these names, in SEARCH_INDEXES' order. */
export const searchIndexesNamed = (names: readonly string[]): SearchIndex[] => SEARCH_INDEXES.filter(({ fts }) => names.includes(fts));

/**
 * Builds the search indexes named `names` of the database whose file's bytes
 * are `file`, in this thread's WebAssembly memory, and returns the bytes of a
 * database that holds them (for copySearchIndexesIn).
 */
export async function buildSearchIndexesOfCopy(sqlite3: Sqlite3Static, file: Uint8Array, names: readonly string[]): Promise<Uint8Array> {
  const DB = sqlite3.oo1.DB as unknown as new (filename: string, flags: string) => OoDatabase;
  const db = new WasmDatabase(sqlite3, new DB(':memory:', 'c'), { name: ':memory:' });
  try {
    loadBytes(sqlite3, db, 'main', file);
    registerSearchFunctions(db);
    db.exec(`ATTACH ':memory:' AS ${SEARCH_BUILD_SCHEMA}`);
    await fillSearchIndexesAside(db, { indexes: searchIndexesNamed(names) });
    return sqlite3.capi.sqlite3_js_db_export(db.pointer, SEARCH_BUILD_SCHEMA);
  } finally {
    db.close();
  }
}

/**
 * Attaches the database buildSearchIndexesOfCopy made to `db` as `schema`;
 * returns what detaches it again.
 */
export type AttachBuilt = (schema: string) => () => void;

/**
 * Puts the search indexes `indexes` that `attachBuilt` holds in place of
 * `db`'s, in one transaction with `alsoSql`, and has the connection read
 * their structure again (FTS5 keeps it per connection). `db` must let FTS5's
 * shadow tables be written (sqlite-wasm does; better-sqlite3's defensive
 * mode does not).
 */
export function copySearchIndexesIn(db: SqliteDb, attachBuilt: AttachBuilt, indexes: readonly SearchIndex[], alsoSql: string[]): void {
  const detach = attachBuilt(SEARCH_BUILD_SCHEMA);
  try {
    db.transaction(() => {
      for (const sql of [...copySearchIndexesInSql(indexes), ...alsoSql]) db.exec(sql);
    })();
  } finally {
    detach();
  }
  reconnectSearchIndexes(db);
}

/** Makes the in-memory database `schema` of `db` hold `bytes` (a whole database file), which it frees when done. */
export function loadBytes(sqlite3: Sqlite3Static, db: WasmDatabase, schema: string, bytes: Uint8Array, { readonly = false } = {}): void {
  const { capi, wasm } = sqlite3;
  const memory = wasm.allocFromTypedArray(bytes);
  const flags = capi.SQLITE_DESERIALIZE_FREEONCLOSE | (readonly ? capi.SQLITE_DESERIALIZE_READONLY : capi.SQLITE_DESERIALIZE_RESIZEABLE);
  const rc = capi.sqlite3_deserialize(db.pointer, schema, memory, bytes.length, bytes.length, flags);
  if (rc !== 0) throw new Error(`A database could not be loaded into memory: ${capi.sqlite3_js_rc_str(rc) ?? rc}`);
}
