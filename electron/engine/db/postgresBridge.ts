import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { DatabaseUnavailableError, PostgresError } from './databaseErrors.js';

export { DatabaseUnavailableError, PostgresError, unavailableDatabase } from './databaseErrors.js';

/**
 * Synchronous PostgreSQL queries for the engine, whose data access is
 * synchronous throughout (better-sqlite3): phase 1 of the PostgreSQL hub
 * (docs/design/postgres-hub.md). A worker thread holds a node-postgres
 * connection; `query` posts the statement to it and waits on a shared flag
 * (Atomics.wait) until the worker has posted the answer, then takes it off
 * the port at once (receiveMessageOnPort). The engine's thread runs one
 * statement at a time, as it does with SQLite; a transaction is the
 * connection's (BEGIN … COMMIT through `query`).
 *
 * Sturdiness: a connection that is lost (the database restarted
 * or failed over, the backend was terminated, the network went silent) is
 * dropped, and the next statement opens a new one; meanwhile statements fail
 * with DatabaseUnavailableError, as do those cancelled by statement_timeout
 * or lock_timeout, which every connection sets. A statement of a transaction
 * names the connection it began on and never runs on another. Each distinct
 * text with parameters is a named prepared statement, parsed and planned
 * once per connection.
 *
 * Its bench line (npm run bench) measured what this costs a statement
 * beside node-postgres awaited: the design's option 2 held.
 */

/**
 * PostgreSQL's values as SQLite gives them to the engine, by type oid: 64-bit
 * integers (ids, counts; the engine's stay far below 2^53) and sums (numeric)
 * as numbers, booleans as 1 and 0, JSON as its text. Both drivers read them
 * so: the worker below (written into its source: each is self-contained) and
 * libpq (libpqConnection.ts).
 */
export const VALUE_PARSERS: Readonly<Record<number, (text: string) => unknown>> = {
  20: (text) => Number(text), // int8
  1700: (text) => Number(text), // numeric
  16: (text) => (text === 't' ? 1 : 0), // bool
  114: (text) => text, // json
  3802: (text) => text, // jsonb
};

/** The worker's whole program, run from this string so it needs no file of its own (as db/sqlWorker.ts). */
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { Client, types } = require(workerData.driver);
${Object.entries(VALUE_PARSERS).map(([oid, parse]) => `types.setTypeParser(${oid}, ${parse.toString()});`).join('\n')}
const flag = new Int32Array(workerData.flag);
const port = workerData.port;
const settings = workerData.settings;

// The open connection, or null: a lost one is dropped and the next statement opens another.
let client = null;
// Which connection \`client\` is (1, 2, …): a transaction must end on the one it began on.
let connection = 0;

function drop(which) {
  if (client !== which) return;
  client = null;
  which.end().catch(() => {});
}

async function open() {
  const next = new Client({
    connectionString: settings.url,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    keepAlive: true,
    // The session's settings, on every connection (a new one after a reconnect too).
    options: settings.sessionOptions,
  });
  // A lost connection fails the statement waiting on it, not the process; the next statement opens another.
  next.on('error', () => drop(next));
  next.on('end', () => drop(next));
  try {
    await next.connect();
  } catch (err) {
    next.end().catch(() => {});
    throw err;
  }
  client = next;
  connection++;
  return next;
}

// Prepared statements by text, least recently used first: PostgreSQL parses and plans each once per
// connection. Capped, for texts built per request; an evicted one is deallocated on the connection.
const names = new Map();
function nameOf(current, text, values) {
  // Parameterless texts may hold several statements (a migration), which a prepared statement cannot.
  if (settings.maxNames === 0 || values.length === 0) return undefined;
  let name = names.get(text);
  if (name !== undefined) {
    names.delete(text);
  } else {
    name = 'o' + createHash('sha1').update(text).digest('hex').slice(0, 20);
    if (names.size >= settings.maxNames) evict(current);
  }
  names.set(text, name);
  return name;
}
function evict(current) {
  const [oldest, name] = names.entries().next().value;
  names.delete(oldest);
  const parsed = current.connection.parsedStatements;
  if (parsed[name] === undefined) return;
  delete parsed[name];
  current.query('DEALLOCATE ' + name).catch(() => {});
}

// A statement that outlives statement_timeout (its cancel came first otherwise) is on a connection that
// no longer answers (a network cut): the connection is given up, and the engine told at once.
function withinDeadline(current, pending) {
  let timer;
  const late = new Promise((_resolve, reject) => {
    timer = setTimeout(() => {
      drop(current);
      current.connection.stream.destroy();
      const error = new Error('PostgreSQL did not answer within ' + settings.answerWithinMs + ' ms.');
      error.code = 'ETIMEDOUT';
      reject(error);
    }, settings.answerWithinMs);
  });
  return Promise.race([pending, late]).finally(() => clearTimeout(timer));
}

// Every answer carries its request's id: one that comes after its request gave up waiting is told apart.
function answer(id, message) {
  port.postMessage({ id, connection, ...message });
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
}

async function run(request) {
  const id = request.id;
  if (request.end) {
    if (client) await client.end().catch(() => {});
    client = null;
    answer(id, { ok: true, rows: [], fields: [], rowCount: 0 });
    port.close();
    return;
  }
  // Inside a transaction: its connection or none (a new one would run the rest outside it).
  if (request.connection !== undefined && (client === null || request.connection !== connection)) {
    answer(id, { ok: false, lost: true, code: '08003', message: 'The connection to PostgreSQL was lost during the transaction, which it rolled back.' });
    return;
  }
  let current = client;
  try {
    current = current ?? (await open());
    const name = nameOf(current, request.text, request.values);
    // Rows as arrays: a statement may name two columns alike (a.id, b.id), which objects would merge.
    const answered = await withinDeadline(current, current.query({ text: request.text, values: request.values, name, rowMode: 'array' }));
    // Several statements (a migration) answer one result each: the last one is the answer.
    const result = Array.isArray(answered) ? answered[answered.length - 1] : answered;
    answer(id, { ok: true, rows: result.rows, fields: (result.fields || []).map((f) => f.name), rowCount: result.rowCount ?? 0 });
  } catch (err) {
    // pg marks a connection that failed (lost, terminated, timed out) unqueryable: the next statement opens another.
    const lost = current === null || current._ending || !current._queryable || /^(08|57P0[123])/.test((err && err.code) || '');
    if (current && lost) drop(current);
    answer(id, { ok: false, lost, message: String((err && err.message) || err), code: err && err.code });
  }
}

// One statement at a time, in order: a reconnect must not let a later statement overtake.
let queue = Promise.resolve();
port.on('message', (request) => {
  queue = queue.then(() => run(request));
});
`;

export interface BridgeResult<Row = Record<string, unknown>> {
  rows: Row[];
  /** The columns' names, in order. */
  fields: string[];
  /** Rows inserted, updated, deleted or returned. */
  rowCount: number;
}


/** SQLSTATEs of a database that is busy rather than wrong: 57014 statement_timeout, 55P03 lock_timeout. */
const BUSY = new Set(['57014', '55P03']);

/** A failure of the connection rather than of the statement: SQLSTATE class 08, a shutdown (57P01–03), or the network's. */
export function isConnectionFailure(code: string | undefined, message: string): boolean {
  if (code && (/^08/.test(code) || /^57P0[123]$/.test(code))) return true;
  if (code && ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN'].includes(code)) return true;
  return /Connection terminated|timeout expired|Client was closed|not queryable|connection timeout/i.test(message);
}

export interface BridgeOptions {
  /** PostgreSQL's statement_timeout on each connection; 0: none. */
  statementTimeoutMs?: number;
  /** lock_timeout: how long a statement waits for a lock another session holds. */
  lockTimeoutMs?: number;
  /** idle_in_transaction_session_timeout: a transaction left open this long is ended by the server. */
  idleInTransactionTimeoutMs?: number;
  /** How long opening a connection may take. */
  connectTimeoutMs?: number;
  /** How many statement texts get a prepared statement of their own (0: none, each is parsed on every run). */
  maxNamedStatements?: number;
  /** The longest the engine's thread waits for one answer; by default a little more than statement_timeout, so the database's cancel comes first. */
  waitMs?: number;
}

export const BRIDGE_DEFAULTS = {
  statementTimeoutMs: 30_000,
  lockTimeoutMs: 10_000,
  idleInTransactionTimeoutMs: 60_000,
  connectTimeoutMs: 3_000,
  maxNamedStatements: 500,
} as const;

/** A duration from the environment (docs/hub.md names them); unset: undefined; not a whole number of ms: refused. */
export function millisecondsFromEnv(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const text = env[name];
  if (text === undefined || text === '') return undefined;
  if (!/^\d+$/.test(text)) throw new Error(`${name} must be a whole number of milliseconds, not '${text}'.`);
  return Number(text);
}

/** Settings taken from the environment by the names docs/hub.md gives. */
export function bridgeOptionsFromEnv(env: NodeJS.ProcessEnv): BridgeOptions {
  const read = (name: string) => millisecondsFromEnv(env, name);
  return {
    statementTimeoutMs: read('OUTPOST_PG_STATEMENT_TIMEOUT_MS'),
    lockTimeoutMs: read('OUTPOST_PG_LOCK_TIMEOUT_MS'),
    idleInTransactionTimeoutMs: read('OUTPOST_PG_IDLE_IN_TRANSACTION_TIMEOUT_MS'),
    connectTimeoutMs: read('OUTPOST_PG_CONNECT_TIMEOUT_MS'),
  };
}

type Answer = ({ ok: true; rows: unknown[][]; fields: string[]; rowCount: number } | { ok: false; message: string; code?: string; lost: boolean }) & { connection: number };
type Request = { id: number; text: string; values: unknown[]; connection?: number } | { id: number; end: true };

/** A synchronous connection to PostgreSQL, by either driver (postgresConnection.ts chooses): this bridge or libpq. */
export interface PostgresConnection {
  /** Which connection answered last (1, 2, …: a new number after each reconnect); 0 before the first. */
  readonly connection: number;
  /** One statement (`$1`-style parameters); `onConnection`: part of a transaction begun there, failing rather than run on another. */
  query<Row = Record<string, unknown>>(text: string, values?: unknown[], onConnection?: number): BridgeResult<Row>;
  /** As `query`, with each row as an array of its values. */
  queryArrays(text: string, values?: unknown[], onConnection?: number): BridgeResult<unknown[]>;
  close(): Promise<void>;
}

/** What both drivers share: the connection's number, and rows as objects over `queryArrays`. */
export abstract class SyncConnection implements PostgresConnection {
  protected lastConnection = 0;

  /** Which connection answered last (1, 2, …: a new number after each reconnect); 0 before the first. */
  get connection(): number {
    return this.lastConnection;
  }

  /**
   * Runs one statement (`$1`-style parameters) and returns its rows; throws PostgresError if PostgreSQL
   * refuses it, DatabaseUnavailableError if it cannot answer now. `onConnection`: the statement belongs to
   * a transaction begun on that connection, and fails rather than run on another.
   */
  query<Row = Record<string, unknown>>(text: string, values: unknown[] = [], onConnection?: number): BridgeResult<Row> {
    return withRowObjects<Row>(this.queryArrays(text, values, onConnection));
  }

  /** As `query`, with each row as an array of its values. */
  abstract queryArrays(text: string, values?: unknown[], onConnection?: number): BridgeResult<unknown[]>;
  abstract close(): Promise<void>;
}

export class PostgresBridge extends SyncConnection {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));
  private readonly waitMs: number;
  private closed = false;
  private lastId = 0;

  constructor(url: string, options: BridgeOptions = {}) {
    super();
    const settings = { ...BRIDGE_DEFAULTS, ...withoutUndefined(options) };
    // The worker gives up on a connection that stays silent past statement_timeout (its cancel would have come);
    // the engine's thread waits a little longer still, for a worker that is itself stuck.
    const answerWithinMs = (settings.statementTimeoutMs || BRIDGE_DEFAULTS.statementTimeoutMs) + 2_000;
    this.waitMs = options.waitMs ?? answerWithinMs + settings.connectTimeoutMs + 1_000;
    const sessionOptions = [
      `-c statement_timeout=${settings.statementTimeoutMs}`,
      `-c lock_timeout=${settings.lockTimeoutMs}`,
      `-c idle_in_transaction_session_timeout=${settings.idleInTransactionTimeoutMs}`,
    ].join(' ');
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        driver: driverPath(), flag: this.flag.buffer, port: port2,
        settings: { url, sessionOptions, connectTimeoutMs: settings.connectTimeoutMs, answerWithinMs, maxNames: settings.maxNamedStatements },
      },
      transferList: [port2],
    });
    // The worker lives as long as the bridge; it must not keep a process alive that is otherwise done.
    this.worker.unref();
  }

  queryArrays(text: string, values: unknown[] = [], onConnection?: number): BridgeResult<unknown[]> {
    if (this.closed) throw new Error('The database connection is not open');
    const answer = this.exchange({ id: ++this.lastId, text, values, connection: onConnection });
    this.lastConnection = answer.connection;
    if (!answer.ok) throw refusal(answer);
    return { rows: answer.rows, fields: answer.fields, rowCount: answer.rowCount };
  }

  /** Ends the connection and the worker. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      this.exchange({ id: ++this.lastId, end: true });
    } finally {
      await this.worker.terminate();
    }
  }

  private exchange(request: Request): Answer {
    Atomics.store(this.flag, 0, 0);
    this.port.postMessage(request);
    const deadline = performance.now() + this.waitMs;
    for (;;) {
      this.waitForSignal(deadline);
      // The signal is consumed before the port is read: an answer posted after the read sets it again.
      Atomics.store(this.flag, 0, 0);
      const answer = this.takeAnswer(request.id);
      if (answer) return answer;
    }
  }

  /**
   * Waits until the worker has set the flag (it posts an answer first). A
   * wait can also be woken by the worker's notify for the previous answer,
   * late when its thread was preempted between setting the flag and
   * notifying: the flag, still 0, tells that apart, and the wait goes on.
   */
  private waitForSignal(deadline: number): void {
    while (Atomics.load(this.flag, 0) === 0) {
      const left = deadline - performance.now();
      if (left <= 0 || Atomics.wait(this.flag, 0, 0, left) === 'timed-out') {
        throw new DatabaseUnavailableError(`PostgreSQL did not answer within ${this.waitMs} ms.`, undefined);
      }
    }
  }

  /** This request's answer off the port, if posted; answers to earlier requests that gave up waiting are dropped. */
  private takeAnswer(id: number): Answer | undefined {
    for (let received = receiveMessageOnPort(this.port); received; received = receiveMessageOnPort(this.port)) {
      const { id: answered, ...answer } = received.message as Answer & { id: number };
      if (answered === id) return answer as Answer;
    }
    return undefined;
  }
}

/** A result's rows as objects by column name (a name given twice keeps its last value). */
export function withRowObjects<Row>({ rows, fields, rowCount }: BridgeResult<unknown[]>): BridgeResult<Row> {
  return { rows: rows.map((row) => Object.fromEntries(fields.map((field, i) => [field, row[i]]))) as Row[], fields, rowCount };
}

/** A failed answer as the error the engine sees. */
export function refusal(answer: { message: string; code?: string; lost: boolean }): PostgresError {
  const unavailable = answer.lost || BUSY.has(answer.code ?? '') || isConnectionFailure(answer.code, answer.message);
  return unavailable ? new DatabaseUnavailableError(answer.message, answer.code) : new PostgresError(answer.message, answer.code);
}

export function withoutUndefined<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** node-postgres' entry file, found from this module (ES modules under tsx and Vitest) or the bundle (CommonJS). */
function driverPath(): string {
  const here = typeof __filename === 'string' ? __filename : fileURLToPath(import.meta.url);
  return createRequire(here).resolve('pg');
}
