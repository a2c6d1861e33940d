import type { Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import type { SqliteConnection, SqliteFunctionOptions, SqliteStatement, Transaction, TransactionWork } from './connection.js';

/**
 * A connection of SQLite compiled to WebAssembly (@sqlite.org/sqlite-wasm) that
 * behaves as the engine uses better-sqlite3: the same statements, results,
 * bindings, transactions and error codes, synchronously, so no engine code
 * knows which it runs on. On the hot paths (binding, stepping, reading
 * columns) it calls SQLite's exported C functions directly, with its own
 * UTF-8 copies in and out of the WebAssembly memory: sqlite-wasm's `capi`
 * wrappers convert every argument, and its string binding encodes each value
 * into a new array before copying it in. A first sync of 15 000 records in
 * Chromium spent 0.9 of its 2.0 s of row writing in that string binding alone.
 */

/** SQLite's C functions as the WebAssembly module exports them: pointers and ints as numbers, 64-bit ints as bigints. */
interface Exports {
  sqlite3_bind_null(stmt: number, index: number): number;
  sqlite3_bind_double(stmt: number, index: number, value: number): number;
  sqlite3_bind_int64(stmt: number, index: number, value: bigint): number;
  sqlite3_bind_text(stmt: number, index: number, text: number, length: number, destructor: number): number;
  sqlite3_clear_bindings(stmt: number): number;
  sqlite3_step(stmt: number): number;
  sqlite3_reset(stmt: number): number;
  sqlite3_column_count(stmt: number): number;
  sqlite3_column_name(stmt: number, index: number): number;
  sqlite3_column_type(stmt: number, index: number): number;
  sqlite3_column_double(stmt: number, index: number): number;
  sqlite3_column_int64(stmt: number, index: number): bigint;
  sqlite3_column_text(stmt: number, index: number): number;
  sqlite3_column_bytes(stmt: number, index: number): number;
  sqlite3_changes(db: number): number;
  sqlite3_total_changes(db: number): number;
  sqlite3_last_insert_rowid(db: number): bigint;
  sqlite3_get_autocommit(db: number): number;
  sqlite3_create_function_v2(db: number, name: number, arity: number, flags: number, app: 0, fn: number, step: 0, final: 0, destroy: 0): number;
  sqlite3_value_type(value: number): number;
  sqlite3_value_double(value: number): number;
  sqlite3_value_text(value: number): number;
  sqlite3_value_blob(value: number): number;
  sqlite3_value_bytes(value: number): number;
  sqlite3_result_null(context: number): void;
  sqlite3_result_double(context: number, value: number): void;
  sqlite3_result_int64(context: number, value: bigint): void;
  sqlite3_result_text(context: number, text: number, length: number, destructor: number): void;
  sqlite3_result_blob(context: number, bytes: number, length: number, destructor: number): void;
  sqlite3_result_error(context: number, message: number, length: number): void;
}

/** The parts of the WebAssembly build this adapter calls through sqlite-wasm's wrappers (its own typings are stricter than useful here). */
interface Capi {
  sqlite3_bind_parameter_count(stmt: number): number;
  sqlite3_bind_parameter_name(stmt: number, index: number): string | null;
  sqlite3_bind_blob(stmt: number, index: number, bytes: number, length: number, destructor: number): number;
  sqlite3_bind_zeroblob(stmt: number, index: number, length: number): number;
  readonly SQLITE_WASM_DEALLOC: number;
  sqlite3_column_blob(stmt: number, index: number): number;
  sqlite3_extended_errcode(db: number): number;
  sqlite3_errmsg(db: number): string;
  sqlite3_exec(db: number, sql: string, callback: 0, arg: 0, errmsg: 0): number;
  sqlite3_js_rc_str(code: number): string | undefined;
}

/** The WebAssembly memory and its allocator (SQLite's). */
interface Memory {
  readonly memory: WebAssembly.Memory;
  readonly exports: Exports;
  alloc(bytes: number): number;
  dealloc(pointer: number): void;
  allocCString(text: string): number;
  allocFromTypedArray(bytes: Uint8Array): number;
  /** Makes a JavaScript function callable from C (`signature` as 'v(pip)': returns void, takes a pointer, an int and a pointer). */
  installFunction(signature: string, fn: (...args: number[]) => void): number;
  uninstallFunction(pointer: number): void;
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
  close(): void;
}

const SQLITE_ROW = 100;
const SQLITE_DONE = 101;
const SQLITE_INTEGER = 1;
const SQLITE_FLOAT = 2;
const SQLITE_TEXT = 3;
const SQLITE_BLOB = 4;
const SQLITE_UTF8 = 1;
const SQLITE_DETERMINISTIC = 0x800;
const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);
/** SQLite copies a text bound with this destructor at once, so the scratch it was copied from can take the next value. */
const SQLITE_TRANSIENT = -1;
/** The smallest scratch for bound texts, in bytes; it grows to the longest text bound. */
const MIN_SCRATCH = 4096;
/** Texts up to this many characters are tried as ASCII first (bindText). */
const SHORT_TEXT = 64;

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

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
  private readonly c: Exports;
  /** The WebAssembly memory as bytes; a new view whenever the memory has grown (which detaches the old one). */
  private heapView: Uint8Array;
  /** The same memory as 32-bit words (pointers). */
  private wordsView: Uint32Array;
  /** Where texts are encoded before SQLite copies them in (SQLITE_TRANSIENT); kept for the connection's life. */
  private scratch = 0;
  private scratchSize = 0;
  private scratchView: Uint8Array | null = null;
  /** The C entry points of this connection's user functions, removed from the function table when it closes. */
  private readonly installed: number[] = [];
  private readonly compiled = new Map<string, Compiled>();
  /** The JavaScript error a user function threw during the current step: thrown as is, as better-sqlite3 does. */
  private functionError: unknown = undefined;
  private closed = false;

  constructor(sqlite3: Sqlite3Static, readonly ooDb: OoDatabase, private readonly options: WasmConnectionOptions) {
    this.capi = sqlite3.capi as unknown as Capi;
    this.wasm = sqlite3.wasm as unknown as Memory;
    this.c = this.wasm.exports;
    this.heapView = new Uint8Array(this.wasm.memory.buffer);
    this.wordsView = new Uint32Array(this.wasm.memory.buffer);
    this.name = options.name;
    this.readonly = options.readonly ?? false;
    this.memory = options.name === ':memory:' || options.name === '';
  }

  get open(): boolean {
    return !this.closed;
  }

  get inTransaction(): boolean {
    return !this.closed && this.c.sqlite3_get_autocommit(this.pointer) === 0;
  }

  /** The sqlite3* of the open connection. */
  get pointer(): number {
    const pointer = this.ooDb.pointer;
    if (this.closed || !pointer) throw new TypeError('The database connection is not open');
    return pointer;
  }

  prepare(sql: string): SqliteStatement {
    const compiled = this.acquire(sql);
    const reader = this.c.sqlite3_column_count(compiled.pointer) > 0;
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

  /**
   * A user function, called by SQLite through a C entry point of its own:
   * the arguments read and the result written straight from and to the
   * WebAssembly memory (sqlite-wasm's own wrapping of user functions made the
   * name and phone terms of a first sync's search build cost three times the
   * functions themselves).
   */
  function(name: string, options: SqliteFunctionOptions, fn: (...args: never[]) => unknown): this {
    const arity = options.varargs ? -1 : fn.length;
    const call = fn as (...values: unknown[]) => unknown;
    const entry = this.wasm.installFunction('v(pip)', (context: number, count: number, values: number) => {
      try {
        const args = new Array<unknown>(count);
        for (let at = 0; at < count; at++) args[at] = this.argument(values, at);
        this.setResult(context, name, call(...args));
      } catch (err) {
        this.functionError ??= err;
        const message = utf8Encoder.encode(String((err as Error)?.message ?? err));
        const scratch = this.scratchFor(message.length);
        scratch.set(message);
        this.c.sqlite3_result_error(context, this.scratch, message.length);
      }
    });
    this.installed.push(entry);
    const flags = SQLITE_UTF8 | (options.deterministic ? SQLITE_DETERMINISTIC : 0);
    const cName = this.wasm.allocCString(name);
    let rc: number;
    try {
      rc = this.c.sqlite3_create_function_v2(this.pointer, cName, arity, flags, 0, entry, 0, 0, 0);
    } finally {
      this.wasm.dealloc(cName);
    }
    if (rc) throw this.failure(rc);
    return this;
  }

  /** A user function's argument `at` of the `sqlite3_value*` array at `values`, as better-sqlite3 passes it. */
  private argument(values: number, at: number): unknown {
    const value = this.words()[(values >>> 2) + at];
    switch (this.c.sqlite3_value_type(value)) {
      case SQLITE_INTEGER:
      case SQLITE_FLOAT:
        return this.c.sqlite3_value_double(value);
      case SQLITE_TEXT: {
        const start = this.c.sqlite3_value_text(value);
        return utf8Decoder.decode(this.heap().subarray(start, start + this.c.sqlite3_value_bytes(value)));
      }
      case SQLITE_BLOB: {
        const start = this.c.sqlite3_value_blob(value);
        return asBlob(this.heap().slice(start, start + this.c.sqlite3_value_bytes(value)));
      }
      default:
        return null;
    }
  }

  /** A user function's result as better-sqlite3 keeps it: numbers as reals, bigints as integers, text, blobs, null; anything else refused. */
  private setResult(context: number, name: string, result: unknown): void {
    if (result === undefined || result === null) this.c.sqlite3_result_null(context);
    else if (typeof result === 'number') this.c.sqlite3_result_double(context, result);
    else if (typeof result === 'bigint') {
      if (result > INT64_MAX || result < INT64_MIN) throw new RangeError(`User-defined function ${name}() returned a bigint that was too big`);
      this.c.sqlite3_result_int64(context, result);
    } else if (typeof result === 'string') {
      const scratch = this.scratchFor(result.length * 3);
      this.c.sqlite3_result_text(context, this.scratch, utf8Encoder.encodeInto(result, scratch).written, SQLITE_TRANSIENT);
    } else if (result instanceof Uint8Array) {
      this.scratchFor(result.byteLength).set(result);
      this.c.sqlite3_result_blob(context, this.scratch, result.byteLength, SQLITE_TRANSIENT);
    } else throw new TypeError(`User-defined function ${name}() returned an invalid value`);
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
    if (this.scratch) this.wasm.dealloc(this.scratch);
    this.scratch = 0;
    this.scratchView = null;
    this.closed = true;
    this.ooDb.close();
    for (const entry of this.installed.splice(0)) this.wasm.uninstallFunction(entry);
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
    this.c.sqlite3_reset(compiled.pointer);
    this.c.sqlite3_clear_bindings(compiled.pointer);
    compiled.busy = false;
    if (compiled.temporary) compiled.statement.finalize();
  }

  /** Steps once: whether a row is there; throws the statement's error (a user function's own, if it threw). */
  step(compiled: Compiled): boolean {
    this.functionError = undefined;
    const rc = this.c.sqlite3_step(compiled.pointer);
    if (rc === SQLITE_ROW) return true;
    if (rc === SQLITE_DONE) return false;
    throw this.failure(rc);
  }

  bind(compiled: Compiled, params: unknown[]): void {
    const { anonymous, named } = parameterValues(params);
    const { parameters, pointer } = compiled;
    let next = 0;
    for (let at = 0; at < parameters.length; at++) {
      const name = parameters[at];
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
      this.bindValue(pointer, at + 1, value);
    }
    if (next < anonymous.length) throw new RangeError('Too many parameter values were provided');
  }

  /** The current row: an object by column name, the first value (pluck), or the values in order (raw). */
  row(pointer: number, columns: string[], mode: RowMode, safeIntegers: boolean): unknown {
    if (mode === 'pluck') return this.column(pointer, 0, safeIntegers);
    if (mode === 'raw') return columns.map((_, at) => this.column(pointer, at, safeIntegers));
    const row: Record<string, unknown> = {};
    for (let at = 0; at < columns.length; at++) row[columns[at]] = this.column(pointer, at, safeIntegers);
    return row;
  }

  columnNames(pointer: number): string[] {
    const names: string[] = [];
    for (let at = 0, count = this.c.sqlite3_column_count(pointer); at < count; at++) names.push(this.cString(this.c.sqlite3_column_name(pointer, at)));
    return names;
  }

  /** What a write did, as better-sqlite3 tells it: no changes counted for a statement that changed nothing (its count is the last write's). */
  runResult(changesBefore: number, safeIntegers: boolean): { changes: number; lastInsertRowid: number | bigint } {
    const db = this.pointer;
    const changes = this.c.sqlite3_total_changes(db) === changesBefore ? 0 : this.c.sqlite3_changes(db);
    const rowid = this.c.sqlite3_last_insert_rowid(db);
    return { changes, lastInsertRowid: safeIntegers ? rowid : Number(rowid) };
  }

  totalChanges(): number {
    return this.c.sqlite3_total_changes(this.pointer);
  }

  private column(pointer: number, at: number, safeIntegers: boolean): unknown {
    switch (this.c.sqlite3_column_type(pointer, at)) {
      case SQLITE_INTEGER:
        return safeIntegers ? this.c.sqlite3_column_int64(pointer, at) : this.c.sqlite3_column_double(pointer, at);
      case SQLITE_FLOAT:
        return this.c.sqlite3_column_double(pointer, at);
      case SQLITE_TEXT: {
        // The pointer before the length, as SQLite's documentation asks.
        const start = this.c.sqlite3_column_text(pointer, at);
        return utf8Decoder.decode(this.heap().subarray(start, start + this.c.sqlite3_column_bytes(pointer, at)));
      }
      case SQLITE_BLOB: {
        const start = this.capi.sqlite3_column_blob(pointer, at);
        const length = this.c.sqlite3_column_bytes(pointer, at);
        return asBlob(this.heap().slice(start, start + length));
      }
      default:
        return null;
    }
  }

  private bindValue(pointer: number, index: number, value: unknown): void {
    let rc: number;
    if (value === null || value === undefined) rc = this.c.sqlite3_bind_null(pointer, index);
    // Numbers as doubles, as better-sqlite3 binds them (a column's INTEGER affinity stores 1.0 as 1).
    else if (typeof value === 'number') rc = this.c.sqlite3_bind_double(pointer, index, value);
    else if (typeof value === 'bigint') {
      if (value > INT64_MAX || value < INT64_MIN) throw new RangeError('The bound string, buffer, or bigint is too big');
      rc = this.c.sqlite3_bind_int64(pointer, index, value);
    } else if (typeof value === 'string') rc = this.bindText(pointer, index, value);
    else if (value instanceof Uint8Array) {
      rc = value.byteLength === 0
        ? this.capi.sqlite3_bind_zeroblob(pointer, index, 0)
        // A plain view of the bytes: the copy refuses Node's Buffer (a subclass of Uint8Array).
        : this.capi.sqlite3_bind_blob(pointer, index, this.wasm.allocFromTypedArray(new Uint8Array(value.buffer, value.byteOffset, value.byteLength)), value.byteLength, this.capi.SQLITE_WASM_DEALLOC);
    } else throw new TypeError('SQLite3 can only bind numbers, strings, bigints, buffers, and null');
    // (sqlite-wasm's bind_null answers undefined.)
    if (rc) throw this.failure(rc);
  }

  /** Encodes `text` into the scratch and binds it; SQLite takes its own copy at once. */
  private bindText(pointer: number, index: number, text: string): number {
    const scratch = this.scratchFor(text.length * 3);
    const length = text.length;
    let written = 0;
    // Most values are short and ASCII (names, emails, dates): copied by this loop, they skip encodeInto's
    // call and result object (in Chromium, 263 000 texts of ~14 characters took 18 ms this way, 56 ms by encodeInto).
    if (length <= SHORT_TEXT) {
      for (; written < length; written++) {
        const code = text.charCodeAt(written);
        if (code >= 0x80) break;
        scratch[written] = code;
      }
    }
    if (written < length) written = utf8Encoder.encodeInto(text, scratch).written;
    return this.c.sqlite3_bind_text(pointer, index, this.scratch, written, SQLITE_TRANSIENT);
  }

  /**
   * The scratch as bytes, at least `bytes` long: one view kept while the
   * memory stays the same (making a view per value cost more than encoding it).
   */
  private scratchFor(bytes: number): Uint8Array {
    // (Never a null pointer, even for '': SQLite would bind NULL.)
    if (this.scratch === 0 || bytes > this.scratchSize) {
      if (this.scratch) this.wasm.dealloc(this.scratch);
      this.scratchSize = Math.max(MIN_SCRATCH, bytes * 2);
      this.scratch = this.wasm.alloc(this.scratchSize);
      this.scratchView = null;
    }
    const heap = this.heap();
    if (this.scratchView?.buffer !== heap.buffer) this.scratchView = heap.subarray(this.scratch, this.scratch + this.scratchSize);
    return this.scratchView;
  }

  /** The WebAssembly memory's bytes, viewed anew after the memory grew. */
  private heap(): Uint8Array {
    if (this.heapView.buffer !== this.wasm.memory.buffer) this.heapView = new Uint8Array(this.wasm.memory.buffer);
    return this.heapView;
  }

  /** The WebAssembly memory's 32-bit words, viewed anew after the memory grew. */
  private words(): Uint32Array {
    if (this.wordsView.buffer !== this.wasm.memory.buffer) this.wordsView = new Uint32Array(this.wasm.memory.buffer);
    return this.wordsView;
  }

  /** A NUL-terminated UTF-8 string at `pointer`. */
  private cString(pointer: number): string {
    const heap = this.heap();
    return utf8Decoder.decode(heap.subarray(pointer, heap.indexOf(0, pointer)));
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

/** How a wasm connection keeps its journal: WAL or a rollback journal, one connection holding the file either way. */
export type WasmJournal = 'wal' | 'truncate';

/**
 * The pragmas that differ from a native connection's (database.ts sets the
 * rest): exclusive locking, as the one engine of a browser profile owns the
 * file (OPFS's pool has no shared memory, so WAL needs it; and a rollback
 * journal without it takes and drops the file's lock at every read, and reads
 * the database's first page again each time: in a private window the
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
