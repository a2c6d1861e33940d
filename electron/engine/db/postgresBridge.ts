import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';

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
 * Its bench line (npm run bench) measured what this costs a statement
 * beside node-postgres awaited: the design's option 2 held.
 */

/** The worker's whole program, run from this string so it needs no file of its own (as db/sqlWorker.ts). */
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { Client, types } = require(workerData.driver);
// 64-bit integers (ids, counts) as numbers, as better-sqlite3 gives them; the engine's ids stay far below 2^53.
types.setTypeParser(20, (text) => Number(text));
// The rest as SQLite gives them to the engine: sums (numeric) as numbers, booleans as 1 and 0, JSON as its text.
types.setTypeParser(1700, (text) => Number(text));
types.setTypeParser(16, (text) => (text === 't' ? 1 : 0));
types.setTypeParser(114, (text) => text);
types.setTypeParser(3802, (text) => text);
const flag = new Int32Array(workerData.flag);
const port = workerData.port;
const client = new Client({ connectionString: workerData.url });
// A lost connection fails the statement waiting on it (and every later one), not the process.
client.on('error', () => {});
const connected = client.connect();
// Every answer carries its request's id: one that comes after its request gave up waiting is told apart.
function answer(id, message) {
  port.postMessage({ id, ...message });
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
}
port.on('message', async (request) => {
  const id = request.id;
  try {
    await connected;
    if (request.end) {
      await client.end();
      answer(id, { ok: true, rows: [], fields: [], rowCount: 0 });
      port.close();
      return;
    }
    // Rows as arrays: a statement may name two columns alike (a.id, b.id), which objects would merge.
    const answered = await client.query({ text: request.text, values: request.values, rowMode: 'array' });
    // Several statements (a migration) answer one result each: the last one is the answer.
    const result = Array.isArray(answered) ? answered[answered.length - 1] : answered;
    answer(id, { ok: true, rows: result.rows, fields: (result.fields || []).map((f) => f.name), rowCount: result.rowCount ?? 0 });
  } catch (err) {
    answer(id, { ok: false, message: String((err && err.message) || err), code: err && err.code });
  }
});
`;

export interface BridgeResult<Row = Record<string, unknown>> {
  rows: Row[];
  /** The columns' names, in order. */
  fields: string[];
  /** Rows inserted, updated, deleted or returned. */
  rowCount: number;
}

/**
 * PostgreSQL's SQLSTATE for a NUL character in text, which it cannot hold. Bodies are refused earlier
 * (http/bodyParsers.ts); a path or query may still carry one (%00) to a lookup on a PostgreSQL hub.
 */
export const NUL_REFUSED = '22021';

/** A statement PostgreSQL refused; `code` is its SQLSTATE (23505: a unique value taken). */
export class PostgresError extends Error {
  constructor(message: string, readonly code: string | undefined) {
    super(message);
  }
}

type Answer = { ok: true; rows: unknown[][]; fields: string[]; rowCount: number } | { ok: false; message: string; code?: string };
type Request = { id: number; text: string; values: unknown[] } | { id: number; end: true };

export class PostgresBridge {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));
  private closed = false;
  private lastId = 0;

  /** `timeoutMs`: the longest one statement may take (a lost connection or a dead worker answers nothing). */
  constructor(url: string, private readonly timeoutMs = 30_000) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver: driverPath(), url, flag: this.flag.buffer, port: port2 },
      transferList: [port2],
    });
    // The worker lives as long as the bridge; it must not keep a process alive that is otherwise done.
    this.worker.unref();
  }

  /** Runs one statement (`$1`-style parameters) and returns its rows; throws PostgresError if PostgreSQL refuses it. */
  query<Row = Record<string, unknown>>(text: string, values: unknown[] = []): BridgeResult<Row> {
    const { rows, fields, rowCount } = this.queryArrays(text, values);
    return { rows: rows.map((row) => Object.fromEntries(fields.map((field, i) => [field, row[i]]))) as Row[], fields, rowCount };
  }

  /** As `query`, with each row as an array of its values. */
  queryArrays(text: string, values: unknown[] = []): BridgeResult<unknown[]> {
    if (this.closed) throw new Error('The database connection is not open');
    const answer = this.exchange({ id: ++this.lastId, text, values });
    if (!answer.ok) throw new PostgresError(answer.message, answer.code);
    return { rows: answer.rows, fields: answer.fields, rowCount: answer.rowCount };
  }

  /** Ends the connection and the worker. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.exchange({ id: ++this.lastId, end: true });
    this.closed = true;
    await this.worker.terminate();
  }

  private exchange(request: Request): Answer {
    Atomics.store(this.flag, 0, 0);
    this.port.postMessage(request);
    const deadline = performance.now() + this.timeoutMs;
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
        throw new Error(`PostgreSQL did not answer within ${this.timeoutMs} ms.`);
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

/** node-postgres' entry file, found from this module (ES modules under tsx and Vitest) or the bundle (CommonJS). */
function driverPath(): string {
  const here = typeof __filename === 'string' ? __filename : fileURLToPath(import.meta.url);
  return createRequire(here).resolve('pg');
}
