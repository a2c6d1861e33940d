import { PostgresBridge } from './postgresBridge.js';

/**
 * The part of better-sqlite3's interface the engine uses (prepare → get, all,
 * run, pluck; transaction with nesting; exec), over PostgreSQL through the
 * synchronous bridge: phase 2's seam of the PostgreSQL hub
 * (docs/design/postgres-hub.md). Not yet used by the engine: the SQL it is
 * given must already be PostgreSQL's (the dialect seam comes next); only the
 * placeholders are translated, SQLite's `?` and `@name` becoming `$n`.
 *
 * Writes across hub nodes are serialized as SQLite serializes them on one
 * machine: a transaction run `.immediate()` (as the engine runs every write)
 * first takes one advisory lock for the whole database, so change-log
 * revisions commit in the order they were taken and a device never reads past
 * a change still uncommitted on another node.
 */

/** The advisory lock every write transaction takes (any fixed number: it names the hub's one write lock). */
export const HUB_WRITE_LOCK = 7_356_611;

export interface RunResult {
  changes: number;
  /** The `id` a `RETURNING id` gave back (the engine's inserts ask for it on PostgreSQL), else 0. */
  lastInsertRowid: number;
}

type Params = unknown[];

/** A statement with SQLite's placeholders as PostgreSQL's, and how to order a call's values for it. */
interface Compiled {
  text: string;
  /** For `@name` placeholders: each `$n`'s name; empty when the statement uses `?`. */
  names: string[];
}

/** `?` and `@name` outside quoted text and names, numbered `$1`, `$2`, … (a name used twice keeps its number). */
export function compile(sql: string): Compiled {
  const names: string[] = [];
  let positional = 0;
  const text = sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\?|@[A-Za-z_][A-Za-z0-9_]*/g, (token) => {
    if (token === '?') return `$${++positional}`;
    if (!token.startsWith('@')) return token;
    const name = token.slice(1);
    const at = names.indexOf(name);
    return `$${at >= 0 ? at + 1 : names.push(name)}`;
  });
  if (positional > 0 && names.length > 0) throw new Error('A statement uses either ? or @name placeholders, not both.');
  return { text, names };
}

export class PostgresStatement {
  private plucked = false;

  constructor(private readonly bridge: PostgresBridge, private readonly compiled: Compiled) {}

  /** Rows come back as their first column's value (better-sqlite3's pluck). */
  pluck(on = true): this {
    this.plucked = on;
    return this;
  }

  get(...params: Params): unknown {
    return this.all(...params)[0];
  }

  all(...params: Params): unknown[] {
    const { rows } = this.bridge.query(this.compiled.text, this.values(params));
    return this.plucked ? rows.map((row) => Object.values(row)[0]) : rows;
  }

  run(...params: Params): RunResult {
    const { rows, rowCount } = this.bridge.query<{ id?: unknown }>(this.compiled.text, this.values(params));
    return { changes: rowCount, lastInsertRowid: Number(rows[0]?.id ?? 0) };
  }

  /** As better-sqlite3 takes them: values one by one, an array of them, or one object for `@name` placeholders. */
  private values(params: Params): unknown[] {
    const flat = params.length === 1 && Array.isArray(params[0]) ? params[0] : params;
    if (this.compiled.names.length === 0) return flat;
    const named = flat[0] as Record<string, unknown> | undefined;
    if (flat.length !== 1 || typeof named !== 'object' || named === null) throw new Error('This statement takes one object of named values.');
    return this.compiled.names.map((name) => {
      if (!(name in named)) throw new Error(`Missing named value @${name}.`);
      return named[name];
    });
  }
}

type Transaction<F extends (...args: never[]) => unknown> = F & { immediate: F; deferred: F };

export class PostgresDatabase {
  private readonly bridge: PostgresBridge;
  /** How deep the transactions in progress are nested: 0 outside one; inner ones are savepoints. */
  private depth = 0;

  constructor(url: string) {
    this.bridge = new PostgresBridge(url);
  }

  get inTransaction(): boolean {
    return this.depth > 0;
  }

  prepare(sql: string): PostgresStatement {
    return new PostgresStatement(this.bridge, compile(sql));
  }

  /** Runs statements without parameters (several, separated by semicolons: a migration). */
  exec(sql: string): this {
    this.bridge.query(sql);
    return this;
  }

  /**
   * better-sqlite3's transaction(): the function runs in a transaction,
   * committed when it returns, rolled back if it throws; called inside another
   * one, it runs in a savepoint instead. `.immediate` also takes the hub's
   * write lock first (see HUB_WRITE_LOCK); `.deferred` and the plain call read
   * first, as on SQLite, and should not write.
   */
  transaction<F extends (...args: never[]) => unknown>(fn: F): Transaction<F> {
    const wrap = (lock: boolean) => ((...args: Parameters<F>) => this.within(lock, () => fn(...args))) as F;
    return Object.assign(wrap(false), { immediate: wrap(true), deferred: wrap(false) });
  }

  async close(): Promise<void> {
    await this.bridge.close();
  }

  private within<T>(lock: boolean, body: () => T): T {
    const savepoint = this.depth > 0 ? `outpost_${this.depth}` : null;
    this.bridge.query(savepoint ? `SAVEPOINT ${savepoint}` : 'BEGIN');
    this.depth++;
    try {
      if (lock && !savepoint) this.bridge.query('SELECT pg_advisory_xact_lock($1)', [HUB_WRITE_LOCK]);
      const result = body();
      this.bridge.query(savepoint ? `RELEASE SAVEPOINT ${savepoint}` : 'COMMIT');
      return result;
    } catch (err) {
      this.bridge.query(savepoint ? `ROLLBACK TO SAVEPOINT ${savepoint}` : 'ROLLBACK');
      throw err;
    } finally {
      this.depth--;
    }
  }
}
