/**
 * The shapes of a connection and its statements as the engine uses them
 * (better-sqlite3's, which the other backends copy): a module of types only,
 * imported by the platform's SQLite (db/sqliteDriver.ts), the wasm adapter
 * and database.ts, which re-exports them.
 */

/** A statement as the engine uses one, on either backend (better-sqlite3's, or PostgresStatement). */
export interface Statement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  /** Rows as their first column's value. */
  pluck(on?: boolean): this;
  /** Rows as arrays of values. */
  raw(on?: boolean): this;
  /** Integers as BigInt (sums of money in cents, exact past 2^53). */
  safeIntegers(on?: boolean): this;
}

/** A function a transaction runs. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- better-sqlite3's own constraint (VariableArgFunction)
export type TransactionWork = (...params: any[]) => unknown;

// Spelled as better-sqlite3 spells it (not Parameters<F>), so its transactions fit this type.
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type ArgumentTypes<F extends Function> = F extends (...args: infer A) => unknown ? A : never;

/** A function run in a transaction (better-sqlite3's shape): called as is, or `.immediate` to take the write lock first. */
export interface Transaction<F extends TransactionWork> {
  (...params: ArgumentTypes<F>): ReturnType<F>;
  immediate(...params: ArgumentTypes<F>): ReturnType<F>;
  deferred(...params: ArgumentTypes<F>): ReturnType<F>;
}

/** A statement of a SQLite connection: what `Statement` has, and stepping through rows one at a time. */
export interface SqliteStatement extends Statement {
  iterate(...params: unknown[]): IterableIterator<unknown>;
  /** The result's columns (their names), without running the statement. */
  columns(): { name: string }[];
}

export interface SqliteFunctionOptions {
  /** The same arguments always give the same result (SQLite may call it once for a constant expression). */
  deterministic?: boolean;
  /** Any number of arguments; otherwise as many as the function declares. */
  varargs?: boolean;
}

/**
 * What the engine uses of a SQLite connection, on either platform: a
 * better-sqlite3 connection has it as is (Node: db/sqliteDriver.ts); a
 * connection of SQLite compiled to WebAssembly has it through
 * db/wasmDatabase.ts (the browser: db/sqliteDriver.web.ts).
 */
export interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
  transaction<F extends TransactionWork>(fn: F): Transaction<F>;
  /** Statements without parameters, separated by semicolons. */
  exec(sql: string): unknown;
  readonly inTransaction: boolean;
  close(): unknown;
  /** `PRAGMA source`: its rows, or with `simple` the first row's first value. */
  pragma(source: string, options?: { simple?: boolean }): unknown;
  /** Registers a JavaScript function SQL can call. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a function of any arguments, as better-sqlite3 types it
  function(name: string, options: SqliteFunctionOptions, fn: (...args: any[]) => unknown): this;
  /** The database file's path (or the browser's pool file name). */
  readonly name: string;
  readonly open: boolean;
}

