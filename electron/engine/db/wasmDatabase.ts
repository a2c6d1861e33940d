import type { Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import type { SqliteConnection, SqliteFunctionOptions, SqliteStatement, Transaction, TransactionWork } from './connection.js';

/**
 * A connection of SQLite compiled to WebAssembly (@sqlite.org/sqlite-wasm) that
 * behaves as the engine uses better-sqlite3: the same statements, results,
 * bindings, transactions and error codes, synchronously, so no engine code
 * knows which it runs on. It reaches SQLite's C API (`capi`) directly for
 * statements: the oo1 layer's per-call bookkeeping and its console warnings
 * on every failed step are not wanted on the engine's hot paths.
 */

/** The parts of the WebAssembly build this adapter calls (sqlite-wasm's own typings are stricter than useful here). */
interface Capi {
  sqlite3_bind_parameter_count(stmt: number): number;
  sqlite3_bind_parameter_name(stmt: number, index: number): string | null;
  sqlite3_bind_null(stmt: number, index: number): number;
  sqlite3_bind_double(stmt: number, index: number, value: number): number;
  sqlite3_bind_int64(stmt: number, index: number, value: bigint): number;
  sqlite3_bind_text(stmt: number, index: number, text: number, length: number, destructor: number): number;
  sqlite3_bind_blob(stmt: number, index: number, bytes: number, length: number, destructor: number): number;
  sqlite3_bind_zeroblob(stmt: number, index: number, length: number): number;
  readonly SQLITE_WASM_DEALLOC: number;
  sqlite3_clear_bindings(stmt: number): number;
  sqlite3_step(stmt: number): number;
  sqlite3_reset(stmt: number): number;
  sqlite3_column_count(stmt: number): number;
  sqlite3_column_name(stmt: number, index: number): string;
  sqlite3_column_type(stmt: number, index: number): number;
  sqlite3_column_double(stmt: number, index: number): number;
  sqlite3_column_int64(stmt: number, index: number): bigint;
  sqlite3_column_text(stmt: number, index: number): string;
  sqlite3_column_blob(stmt: number, index: number): number;
  sqlite3_column_bytes(stmt: number, index: number): number;
  sqlite3_changes(db: number): number;
  sqlite3_total_changes(db: number): number;
  sqlite3_last_insert_rowid(db: number): bigint;
  sqlite3_get_autocommit(db: number): number;
  sqlite3_extended_errcode(db: number): number;
  sqlite3_errmsg(db: number): string;
  sqlite3_exec(db: number, sql: string, callback: 0, arg: 0, errmsg: 0): number;
  sqlite3_js_rc_str(code: number): string | undefined;
}

/** The WebAssembly memory: values copied in for SQLite, which frees them (SQLITE_WASM_DEALLOC); results read out. */
interface Memory {
  allocCString(text: string, withLength: true): [number, number];
  allocFromTypedArray(bytes: Uint8Array): number;
  heap8u(): Uint8Array;
}

/** sqlite-wasm's oo1 statement, used only to compile and to finalize (it tracks its statements so `close` can end them). */
interface OoStatement {
  readonly pointer: number | undefined;
  finalize(): unknown;
}

/** sqlite-wasm's oo1 connection, as this adapter uses it. */
export interface OoDatabase {
  readonly pointer: number | undefined;
  prepare(sql: string): OoStatement;
  createFunction(name: string, fn: (context: number, ...args: unknown[]) => unknown, options: { arity: number; deterministic: boolean }): unknown;
  close(): void;
}

const SQLITE_ROW = 100;
const SQLITE_DONE = 101;
const SQLITE_INTEGER = 1;
const SQLITE_FLOAT = 2;
const SQLITE_TEXT = 3;
const SQLITE_BLOB = 4;
const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/** An SQLite error as better-sqlite3 raises it: SQLite's message, and `code` its extended result code's name (SQLITE_CONSTRAINT_UNIQUE). */
export class WasmSqliteError extends Error {
  override readonly name = 'SqliteError';
  constructor(message: string, readonly code: string) {
    super(message);
  }
}

/** Blobs as Node's Buffer where there is one (what better-sqlite3 returns, and what Node code compares), else bytes. */
const asBlob = (bytes: Uint8Array): Uint8Array => {
  const NodeBuffer = (globalThis as { Buffer?: { from(bytes: Uint8Array): Uint8Array } }).Buffer;
  return NodeBuffer ? NodeBuffer.from(bytes) : bytes;
};

/** A compiled statement and the names of its parameters (null for `?`), shared by every Statement of its SQL. */
interface Compiled {
  readonly statement: OoStatement;
  readonly pointer: number;
  readonly parameters: (string | null)[];
  /** Stepping now (in an iterate() loop, or a function called from a step): another use needs its own copy. */
  busy: boolean;
  /** Not in the connection's cache (a copy, or evicted while busy): finalized when done. */
  temporary: boolean;
}

export interface WasmConnectionOptions {
  /** The database's name as the engine sees it (`db.name`: a path, or the OPFS pool's file name). */
  name: string;
  readonly?: boolean;
  /** Runs before the connection closes, on the open connection (the Node test side writes the file out there). */
  beforeClose?: (db: WasmDatabase) => void;
}

/** Compiled statements kept per connection; the engine's own caches (db/statements.ts) hold up to 500 texts. */
const MAX_COMPILED = 1000;

export class WasmDatabase implements SqliteConnection {
  readonly name: string;
  readonly readonly: boolean;
  readonly memory: boolean;
  private readonly capi: Capi;
  private readonly wasm: Memory;
  private readonly compiled = new Map<string, Compiled>();
  /** The JavaScript error a user function threw during the current step: thrown as is, as better-sqlite3 does. */
  private functionError: unknown = undefined;
  private closed = false;

  constructor(sqlite3: Sqlite3Static, readonly ooDb: OoDatabase, private readonly options: WasmConnectionOptions) {
    this.capi = sqlite3.capi as unknown as Capi;
    this.wasm = sqlite3.wasm as unknown as Memory;
    this.name = options.name;
    this.readonly = options.readonly ?? false;
    this.memory = options.name === ':memory:' || options.name === '';
  }

  get open(): boolean {
    return !this.closed;
  }

  get inTransaction(): boolean {
    return !this.closed && this.capi.sqlite3_get_autocommit(this.pointer) === 0;
  }

  /** The sqlite3* of the open connection. */
  get pointer(): number {
    const pointer = this.ooDb.pointer;
    if (this.closed || !pointer) throw new TypeError('The database connection is not open');
    return pointer;
  }

  prepare(sql: string): SqliteStatement {
    const compiled = this.acquire(sql);
    const reader = this.capi.sqlite3_column_count(compiled.pointer) > 0;
    this.release(compiled);
    return new WasmStatement(this, sql, reader);
  }

  exec(sql: string): this {
    this.functionError = undefined;
    const rc = this.capi.sqlite3_exec(this.pointer, sql, 0, 0, 0);
    if (rc !== 0) throw this.failure(rc);
    return this;
  }

  pragma(source: string, options: { simple?: boolean } = {}): unknown {
    // Read as a query even when it returns nothing (`page_size = 4096`), as better-sqlite3's pragma() does.
    const statement = new WasmStatement(this, `PRAGMA ${source}`, true);
    return options.simple ? statement.pluck().get() : statement.all();
  }

  function(name: string, options: SqliteFunctionOptions, fn: (...args: never[]) => unknown): this {
    const arity = options.varargs ? -1 : fn.length;
    const call = (_context: number, ...args: unknown[]): unknown => {
      try {
        const result = (fn as (...values: unknown[]) => unknown)(...args.map((arg) => (arg instanceof Uint8Array ? asBlob(arg) : arg)));
        return checkedResult(name, result);
      } catch (err) {
        this.functionError ??= err;
        throw err;
      }
    };
    this.ooDb.createFunction(name, call, { arity, deterministic: options.deterministic ?? false });
    return this;
  }

  transaction<F extends TransactionWork>(fn: F): Transaction<F> {
    // A function, not an arrow: the transaction passes on the `this` it is called with, as better-sqlite3's does.
    const as = (db: WasmDatabase, begin: string) =>
      function (this: unknown, ...params: unknown[]) {
        return inTransaction(db, begin, () => fn.apply(this, params));
      };
    return Object.assign(as(this, 'BEGIN'), {
      deferred: as(this, 'BEGIN DEFERRED'),
      immediate: as(this, 'BEGIN IMMEDIATE'),
      exclusive: as(this, 'BEGIN EXCLUSIVE'),
    }) as unknown as Transaction<F>;
  }

  close(): this {
    if (this.closed) return this;
    this.options.beforeClose?.(this);
    for (const compiled of this.compiled.values()) compiled.statement.finalize();
    this.compiled.clear();
    this.closed = true;
    this.ooDb.close();
    return this;
  }

  /** A compiled statement of `sql` free to step: the cached one, or a copy if that one is stepping now. */
  acquire(sql: string): Compiled {
    const cached = this.compiled.get(sql);
    if (cached && !cached.busy) {
      // Least recently used first in the map's order.
      this.compiled.delete(sql);
      this.compiled.set(sql, cached);
      cached.busy = true;
      return cached;
    }
    const fresh = this.compile(sql, cached !== undefined);
    if (!cached) this.remember(sql, fresh);
    fresh.busy = true;
    return fresh;
  }

  /** Ends a use of `compiled`: reset with its bindings cleared (locks released, no values kept), a copy finalized. */
  release(compiled: Compiled): void {
    // Closed meanwhile (by the work itself): closing finalized every statement, this one too.
    if (this.closed) return;
    this.capi.sqlite3_reset(compiled.pointer);
    this.capi.sqlite3_clear_bindings(compiled.pointer);
    compiled.busy = false;
    if (compiled.temporary) compiled.statement.finalize();
  }

  /** Steps once: whether a row is there; throws the statement's error (a user function's own, if it threw). */
  step(compiled: Compiled): boolean {
    this.functionError = undefined;
    const rc = this.capi.sqlite3_step(compiled.pointer);
    if (rc === SQLITE_ROW) return true;
    if (rc === SQLITE_DONE) return false;
    throw this.failure(rc);
  }

  bind(compiled: Compiled, params: unknown[]): void {
    const { anonymous, named } = parameterValues(params);
    let next = 0;
    compiled.parameters.forEach((name, at) => {
      let value: unknown;
      if (name === null || name.startsWith('?')) {
        if (next >= anonymous.length) throw new RangeError('Too few parameter values were provided');
        value = anonymous[next++];
      } else {
        const key = name.slice(1);
        if (named === undefined) throw new RangeError('Too few parameter values were provided');
        if (!Object.hasOwn(named, key)) throw new RangeError(`Missing named parameter "${key}"`);
        value = named[key];
      }
      this.bindValue(compiled.pointer, at + 1, value);
    });
    if (next < anonymous.length) throw new RangeError('Too many parameter values were provided');
  }

  /** The current row: an object by column name, the first value (pluck), or the values in order (raw). */
  row(pointer: number, columns: string[], mode: RowMode, safeIntegers: boolean): unknown {
    if (mode === 'pluck') return this.column(pointer, 0, safeIntegers);
    if (mode === 'raw') return columns.map((_, at) => this.column(pointer, at, safeIntegers));
    const row: Record<string, unknown> = {};
    columns.forEach((name, at) => (row[name] = this.column(pointer, at, safeIntegers)));
    return row;
  }

  columnNames(pointer: number): string[] {
    const names: string[] = [];
    for (let at = 0, count = this.capi.sqlite3_column_count(pointer); at < count; at++) names.push(this.capi.sqlite3_column_name(pointer, at));
    return names;
  }

  /** What a write did, as better-sqlite3 tells it: no changes counted for a statement that changed nothing (its count is the last write's). */
  runResult(changesBefore: number, safeIntegers: boolean): { changes: number; lastInsertRowid: number | bigint } {
    const db = this.pointer;
    const changes = this.capi.sqlite3_total_changes(db) === changesBefore ? 0 : this.capi.sqlite3_changes(db);
    const rowid = this.capi.sqlite3_last_insert_rowid(db);
    return { changes, lastInsertRowid: safeIntegers ? rowid : Number(rowid) };
  }

  totalChanges(): number {
    return this.capi.sqlite3_total_changes(this.pointer);
  }

  private column(pointer: number, at: number, safeIntegers: boolean): unknown {
    switch (this.capi.sqlite3_column_type(pointer, at)) {
      case SQLITE_INTEGER:
        return safeIntegers ? this.capi.sqlite3_column_int64(pointer, at) : this.capi.sqlite3_column_double(pointer, at);
      case SQLITE_FLOAT:
        return this.capi.sqlite3_column_double(pointer, at);
      case SQLITE_TEXT:
        return this.capi.sqlite3_column_text(pointer, at);
      case SQLITE_BLOB: {
        // Read the pointer before the length, as SQLite's documentation asks.
        const start = this.capi.sqlite3_column_blob(pointer, at);
        const length = this.capi.sqlite3_column_bytes(pointer, at);
        return asBlob(this.wasm.heap8u().slice(start, start + length));
      }
      default:
        return null;
    }
  }

  private bindValue(pointer: number, index: number, value: unknown): void {
    let rc: number;
    if (value === null || value === undefined) rc = this.capi.sqlite3_bind_null(pointer, index);
    // Numbers as doubles, as better-sqlite3 binds them (a column's INTEGER affinity stores 1.0 as 1).
    else if (typeof value === 'number') rc = this.capi.sqlite3_bind_double(pointer, index, value);
    else if (typeof value === 'bigint') {
      if (value > INT64_MAX || value < INT64_MIN) throw new RangeError('The bound string, buffer, or bigint is too big');
      rc = this.capi.sqlite3_bind_int64(pointer, index, value);
    } else if (typeof value === 'string') {
      // Copied into WebAssembly memory here, freed by SQLite (capi's own string path fails in 3.54.1: "pMem is not defined").
      const [text, length] = this.wasm.allocCString(value, true);
      rc = this.capi.sqlite3_bind_text(pointer, index, text, length, this.capi.SQLITE_WASM_DEALLOC);
    } else if (value instanceof Uint8Array) {
      rc = value.byteLength === 0
        ? this.capi.sqlite3_bind_zeroblob(pointer, index, 0)
        // A plain view of the bytes: the copy refuses Node's Buffer (a subclass of Uint8Array).
        : this.capi.sqlite3_bind_blob(pointer, index, this.wasm.allocFromTypedArray(new Uint8Array(value.buffer, value.byteOffset, value.byteLength)), value.byteLength, this.capi.SQLITE_WASM_DEALLOC);
    } else throw new TypeError('SQLite3 can only bind numbers, strings, bigints, buffers, and null');
    // (sqlite-wasm's bind_null answers undefined.)
    if (rc) throw this.failure(rc);
  }

  private compile(sql: string, temporary: boolean): Compiled {
    let statement: OoStatement;
    try {
      statement = this.ooDb.prepare(sql);
    } catch (err) {
      if (this.closed || !this.ooDb.pointer) throw new TypeError('The database connection is not open');
      if (this.capi.sqlite3_extended_errcode(this.pointer) === 0) throw new RangeError(`The supplied SQL string contains no statements (${(err as Error).message})`);
      throw this.failure();
    }
    const pointer = statement.pointer!;
    const parameters: (string | null)[] = [];
    for (let at = 1, count = this.capi.sqlite3_bind_parameter_count(pointer); at <= count; at++) parameters.push(this.capi.sqlite3_bind_parameter_name(pointer, at));
    return { statement, pointer, parameters, busy: false, temporary };
  }

  private remember(sql: string, compiled: Compiled): void {
    if (this.compiled.size >= MAX_COMPILED) {
      const [oldestSql, oldest] = this.compiled.entries().next().value as [string, Compiled];
      this.compiled.delete(oldestSql);
      // A statement stepping now is finalized when its use ends.
      if (oldest.busy) oldest.temporary = true;
      else oldest.statement.finalize();
    }
    this.compiled.set(sql, compiled);
  }

  /** The connection's last error (`rc` if it has none) as better-sqlite3 raises it (a user function's own error, if one threw). */
  private failure(rc?: number): unknown {
    if (this.functionError !== undefined) {
      const err = this.functionError;
      this.functionError = undefined;
      return err;
    }
    const db = this.pointer;
    const code = this.capi.sqlite3_extended_errcode(db) || rc || 1;
    return new WasmSqliteError(this.capi.sqlite3_errmsg(db), this.capi.sqlite3_js_rc_str(code) ?? `SQLITE_UNKNOWN_${code}`);
  }
}

type RowMode = 'object' | 'pluck' | 'raw';

/** A statement as better-sqlite3 has one: its SQL compiled once per connection (WasmDatabase.acquire), its modes its own. */
class WasmStatement implements SqliteStatement {
  private mode: RowMode = 'object';
  private safe = false;

  constructor(private readonly db: WasmDatabase, readonly source: string, readonly reader: boolean) {}

  get(...params: unknown[]): unknown {
    this.mustRead();
    return this.use(params, (compiled) => (this.db.step(compiled) ? this.db.row(compiled.pointer, this.db.columnNames(compiled.pointer), this.mode, this.safe) : undefined));
  }

  all(...params: unknown[]): unknown[] {
    this.mustRead();
    return this.use(params, (compiled) => {
      const rows: unknown[] = [];
      const columns = this.db.columnNames(compiled.pointer);
      while (this.db.step(compiled)) rows.push(this.db.row(compiled.pointer, columns, this.mode, this.safe));
      return rows;
    });
  }

  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint } {
    const before = this.db.totalChanges();
    return this.use(params, (compiled) => {
      this.db.step(compiled);
      return this.db.runResult(before, this.safe);
    });
  }

  *iterate(...params: unknown[]): IterableIterator<unknown> {
    this.mustRead();
    const compiled = this.db.acquire(this.source);
    try {
      this.db.bind(compiled, params);
      const columns = this.db.columnNames(compiled.pointer);
      while (this.db.step(compiled)) yield this.db.row(compiled.pointer, columns, this.mode, this.safe);
    } finally {
      this.db.release(compiled);
    }
  }

  pluck(on = true): this {
    this.mustRead('The pluck() method is only for statements that return data');
    if (on) this.mode = 'pluck';
    else if (this.mode === 'pluck') this.mode = 'object';
    return this;
  }

  raw(on = true): this {
    this.mustRead('The raw() method is only for statements that return data');
    if (on) this.mode = 'raw';
    else if (this.mode === 'raw') this.mode = 'object';
    return this;
  }

  safeIntegers(on = true): this {
    this.safe = on;
    return this;
  }

  columns(): { name: string }[] {
    this.mustRead('The columns() method is only for statements that return data');
    const compiled = this.db.acquire(this.source);
    try {
      return this.db.columnNames(compiled.pointer).map((name) => ({ name }));
    } finally {
      this.db.release(compiled);
    }
  }

  /** Binds `params` to a compiled copy free to step, runs `work` on it, and always releases it. */
  private use<T>(params: unknown[], work: (compiled: Compiled) => T): T {
    const compiled = this.db.acquire(this.source);
    try {
      this.db.bind(compiled, params);
      return work(compiled);
    } finally {
      this.db.release(compiled);
    }
  }

  private mustRead(message = 'This statement does not return data. Use run() instead'): void {
    if (!this.reader) throw new TypeError(message);
  }
}

/** better-sqlite3's transaction: BEGIN … COMMIT, or a SAVEPOINT when one is open; an error rolls back its part and is thrown again. */
function inTransaction(db: WasmDatabase, begin: string, work: () => unknown): unknown {
  const nested = db.inTransaction;
  db.exec(nested ? SAVEPOINT : begin);
  try {
    const result = work();
    if (result && typeof (result as { then?: unknown }).then === 'function') throw new TypeError('Transaction function cannot return a promise');
    db.exec(nested ? RELEASE : 'COMMIT');
    return result;
  } catch (err) {
    if (db.inTransaction) {
      db.exec(nested ? ROLLBACK_TO : 'ROLLBACK');
      if (nested) db.exec(RELEASE);
    }
    throw err;
  }
}

// better-sqlite3's own savepoint name, so the two leave the same trace in SQL logs.
const SAVEPOINT = 'SAVEPOINT `\t_bs3.\t`';
const RELEASE = 'RELEASE `\t_bs3.\t`';
const ROLLBACK_TO = 'ROLLBACK TO `\t_bs3.\t`';

/** better-sqlite3's parameters: values one by one or in arrays (in order, for `?`), and at most one object (for `@name`, `:name`, `$name`). */
function parameterValues(params: unknown[]): { anonymous: unknown[]; named: Record<string, unknown> | undefined } {
  const anonymous: unknown[] = [];
  let named: Record<string, unknown> | undefined;
  for (const param of params) {
    if (Array.isArray(param)) anonymous.push(...(param as unknown[]));
    else if (isPlainObject(param)) {
      if (named !== undefined) throw new TypeError('You cannot specify named parameters in two different objects');
      named = param;
    } else anonymous.push(param);
  }
  return { anonymous, named };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** A user function's result as SQLite can hold it (undefined as NULL); anything else is refused as better-sqlite3 refuses it. */
function checkedResult(name: string, result: unknown): unknown {
  if (result === undefined || result === null) return null;
  if (typeof result === 'number' || typeof result === 'bigint' || typeof result === 'string' || result instanceof Uint8Array) return result;
  throw new TypeError(`User-defined function ${name}() returned an invalid value`);
}

/** How a wasm connection keeps its journal: WAL or a rollback journal, one connection holding the file either way. */
export type WasmJournal = 'wal' | 'truncate';

/**
 * The pragmas that differ from a native connection's (database.ts sets the
 * rest): exclusive locking, as the one engine of a browser profile owns the
 * file (OPFS's pool has no shared memory, so WAL needs it; and a rollback
 * journal without it takes and drops the file's lock at every read: the
 * palette's search took 14.6 ms a request instead of 2.2); temporary tables
 * and sort spills in memory, where the pool has no files for them.
 */
export function setUpWasmConnection(db: SqliteConnection, options: { pageSize?: number; journal: WasmJournal }): void {
  if (options.pageSize !== undefined) db.pragma(`page_size = ${Math.trunc(options.pageSize)}`);
  db.pragma('temp_store = MEMORY');
  db.pragma('locking_mode = EXCLUSIVE');
  db.pragma(options.journal === 'wal' ? 'journal_mode = WAL' : 'journal_mode = TRUNCATE');
}

/** The connection set up (setUpWasmConnection), or closed again when that fails. */
export function setUpOrClose<D extends SqliteConnection>(db: D, options: { pageSize?: number; journal: WasmJournal }): D {
  try {
    setUpWasmConnection(db, options);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}
