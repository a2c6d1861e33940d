import { BRIDGE_DEFAULTS, bridgeOptionsFromEnv, DatabaseUnavailableError, millisecondsFromEnv, PostgresError, type BridgeOptions, type PostgresConnection } from '../postgresBridge.js';
import { openPostgresConnection, type PostgresDriver } from '../postgresConnection.js';
import { isoSeconds, systemClock, type Clock } from '../../clock.js';
import type { Db, Transaction } from '../database.js';
import { ignoresConflicts, toPostgres, type Schema, type TableKeys } from './dialect.js';
import { tsqueryOf } from './tsquery.js';

/**
 * The part of better-sqlite3's interface the engine uses (prepare → get, all,
 * run, pluck; transaction with nesting; exec), over PostgreSQL through the
 * synchronous bridge: the engine's database on a PostgreSQL hub
 * (docs/design/postgres-hub.md). The engine's SQL is SQLite's: each statement
 * is translated once, when prepared (postgres/dialect.ts), and its
 * placeholders, SQLite's `?` and `@name`, become `$n`. SQLite's now_utc()
 * (the engine's clock) becomes one more parameter, given the clock's time on
 * each run.
 *
 * Writes across hub nodes are serialized as SQLite serializes them on one
 * machine: every transaction first takes one advisory lock for the whole
 * database (the engine's transactions are its writes), so change-log
 * revisions commit in the order they were taken and a device never reads past
 * a change still uncommitted on another node.
 *
 * A transaction does not wait for a row lock while it holds that lock: inside
 * it, lock_timeout is short (`rowLockTryMs`); a statement that would wait
 * longer fails (55P03), the transaction rolls back, which lets the write lock
 * go, and it is run again a moment later, until the connection's lock_timeout
 * has passed since its first try (`lockRetryDelay`). So a row another session
 * holds delays only the write that needs it (docs/design/postgres-hub.md,
 * "Row locks and the write lock").
 */

/** The advisory lock every transaction takes (any fixed number: it names the hub's one write lock). */
export const HUB_WRITE_LOCK = 7_356_611;

export interface RunResult {
  changes: number;
  /** The `id` a `RETURNING id` gave back (the engine's inserts ask for it on PostgreSQL), else 0. */
  lastInsertRowid: number;
}

type Params = unknown[];

/** SQLSTATE lock_not_available: a lock wait passed lock_timeout. */
const LOCK_NOT_AVAILABLE = '55P03';
/** How long a transaction may wait for a row lock while it holds the hub's write lock, by default (OUTPOST_PG_ROW_LOCK_TRY_MS). */
export const ROW_LOCK_TRY_MS = 100;
/** The first and the longest pause between two tries of a write that found a row locked. */
const FIRST_PAUSE_MS = 25;
const LONGEST_PAUSE_MS = 250;

/** Blocks the thread for `ms` (the engine is synchronous: a transaction's caller waits for it anyway). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** A statement with SQLite's placeholders as PostgreSQL's, and how to order a call's values for it. */
interface Compiled {
  text: string;
  /** What each `$n` takes: the n-th `?` value (a number) or a named value (its name). */
  slots: (number | string)[];
  /** The statement calls now_utc(): its last parameter is the clock's time. */
  now?: boolean;
  /** SQLite's UPDATE OR IGNORE: a run that breaks a uniqueness rule changes nothing instead of failing. */
  ignoreConflicts?: boolean;
  /** The `$n` (from 1) that take an FTS5 expression, given to PostgreSQL as a tsquery (`<index> MATCH ?`, dialect.ts). */
  searches?: number[];
}

/** A search's FTS5 expression, at its parameter, as the tsquery PostgreSQL matches (postgres/tsquery.ts). */
function withSearches(compiled: Compiled): Compiled {
  const searches: number[] = [];
  const text = compiled.text.replace(/fts_query\(\$(\d+)\)/g, (_call, n: string) => {
    searches.push(Number(n));
    return `CAST($${n} AS tsquery)`;
  });
  return searches.length === 0 ? compiled : { ...compiled, text, searches };
}

/** PostgreSQL's SQLSTATE for a unique value taken. */
const UNIQUE_VIOLATION = '23505';

const NOW = '\u0000now\u0000';

/**
 * `?` and `@name` outside quoted text and names, numbered `$1`, `$2`, … in
 * order (a name used twice keeps its number; a statement may use both kinds,
 * as SQLite allows); now_utc() becomes the parameter after them.
 */
export function compile(sql: string): Compiled {
  const slots: (number | string)[] = [];
  let positional = 0;
  let now = false;
  let text = sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\?|@[A-Za-z_][A-Za-z0-9_]*|\bnow_utc\s*\(\s*\)/gi, (token) => {
    if (token === '?') return `$${slots.push(positional++)}`;
    if (/^now_utc/i.test(token)) {
      now = true;
      return NOW;
    }
    if (!token.startsWith('@')) return token;
    const at = slots.indexOf(token.slice(1));
    return `$${at >= 0 ? at + 1 : slots.push(token.slice(1))}`;
  });
  if (!now) return { text, slots };
  text = text.replaceAll(NOW, `CAST($${slots.length + 1} AS text)`);
  return { text, slots, now };
}

export class PostgresStatement {
  private shape: 'object' | 'pluck' | 'raw' = 'object';
  private bigInts = false;

  constructor(private readonly db: PostgresDatabase, private readonly compiled: Compiled) {}

  /** Rows come back as their first column's value (better-sqlite3's pluck). */
  pluck(on = true): this {
    this.shape = on ? 'pluck' : 'object';
    return this;
  }

  /** Rows come back as arrays of values (better-sqlite3's raw). */
  raw(on = true): this {
    this.shape = on ? 'raw' : 'object';
    return this;
  }

  /** Integers come back as BigInt (better-sqlite3's safeIntegers; exact only below 2^53 here, as the bridge reads them as numbers). */
  safeIntegers(on = true): this {
    this.bigInts = on;
    return this;
  }

  get(...params: Params): unknown {
    return this.all(...params)[0];
  }

  all(...params: Params): unknown[] {
    const { rows, fields } = this.db.queryArrays(this.compiled.text, this.values(params));
    return rows.map((row) => {
      const values = this.bigInts ? row.map((value) => (Number.isInteger(value) ? BigInt(value as number) : value)) : row;
      if (this.shape === 'pluck') return values[0];
      if (this.shape === 'raw') return values;
      // As SQLite does, a later column of the same name wins.
      return Object.fromEntries(fields.map((field, i) => [field, values[i]]));
    });
  }

  run(...params: Params): RunResult {
    if (this.compiled.ignoreConflicts) return this.runIgnoringConflicts(params);
    const { rows, rowCount } = this.db.queryArrays(this.compiled.text, this.values(params));
    return { changes: rowCount, lastInsertRowid: Number(rows[0]?.[0] ?? 0) };
  }

  private runIgnoringConflicts(params: Params): RunResult {
    const run = this.db.transaction(() => this.db.queryArrays(this.compiled.text, this.values(params)).rowCount);
    try {
      return { changes: run(), lastInsertRowid: 0 };
    } catch (err) {
      if (err instanceof PostgresError && err.code === UNIQUE_VIOLATION) return { changes: 0, lastInsertRowid: 0 };
      throw err;
    }
  }

  /** As better-sqlite3 takes them: values one by one, an array of them, or one object for `@name` placeholders. */
  private values(params: Params): unknown[] {
    const given = this.given(params);
    for (const n of this.compiled.searches ?? []) given[n - 1] = tsqueryOf(String(given[n - 1]));
    return this.compiled.now ? [...given, this.db.now()] : given;
  }

  /** Values one by one or as an array for `?`, and an object (the last argument) for `@name`. */
  private given(params: Params): unknown[] {
    const flat = params.length === 1 && Array.isArray(params[0]) ? params[0] : params;
    const last = flat[flat.length - 1];
    const named = typeof last === 'object' && last !== null && !(last instanceof Uint8Array) ? (last as Record<string, unknown>) : null;
    const positional = named ? flat.slice(0, -1) : flat;
    return this.compiled.slots.map((slot) => {
      if (typeof slot === 'number') return positional[slot];
      if (!named || !(slot in named)) throw new Error(`Missing named value @${slot}.`);
      return named[slot];
    });
  }
}

const TRANSACTION_CONTROL = /^\s*(BEGIN(?:\s+(IMMEDIATE|DEFERRED|EXCLUSIVE))?|COMMIT|END|ROLLBACK)\s*;?\s*$/i;

export interface PostgresOptions {
  /** The engine's clock, behind SQLite's now_utc() in the engine's statements. */
  clock?: Clock;
  /** Timeouts and prepared statements of the connection (postgresBridge.ts). */
  bridge?: BridgeOptions;
  /** libpq or the bridge (postgresConnection.ts); by default as OUTPOST_PG_DRIVER says, else libpq where it built. */
  driver?: PostgresDriver;
  /**
   * How long a statement waits for a lock while its transaction holds the
   * hub's write lock before the transaction lets it go and tries again
   * (ROW_LOCK_TRY_MS by default); 0: it waits holding it, up to lock_timeout.
   */
  rowLockTryMs?: number;
}

/** The engine database's own settings from the environment (docs/hub.md names them), the connection's among them. */
export function postgresOptionsFromEnv(env: NodeJS.ProcessEnv): Pick<PostgresOptions, 'bridge' | 'rowLockTryMs'> {
  return { bridge: bridgeOptionsFromEnv(env), rowLockTryMs: millisecondsFromEnv(env, 'OUTPOST_PG_ROW_LOCK_TRY_MS') };
}

export class PostgresDatabase implements Db {
  readonly dialect = 'postgres';
  private readonly bridge: PostgresConnection;
  private readonly clock: Clock;
  /** How deep the transactions in progress are nested: 0 outside one; inner ones are savepoints. */
  private depth = 0;
  /** The connection the transaction in progress began on: its statements run there or fail. */
  private transactionConnection: number | undefined;
  /** The keys of the tables, which the translation of INSERTs needs (loaded by `loadSchema`, after migrating). */
  private schema: Schema = new Map();
  /** A statement's longest wait for a lock under the write lock (SET LOCAL lock_timeout); 0: the connection's. */
  private readonly rowLockTryMs: number;
  /** The connection's lock_timeout: the longest a write waits for a lock in all, over its tries. */
  private readonly lockTimeoutMs: number;

  constructor(url: string, options: PostgresOptions = {}) {
    this.bridge = openPostgresConnection(url, options.bridge, options.driver);
    this.clock = options.clock ?? systemClock;
    this.lockTimeoutMs = options.bridge?.lockTimeoutMs ?? BRIDGE_DEFAULTS.lockTimeoutMs;
    const tryMs = options.rowLockTryMs ?? ROW_LOCK_TRY_MS;
    // A try as long as the whole wait (or lock_timeout 0: no limit) would be no try at all.
    this.rowLockTryMs = this.lockTimeoutMs > 0 && tryMs < this.lockTimeoutMs ? tryMs : 0;
  }

  /**
   * How long to pause before trying a write again that failed with `error`
   * after its first try began at `since` (performance.now()); null when it
   * must not be tried again: it did not fail on a lock under the write lock,
   * or lock_timeout has passed since its first try (the error then stands: a
   * 503 over HTTP). Only a whole transaction is tried again, rolled back
   * first, so that it no longer holds the write lock while it pauses.
   */
  lockRetryDelay(error: unknown, since: number, attempt: number): number | null {
    if (this.rowLockTryMs === 0 || !(error instanceof PostgresError) || error.code !== LOCK_NOT_AVAILABLE) return null;
    const left = this.lockTimeoutMs - (performance.now() - since);
    if (left <= 0) return null;
    return Math.min(left, LONGEST_PAUSE_MS, FIRST_PAUSE_MS * 2 ** Math.min(attempt, 8));
  }

  get inTransaction(): boolean {
    return this.depth > 0;
  }

  /** The engine's time as now_utc() gives it on SQLite. */
  now(): string {
    return isoSeconds(this.clock.now());
  }

  /** Which connection answers now (a new number after each reconnect): session state, such as an advisory lock, is that connection's. */
  get connection(): number {
    return this.bridge.connection;
  }

  /** Runs one statement as PostgreSQL writes it (inside a transaction, on its connection). */
  query(text: string, values: unknown[] = []) {
    return this.bridge.query(text, values, this.transactionConnection);
  }

  /** As `query`, with rows as arrays. */
  queryArrays(text: string, values: unknown[] = []) {
    return this.bridge.queryArrays(text, values, this.transactionConnection);
  }

  /** An engine statement (SQLite's SQL), translated for PostgreSQL once. BEGIN, COMMIT and ROLLBACK keep the nesting count. */
  prepare(sql: string): PostgresStatement {
    const control = TRANSACTION_CONTROL.exec(sql);
    if (control) return new TransactionControl(this, control[1]!.toUpperCase());
    return new PostgresStatement(this, { ...withSearches(compile(toPostgres(sql, this.schema))), ignoreConflicts: ignoresConflicts(sql) });
  }

  /** Reads the tables' keys (INSERT … RETURNING their integer key: better-sqlite3's lastInsertRowid). */
  loadSchema(): void {
    const rows = this.query(`SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type
      FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, position) ON true
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
      WHERE i.indisprimary AND n.nspname = current_schema() ORDER BY c.relname, k.position`).rows as { table: string; column: string; type: string }[];
    const schema = new Map<string, TableKeys & { types: string[] }>();
    for (const row of rows) {
      const keys = schema.get(row.table) ?? { primaryKey: [], returning: null, types: [] };
      keys.primaryKey.push(row.column);
      keys.types.push(row.type);
      schema.set(row.table, keys);
    }
    for (const keys of schema.values()) keys.returning = keys.types.length === 1 && keys.types[0] === 'bigint' ? keys.primaryKey[0]! : null;
    this.schema = schema;
  }

  /** Runs statements without parameters (several, separated by semicolons: a migration). */
  exec(sql: string): this {
    this.query(sql);
    return this;
  }

  /**
   * better-sqlite3's transaction(): the function runs in a transaction,
   * committed when it returns, rolled back if it throws; called inside another
   * one, it runs in a savepoint instead. Each one, however called (plain,
   * `.immediate`, `.deferred`), first takes the hub's write lock
   * (HUB_WRITE_LOCK): the engine's transactions are its writes (reads run
   * outside them), and on SQLite one writer at a time is the database's own
   * rule, which the engine relies on (a new record's id is the highest + 1, a
   * revision commits after the ones before it). A read-only transaction would
   * wait for the lock needlessly; the engine has none.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- better-sqlite3's own constraint
  transaction<F extends (...args: any[]) => unknown>(fn: F): Transaction<F> {
    const run = ((...args: Parameters<F>) => this.within(() => fn(...args))) as F;
    return Object.assign(run, { immediate: run, deferred: run }) as unknown as Transaction<F>;
  }

  /** BEGIN, taking the write lock, or a savepoint inside a transaction; returns the savepoint's name. */
  begin(): string | null {
    const savepoint = this.depth > 0 ? `outpost_${this.depth}` : null;
    if (savepoint) this.query(`SAVEPOINT ${savepoint}`);
    else this.beginOnConnection();
    this.depth++;
    return savepoint;
  }

  /** BEGIN on whichever connection is open (a new one if the last was lost), then the write lock; the transaction's statements stay there. */
  private beginOnConnection(): void {
    this.bridge.query('BEGIN');
    this.transactionConnection = this.bridge.connection;
    try {
      // UNSAFE, tests only: test/postgres/twoNodes.test.ts sets it to show its race fails without the write lock
      // (the setting turns off the change log's own taking of it too: postgres/functions.ts).
      if (process.env.OUTPOST_UNSAFE_NO_WRITE_LOCK === '1') this.query("SET LOCAL outpost.unsafe_no_write_lock = 'on'");
      else {
        // Waiting for the write lock itself is bound by the connection's lock_timeout; then no wait for
        // another lock may hold it long: a locked row ends this try (55P03), rolled back, tried again.
        // One round trip for both (statements run in order); the lock's number and the setting are the node's own.
        this.query(`SELECT pg_advisory_xact_lock(${HUB_WRITE_LOCK})${this.rowLockTryMs > 0 ? `; SET LOCAL lock_timeout = ${this.rowLockTryMs}` : ''}`);
      }
    } catch (err) {
      // Not yet counted as begun: its caller never ends it.
      this.rollbackQuietly();
      throw err;
    }
  }

  /**
   * COMMIT or ROLLBACK (of a savepoint inside a transaction). A rollback on a
   * connection that was lost has nothing to undo (the server ended the
   * transaction with it); a commit there fails, DatabaseUnavailableError, and
   * the transaction is over either way: the count is back down and the next
   * BEGIN starts afresh on a new connection.
   */
  end(savepoint: string | null, commit: boolean): void {
    try {
      if (commit) this.query(savepoint ? `RELEASE SAVEPOINT ${savepoint}` : 'COMMIT');
      else if (savepoint) this.rollbackTo(savepoint);
      else this.rollbackQuietly();
    } finally {
      this.depth--;
      if (this.depth === 0) this.transactionConnection = undefined;
    }
  }

  private rollbackTo(savepoint: string): void {
    try {
      this.query(`ROLLBACK TO SAVEPOINT ${savepoint}`);
    } catch (err) {
      if (!(err instanceof DatabaseUnavailableError)) throw err;
    }
  }

  private rollbackQuietly(): void {
    try {
      this.query('ROLLBACK');
    } catch (err) {
      if (!(err instanceof DatabaseUnavailableError)) throw err;
    } finally {
      if (this.depth === 0) this.transactionConnection = undefined;
    }
  }

  async close(): Promise<void> {
    await this.bridge.close();
  }

  /** A transaction (or a savepoint); an outermost one that found a row locked is tried again (`lockRetryDelay`). */
  private within<T>(body: () => T): T {
    if (this.depth > 0) return this.once(body);
    const since = performance.now();
    for (let attempt = 0; ; attempt++) {
      try {
        return this.once(body);
      } catch (err) {
        const delay = this.lockRetryDelay(err, since, attempt);
        if (delay === null) throw err;
        pause(delay);
      }
    }
  }

  private once<T>(body: () => T): T {
    const savepoint = this.begin();
    let result: T;
    try {
      result = body();
    } catch (err) {
      this.end(savepoint, false);
      throw err;
    }
    this.end(savepoint, true);
    return result;
  }
}

/**
 * A BEGIN, COMMIT or ROLLBACK prepared as a statement (the REST writes' group
 * commit runs them so, db/commitGroups.ts): kept in step with `transaction()`'s
 * nesting. A BEGIN takes the hub's write lock, as every transaction does.
 */
class TransactionControl extends PostgresStatement {
  constructor(private readonly owner: PostgresDatabase, private readonly command: string) {
    super(owner, { text: command, slots: [] });
  }

  override run(): RunResult {
    if (this.command.startsWith('BEGIN')) this.owner.begin();
    else this.owner.end(null, this.command === 'COMMIT' || this.command === 'END');
    return { changes: 0, lastInsertRowid: 0 };
  }
}
