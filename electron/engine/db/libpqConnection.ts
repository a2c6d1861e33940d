import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BRIDGE_DEFAULTS, DatabaseUnavailableError, refusal, SyncConnection, VALUE_PARSERS, withoutUndefined,
  type BridgeOptions, type BridgeResult,
} from './postgresBridge.js';

/**
 * Synchronous PostgreSQL queries through libpq itself: PostgreSQL's
 * own client library, whose PQexecParams blocks the calling thread until the
 * answer is in. A statement costs its round trip and nothing more: no second
 * thread to hand it to, no message to copy each way, no wait for that thread
 * to be scheduled (the bridge's cost, measured at 116–240 µs a statement
 * against 33–67 µs here). Everything else is as the bridge does it
 * (postgresBridge.ts): a lost connection is dropped and the next statement
 * opens another; a transaction's statements never run on another connection;
 * each text with parameters is a named prepared statement; values come back
 * as the engine reads them from SQLite.
 *
 * The binding is the project's own, native/pqsync (Node-API, a few libpq
 * calls), built by `npm install` against the machine's libpq (Debian:
 * libpq-dev); where it was not built, the hub uses the bridge, and
 * OUTPOST_PG_DRIVER=bridge chooses it anyway. The npm `libpq` package (what
 * pg-native wraps) was tried first and dropped: it registers every connection
 * with the main thread's event loop, which from an engine worker's thread
 * raced that loop (a node aborted in uv__finish_close), and as a NAN addon
 * that is not context-aware it loads in one thread of a process only.
 */

/** An answer of native/pqsync: rows as PostgreSQL's text, or the refusal. */
interface NativeAnswer {
  status: string;
  /** The connection is gone (lost, terminated, never made). */
  bad: boolean;
  fields?: string[];
  types?: number[];
  rows?: (string | null)[][];
  tuples?: string;
  sqlState?: string | null;
  message?: string | null;
}

interface NativeConnection {
  /** Null once connected, else why not. */
  connect(conninfo: string): string | null;
  finish(): void;
  exec(text: string): NativeAnswer;
  execParams(text: string, values: (string | null)[]): NativeAnswer;
  prepare(name: string, text: string, count: number): NativeAnswer;
  execPrepared(name: string, values: (string | null)[]): NativeAnswer;
}

type Parser = (text: string) => unknown;

/** Connection failures that are the server's refusal, not its absence, with their SQLSTATEs. */
const CONNECT_REFUSALS: [RegExp, string][] = [
  [/password authentication failed/i, '28P01'],
  [/no pg_hba\.conf entry/i, '28000'],
  [/role "[^"]*" does not exist/i, '28000'],
  [/database "[^"]*" does not exist/i, '3D000'],
];

const here = typeof __filename === 'string' ? __filename : fileURLToPath(import.meta.url);
const requireHere = createRequire(here);
/** Where `npm install` builds the binding (scripts/build-native.mjs); not in the desktop app, which has no PostgreSQL. */
const ADDON = resolve(projectRoot(dirname(here)), 'native/pqsync/build/Release/pqsync.node');

/**
 * The project's folder: the nearest one up with a package.json. This module runs from its source
 * (electron/engine/db/) and from the command's build (dist/cli/), at different depths.
 */
function projectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(resolve(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return from;
  }
}

interface Binding {
  Connection: new () => NativeConnection;
  prepareValue: (value: unknown) => unknown;
  parserOf: (oid: number) => Parser;
}
let binding: Binding | null | undefined;

/** The binding and node-postgres' value conversions, loaded once per thread; null where the binding was not built. */
function loadBinding(): Binding | null {
  if (binding !== undefined) return binding;
  if (!existsSync(ADDON)) return (binding = null);
  const { Connection } = requireHere(ADDON) as { Connection: new () => NativeConnection };
  const pg = requireHere('pg') as { types: { getTypeParser(oid: number, format: 'text'): Parser } };
  // node-postgres' own conversion of parameters (dates, arrays, objects as JSON), so both drivers send the same text.
  const { prepareValue } = requireHere('pg/lib/utils.js') as { prepareValue: (value: unknown) => unknown };
  const parsers = new Map<number, Parser>();
  const parserOf = (oid: number): Parser => {
    let parser = parsers.get(oid);
    if (!parser) parsers.set(oid, (parser = VALUE_PARSERS[oid] ?? pg.types.getTypeParser(oid, 'text')));
    return parser;
  };
  return (binding = { Connection, prepareValue, parserOf });
}

/** Whether statements can go through libpq here. */
export function libpqAvailable(): boolean {
  return loadBinding() !== null;
}

export class LibpqConnection extends SyncConnection {
  private readonly binding: Binding;
  private readonly conninfo: string;
  private readonly maxNames: number;
  private native: NativeConnection | null = null;
  /** Which connection `native` is (1, 2, …): a transaction must end on the one it began on. */
  private current = 0;
  /** Prepared statements of the open connection by text, least recently used first. */
  private readonly names = new Map<string, string>();
  private closed = false;

  constructor(url: string, options: BridgeOptions = {}) {
    super();
    const loaded = loadBinding();
    if (!loaded) throw new Error('native/pqsync is not built (npm install builds it where libpq-dev is installed).');
    this.binding = loaded;
    const settings = { ...BRIDGE_DEFAULTS, ...withoutUndefined(options) };
    this.maxNames = settings.maxNamedStatements;
    const sessionOptions = [
      `-c statement_timeout=${settings.statementTimeoutMs}`,
      `-c lock_timeout=${settings.lockTimeoutMs}`,
      `-c idle_in_transaction_session_timeout=${settings.idleInTransactionTimeoutMs}`,
    ].join(' ');
    this.conninfo = withParameters(url, {
      options: sessionOptions,
      // Whole seconds, at least 2 (libpq's rule).
      connect_timeout: String(Math.max(2, Math.ceil(settings.connectTimeoutMs / 1000))),
      // A network that goes silent fails the statement waiting on it within about 15 s, as the bridge's deadline does.
      keepalives: '1', keepalives_idle: '5', keepalives_interval: '2', keepalives_count: '3',
      tcp_user_timeout: String((settings.statementTimeoutMs || BRIDGE_DEFAULTS.statementTimeoutMs) + 2_000),
    });
  }

  queryArrays(text: string, values: unknown[] = [], onConnection?: number): BridgeResult<unknown[]> {
    if (this.closed) throw new Error('The database connection is not open');
    // Inside a transaction: its connection or none (a new one would run the rest outside it).
    if (onConnection !== undefined && (this.native === null || onConnection !== this.current)) {
      this.lastConnection = this.current;
      throw refusal({ lost: true, code: '08003', message: 'The connection to PostgreSQL was lost during the transaction, which it rolled back.' });
    }
    const native = this.native ?? this.open();
    this.lastConnection = this.current;
    const answer = this.run(native, text, values);
    if (answer.status === 'PGRES_TUPLES_OK' || answer.status === 'PGRES_COMMAND_OK' || answer.status === 'PGRES_EMPTY_QUERY') return this.rowsOf(answer);
    // A connection libpq found gone is dropped: the next statement opens another.
    if (answer.bad) this.drop();
    throw refusal({ lost: answer.bad, message: (answer.message ?? answer.status).trim(), code: answer.sqlState ?? (answer.bad ? '08006' : undefined) });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.drop();
  }

  private open(): NativeConnection {
    const native = new this.binding.Connection();
    const failed = native.connect(this.conninfo);
    if (failed !== null) {
      const message = failed.trim();
      // Unavailable, as on the bridge; libpq gives no SQLSTATE for a failed connection, so the server's refusals are
      // told by their words and given PostgreSQL's codes, as node-postgres gives them to the bridge (a node starting
      // does not wait for a wrong password: untilPostgresAnswers).
      const refused = CONNECT_REFUSALS.find(([words]) => words.test(message));
      throw new DatabaseUnavailableError(message, refused?.[1] ?? (/refused/i.test(message) ? 'ECONNREFUSED' : '08001'));
    }
    this.native = native;
    this.current++;
    this.names.clear();
    return native;
  }

  private drop(): void {
    this.native?.finish();
    this.native = null;
    this.names.clear();
  }

  /** Runs the statement: texts with parameters as named prepared statements, those without as they are (a migration's several). */
  private run(native: NativeConnection, text: string, values: unknown[]): NativeAnswer {
    if (values.length === 0) return native.exec(text);
    const params = values.map((value) => this.asText(value));
    if (this.maxNames === 0) return native.execParams(text, params);
    const prepared = this.prepared(native, text, values.length);
    return typeof prepared === 'string' ? native.execPrepared(prepared, params) : prepared;
  }

  /** The prepared statement's name for `text`, prepared on this connection first if need be; PostgreSQL's refusal if it refused. */
  private prepared(native: NativeConnection, text: string, count: number): string | NativeAnswer {
    const known = this.names.get(text);
    if (known !== undefined) {
      this.names.delete(text);
      this.names.set(text, known);
      return known;
    }
    if (this.names.size >= this.maxNames) this.evictOldest(native);
    const name = `l${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    const answer = native.prepare(name, text, count);
    if (answer.status !== 'PGRES_COMMAND_OK') return answer;
    this.names.set(text, name);
    return name;
  }

  private evictOldest(native: NativeConnection): void {
    const [text, name] = this.names.entries().next().value as [string, string];
    this.names.delete(text);
    native.exec(`DEALLOCATE ${name}`);
  }

  /** A parameter as PostgreSQL's text for it (node-postgres' conversion; bytes as bytea's hex). */
  private asText(value: unknown): string | null {
    const prepared = this.binding.prepareValue(value);
    if (prepared === null || prepared === undefined) return null;
    if (Buffer.isBuffer(prepared)) return `\\x${prepared.toString('hex')}`;
    return String(prepared);
  }

  /** The rows, each value parsed by its column's type. */
  private rowsOf(answer: NativeAnswer): BridgeResult<unknown[]> {
    const fields = answer.fields ?? [];
    const parsers = (answer.types ?? []).map((oid) => this.binding.parserOf(oid));
    const rows = (answer.rows ?? []).map((row) => row.map((text, i) => (text === null ? null : parsers[i]!(text))));
    return { rows, fields, rowCount: answer.tuples ? Number(answer.tuples) : rows.length };
  }
}

/** The connection URL with these parameters added (libpq reads them from its query); `options` goes before any the URL has. */
function withParameters(url: string, parameters: Record<string, string>): string {
  const parsed = new URL(url);
  const given = new Map(parsed.searchParams);
  for (const [name, value] of Object.entries(parameters)) {
    const own = given.get(name);
    if (name === 'options' && own) given.set(name, `${value} ${own}`);
    else if (own === undefined) given.set(name, value);
  }
  // Percent-encoded by hand: URLSearchParams writes a space as '+', which libpq reads as a plus.
  const query = [...given].map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&');
  return `${url.split('?')[0]}?${query}`;
}
