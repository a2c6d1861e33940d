import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { isMainThread } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import {
  BRIDGE_DEFAULTS, DatabaseUnavailableError, refusal, withoutUndefined, withRowObjects,
  type BridgeOptions, type BridgeResult,
} from './postgresBridge.js';
import type { PostgresConnection } from './postgresBridge.js';

/**
 * Synchronous PostgreSQL queries through libpq itself (issue 33): the `libpq`
 * package binds PostgreSQL's own client library, whose PQexecParams blocks
 * the calling thread until the answer is in. A statement costs its round
 * trip and nothing more: no second thread to hand it to, no message to copy
 * each way, no wait for that thread to be scheduled (the bridge's cost,
 * measured at 130–240 µs a statement against 26–41 µs here). Everything else
 * is as the bridge does it (postgresBridge.ts): a lost connection is dropped
 * and the next statement opens another; a transaction's statements never run
 * on another connection; each text with parameters is a named prepared
 * statement; values come back as the engine reads them from SQLite.
 *
 * `libpq` is an optional dependency, built from source against the
 * machine's libpq (Debian: libpq-dev). Where it did not build, the hub uses
 * the bridge; OUTPOST_PG_DRIVER=bridge chooses it anyway.
 *
 * Main thread only. The binding's ConnectSync registers the connection's
 * socket with libuv's default loop, the main thread's, whatever thread calls
 * it (for its asynchronous mode, unused here), and its finish closes that
 * handle there: from an engine worker's thread that races the main thread's
 * event loop (the node aborted in uv__finish_close). Engine workers run on
 * the bridge (postgresConnection.ts).
 */

/** The addon's connection class, called by its native methods (the package's index.js wraps them, adding nothing used here). */
interface PQ {
  $connectSync(conninfo: string): boolean;
  $getLastErrorMessage(): string;
  $finish(): void;
  $exec(text: string): void;
  $execParams(text: string, values: (string | null)[]): void;
  $prepare(name: string, text: string, count: number): void;
  $execPrepared(name: string, values: (string | null)[]): void;
  $resultStatus(): string;
  $resultErrorFields(): { sqlState?: string; messagePrimary?: string } | null;
  $transactionStatus(): number;
  $ntuples(): number;
  $nfields(): number;
  $fname(column: number): string;
  $ftype(column: number): number;
  $getvalue(row: number, column: number): string;
  $getisnull(row: number, column: number): boolean;
  $cmdTuples(): string;
  $clear(): void;
}

/** PQtransactionStatus when the connection is bad (lost, terminated, never made). */
const PQTRANS_UNKNOWN = 4;

type Parser = (text: string) => unknown;

/** Values as SQLite gives them to the engine (the bridge's worker reads them so too): see postgresBridge.ts. */
const PARSERS: Record<number, Parser> = {
  20: Number, // int8: ids and counts, far below 2^53
  1700: Number, // numeric: sums
  16: (text) => (text === 't' ? 1 : 0), // bool
  114: (text) => text, // json, as its text
  3802: (text) => text, // jsonb
};

const here = typeof __filename === 'string' ? __filename : fileURLToPath(import.meta.url);
const requireHere = createRequire(here);

let binding: { PQ: new () => PQ; prepareValue: (value: unknown) => unknown; parserOf: (oid: number) => Parser } | null | undefined;

/**
 * The binding and node-postgres' value conversions, loaded once; null where `libpq` is not installed or did not
 * build. A built one that fails to load throws: a thread must not quietly run on the other driver.
 */
function loadBinding(): typeof binding {
  if (binding !== undefined) return binding;
  const file = builtAddon();
  if (file === null) return (binding = null);
  const PQ = requireHere(file) as new () => PQ;
  const pg = requireHere('pg') as { types: { getTypeParser(oid: number, format: 'text'): Parser } };
  // node-postgres' own conversion of parameters (dates, arrays, objects as JSON), so both drivers send the same text.
  const { prepareValue } = requireHere('pg/lib/utils.js') as { prepareValue: (value: unknown) => unknown };
  const parsers = new Map<number, Parser>();
  const parserOf = (oid: number): Parser => {
    let parser = parsers.get(oid);
    if (!parser) parsers.set(oid, (parser = PARSERS[oid] ?? pg.types.getTypeParser(oid, 'text')));
    return parser;
  };
  return (binding = { PQ, prepareValue, parserOf });
}

/** The package's entry, if it is installed and its build made the addon; null in a worker thread (see above). */
function builtAddon(): string | null {
  if (!isMainThread) return null;
  try {
    requireHere.resolve('libpq/build/Release/addon.node');
    return requireHere.resolve('libpq');
  } catch {
    return null;
  }
}

/** Whether statements can go through libpq here. */
export function libpqAvailable(): boolean {
  return loadBinding() !== null;
}

export class LibpqConnection implements PostgresConnection {
  private readonly binding: NonNullable<typeof binding>;
  private readonly conninfo: string;
  private readonly maxNames: number;
  private pq: PQ | null = null;
  /** Which connection `pq` is (1, 2, …): a transaction must end on the one it began on. */
  private current = 0;
  private lastConnection = 0;
  /** Prepared statements of the open connection by text, least recently used first. */
  private readonly names = new Map<string, string>();
  private closed = false;

  constructor(url: string, options: BridgeOptions = {}) {
    const loaded = loadBinding();
    if (!loaded) throw new Error('The libpq package is not installed or did not build (npm install libpq, with libpq-dev).');
    this.binding = loaded;
    const settings = { ...BRIDGE_DEFAULTS, ...withoutUndefined(options) };
    this.maxNames = settings.maxNamedStatements;
    const sessionOptions = [
      `-c statement_timeout=${settings.statementTimeoutMs}`,
      `-c lock_timeout=${settings.lockTimeoutMs}`,
      `-c idle_in_transaction_session_timeout=${settings.idleInTransactionTimeoutMs}`,
      // libpq writes notices to stderr (node-postgres drops them): the engine's IF NOT EXISTS would fill it.
      '-c client_min_messages=warning',
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

  /** Which connection answered last (1, 2, …: a new number after each reconnect); 0 before the first. */
  get connection(): number {
    return this.lastConnection;
  }

  query<Row = Record<string, unknown>>(text: string, values: unknown[] = [], onConnection?: number): BridgeResult<Row> {
    return withRowObjects<Row>(this.queryArrays(text, values, onConnection));
  }

  queryArrays(text: string, values: unknown[] = [], onConnection?: number): BridgeResult<unknown[]> {
    if (this.closed) throw new Error('The database connection is not open');
    // Inside a transaction: its connection or none (a new one would run the rest outside it).
    if (onConnection !== undefined && (this.pq === null || onConnection !== this.current)) {
      this.lastConnection = this.current;
      throw refusal({ lost: true, code: '08003', message: 'The connection to PostgreSQL was lost during the transaction, which it rolled back.' });
    }
    const pq = this.pq ?? this.open();
    this.lastConnection = this.current;
    this.run(pq, text, values);
    const answer = this.answer(pq);
    pq.$clear();
    if (answer instanceof Error) {
      // A connection libpq found bad is dropped: the next statement opens another.
      if (pq.$transactionStatus() === PQTRANS_UNKNOWN) this.drop();
      throw answer;
    }
    return answer;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.drop();
  }

  private open(): PQ {
    const pq = new this.binding.PQ();
    if (!pq.$connectSync(this.conninfo)) {
      const message = pq.$getLastErrorMessage().trim();
      finish(pq);
      // The bridge's codes: a refused or unreachable server is unavailable, not refused (isConnectionFailure).
      throw new DatabaseUnavailableError(message, /refused/i.test(message) ? 'ECONNREFUSED' : '08001');
    }
    this.pq = pq;
    this.current++;
    this.names.clear();
    return pq;
  }

  private drop(): void {
    if (this.pq) finish(this.pq);
    this.pq = null;
    this.names.clear();
  }

  /** Sends the statement: texts with parameters as named prepared statements, those without as they are (a migration's several). */
  private run(pq: PQ, text: string, values: unknown[]): void {
    if (values.length === 0) return pq.$exec(text);
    const params = values.map((value) => this.asText(value));
    if (this.maxNames === 0) return pq.$execParams(text, params);
    const name = this.nameOf(pq, text, values.length);
    if (name === null) return; // the prepare failed: its result is the answer
    pq.$execPrepared(name, params);
  }

  /** The prepared statement's name for `text`, prepared on this connection first if need be; null if PostgreSQL refused it. */
  private nameOf(pq: PQ, text: string, count: number): string | null {
    const known = this.names.get(text);
    if (known !== undefined) {
      this.names.delete(text);
      this.names.set(text, known);
      return known;
    }
    if (this.names.size >= this.maxNames) this.evictOldest(pq);
    const name = `l${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    pq.$prepare(name, text, count);
    if (pq.$resultStatus() !== 'PGRES_COMMAND_OK') return null;
    pq.$clear();
    this.names.set(text, name);
    return name;
  }

  private evictOldest(pq: PQ): void {
    const [text, name] = this.names.entries().next().value as [string, string];
    this.names.delete(text);
    pq.$exec(`DEALLOCATE ${name}`);
    pq.$clear();
  }

  /** A parameter as PostgreSQL's text for it (node-postgres' conversion; bytes as bytea's hex). */
  private asText(value: unknown): string | null {
    const prepared = this.binding.prepareValue(value);
    if (prepared === null || prepared === undefined) return null;
    if (Buffer.isBuffer(prepared)) return `\\x${prepared.toString('hex')}`;
    return String(prepared);
  }

  /** The result of the statement just run, or the error it is (its connection lost, when libpq says it is bad). */
  private answer(pq: PQ): BridgeResult<unknown[]> | Error {
    const status = pq.$resultStatus();
    if (status === 'PGRES_TUPLES_OK' || status === 'PGRES_COMMAND_OK' || status === 'PGRES_EMPTY_QUERY') return this.rowsOf(pq);
    const fields = pq.$resultErrorFields();
    const lost = pq.$transactionStatus() === PQTRANS_UNKNOWN;
    const message = fields?.messagePrimary ?? (pq.$getLastErrorMessage().trim() || status);
    return refusal({ lost, message, code: fields?.sqlState ?? (lost ? '08006' : undefined) });
  }

  private rowsOf(pq: PQ): BridgeResult<unknown[]> {
    const columns = pq.$nfields();
    const fields: string[] = [];
    const parsers: Parser[] = [];
    for (let c = 0; c < columns; c++) {
      fields.push(pq.$fname(c));
      parsers.push(this.binding.parserOf(pq.$ftype(c)));
    }
    const count = pq.$ntuples();
    const rows: unknown[][] = new Array(count);
    for (let r = 0; r < count; r++) {
      const row: unknown[] = new Array(columns);
      for (let c = 0; c < columns; c++) row[c] = pq.$getisnull(r, c) ? null : parsers[c]!(pq.$getvalue(r, c));
      rows[r] = row;
    }
    const affected = pq.$cmdTuples();
    return { rows, fields, rowCount: affected === '' ? count : Number(affected) };
  }
}

/** Connections finished in the last moments, kept from the garbage collector (below). */
const finishing = new Set<PQ>();

/**
 * Ends a connection. The binding's finish closes a libuv handle that libuv
 * reads again when the loop next runs its close callbacks: the object stays
 * referenced until well after, or a collection could free it first.
 */
function finish(pq: PQ): void {
  pq.$finish();
  finishing.add(pq);
  setTimeout(() => finishing.delete(pq), 1_000).unref();
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
