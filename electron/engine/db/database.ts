import { openSqlite } from './sqliteDriver.js';
import type { SqliteConnection, Statement, Transaction, TransactionWork } from './connection.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations/index.js';
import { isoSeconds, systemClock, type Clock } from '../clock.js';
import { registerSearchFunctions } from './sqlFunctions.js';
import { RECONNECT_SEARCH_INDEXES } from './searchIndexSql.js';

/**
 * The engine's database, on either backend: SQLite (better-sqlite3, the
 * desktop replica and the single-machine hub) or PostgreSQL (a hub of several
 * nodes, db/postgres/database.ts). The engine speaks SQLite's SQL; PostgreSQL's
 * connection translates it (db/postgres/dialect.ts). What only SQLite has
 * (pragmas, its own functions, the file) is on `SqliteDb`, reached through `sqliteOf`.
 */
export interface Db {
  readonly dialect: 'sqlite' | 'postgres';
  prepare(sql: string): Statement;
  transaction<F extends TransactionWork>(fn: F): Transaction<F>;
  /** Statements without parameters, separated by semicolons. */
  exec(sql: string): unknown;
  readonly inTransaction: boolean;
  close(): unknown;
  /**
   * PostgreSQL only (postgres/database.ts): how long to pause before running
   * again a write that failed with `error` on a locked row, its first try
   * begun at `since` (performance.now()); null: not again.
   */
  lockRetryDelay?(error: unknown, since: number, attempt: number): number | null;
}

export type { SqliteConnection, SqliteFunctionOptions, SqliteStatement, Statement, Transaction, TransactionWork } from './connection.js';

export type SqliteDb = SqliteConnection & { readonly dialect: 'sqlite' };

/** Node's errors of a disk that is full (ENOSPC; EDQUOT: a quota) or failing (EIO, EROFS): document files, backups. */
const DISK_ERRNOS = new Set(['ENOSPC', 'EDQUOT', 'EIO', 'EROFS']);

/**
 * The error of a disk that is full or failing, whatever wraps it (a failed
 * commit keeps it as its cause), else null: SQLite's SQLITE_FULL ("database or
 * disk is full") and SQLITE_IOERR with its extended codes ("disk I/O error",
 * which SQLite also answers when a write to the journal or WAL finds no space),
 * and Node's ENOSPC on the files beside the database. SQLite rolls back a
 * statement (or its whole transaction) that failed so: nothing half-written
 * is kept. problems.ts names it as the answer (faultOf).
 */
export function storageFault(error: unknown): Error | null {
  for (let at = error, depth = 0; at instanceof Error && depth < 5; at = at.cause, depth++) {
    const code = (at as NodeJS.ErrnoException).code;
    // SQLite's own errors (better-sqlite3's SqliteError, the wasm adapter's WasmSqliteError) carry its result code's name.
    if (code === 'SQLITE_FULL' || code?.startsWith('SQLITE_IOERR')) return at;
    if (code !== undefined && DISK_ERRNOS.has(code) && typeof (at as NodeJS.ErrnoException).syscall === 'string') return at;
  }
  return null;
}

/** A SQLite connection (better-sqlite3's, or the wasm adapter's) as the engine's Db. */
export const asSqliteDb = (db: SqliteConnection): SqliteDb => Object.assign(db, { dialect: 'sqlite' as const });

/** The SQLite connection behind `db`, for what only SQLite does (a replica's bulk load, backups, pragmas). */
export function sqliteOf(db: Db): SqliteDb {
  if (db.dialect !== 'sqlite') throw new Error('This needs the SQLite database of a single-machine hub or a replica.');
  return db as SqliteDb;
}

export interface OpenOptions {
  /** The engine's clock, behind SQL's now_utc() (overdue tasks are computed in queries). */
  clock?: Clock;
  /** Path of a better-sqlite3 .node build for another ABI (Electron's). */
  nativeBinding?: string;
  readonly?: boolean;
  /**
   * Off on a replica: it mirrors a hub that keeps references whole, and
   * records arrive in the order they last changed, not in reference order.
   */
  foreignKeys?: boolean;
  /** SQLite's page cache in MiB: 64 on a hub (100 000 contacts with their indexes fit), less on a device. */
  cacheMiB?: number;
  /** Page size in bytes of a database file created now (SQLite's 4096 if not given); an existing file keeps its own. */
  pageSize?: number;
}

export class SchemaTooNewError extends Error {
  constructor(found: number) {
    super(`This database was written by a newer version of Outpost (schema ${found}, this version knows ${SCHEMA_VERSION}). Update Outpost to open it.`);
  }
}

/**
 * Opens (and creates) the SQLite database through the platform
 * (db/sqliteDriver.ts: better-sqlite3 in WAL mode so readers never block the
 * writer; in the browser, SQLite in WebAssembly), then foreign keys on, a
 * busy timeout so CLI commands can write while a hub runs on the same file,
 * and migrates it to the current schema.
 */
export function openDatabase(file: string, options: OpenOptions = {}): SqliteDb {
  const { nativeBinding, readonly, pageSize } = options;
  const db = asSqliteDb(openSqlite(file, { nativeBinding, readonly, pageSize }));
  try {
    db.pragma(`foreign_keys = ${options.foreignKeys === false ? 'OFF' : 'ON'}`);
    db.pragma('busy_timeout = 5000');
    db.pragma('synchronous = NORMAL');
    // A hub's 64 MiB page cache holds 100 000 contacts with their indexes, so bulk writes and sorts stay in memory.
    db.pragma(`cache_size = -${(options.cacheMiB ?? 64) * 1024}`);
    registerFunctions(db, options.clock ?? systemClock);
    // A read-only connection writes nothing: no migration, no statistics (it reads the schema the file has).
    if (options.readonly) return db;
    migrate(db);
    // Keeps the query planner's statistics current (bounded sampling, so it costs milliseconds):
    // without them it may scan an owner's index instead of using a search's few matches.
    db.pragma('analysis_limit = 1000');
    db.pragma('optimize = 0x10002');
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

function registerFunctions(db: SqliteDb, clock: Clock): void {
  // The engine's clock (injected, so tests can move time). Flagged deterministic so that SQLite, seeing a
  // constant expression, calls it once per run of a statement instead of once per row (a list of 25 tasks
  // made 25 calls into JavaScript for `overdue`); each run asks again, so every answer has one "now" and
  // the clock still moves between statements. The flag would also let it into an index, a CHECK or a
  // generated column, where SQLite expects the same value forever: it must never be used there.
  db.function('now_utc', { deterministic: true }, () => isoSeconds(clock.now()));
  registerSearchFunctions(db);
}

export function migrate(db: SqliteDb): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) throw new SchemaTooNewError(current);
  for (const migration of MIGRATIONS) {
    if (migration.version <= current) continue;
    const run = db.transaction(() => {
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    });
    if (migration.rebuildsTables) withoutForeignKeys(db, run);
    else run();
  }
  // Some migrations build the search indexes, on the connection that then serves.
  if (current < SCHEMA_VERSION) db.exec(RECONNECT_SEARCH_INDEXES);
}

/** Runs `work` with foreign keys off (a pragma that must be set outside a transaction), then as they were. */
function withoutForeignKeys(db: SqliteDb, work: () => void): void {
  const was = db.pragma('foreign_keys', { simple: true }) as number;
  db.pragma('foreign_keys = OFF');
  try {
    work();
  } finally {
    db.pragma(`foreign_keys = ${was ? 'ON' : 'OFF'}`);
  }
}
