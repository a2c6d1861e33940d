import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/** One batch for the worker: statements run in its transaction (begun by the first batch, committed by the last). */
export interface SqlBatch {
  statements: string[];
  /** A database file to attach as `name` before the transaction begins (ATTACH cannot run inside one); detached after it. */
  attach?: { file: string; name: string };
  /** Lets the batch write FTS5's shadow tables, which SQLite's defensive mode keeps for FTS5 itself. */
  shadowTables?: boolean;
  /** Leaves the transaction open for the next batch (its write lock held) instead of committing. */
  keepOpen?: boolean;
}

/**
 * The worker's whole program, plain CommonJS run from this string (`eval`),
 * so it needs no file of its own in any of the ways the engine is run: as
 * TypeScript through tsx or Vitest, or bundled into the desktop app or the
 * bench. It only runs SQL: the engine's own functions (phone_terms, now_utc)
 * do not exist on its connection. A failing batch rolls the transaction back.
 */
const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { nativeBinding: workerData.nativeBinding });
db.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
db.pragma('cache_size = -' + workerData.cacheKiB);
db.pragma('threads = ' + workerData.sortThreads);
if (!workerData.autoCheckpoint) db.pragma('wal_autocheckpoint = 0');
const attached = [];
function end(sql) {
  if (db.inTransaction) db.exec(sql);
  for (const name of attached.splice(0)) db.exec('DETACH ' + name);
}
parentPort.on('message', (batch) => {
  if (batch === null) {
    db.close();
    parentPort.close();
    return;
  }
  try {
    if (batch.checkpoint) {
      db.pragma('wal_checkpoint(PASSIVE)');
      parentPort.postMessage({ ok: true });
      return;
    }
    if (batch.attach) {
      db.prepare('ATTACH ? AS ' + batch.attach.name).run(batch.attach.file);
      db.pragma(batch.attach.name + '.cache_size = -' + workerData.cacheKiB);
      attached.push(batch.attach.name);
    }
    if (!db.inTransaction) db.exec('BEGIN');
    db.unsafeMode(Boolean(batch.shadowTables));
    try {
      for (const sql of batch.statements) db.exec(sql);
    } finally {
      db.unsafeMode(false);
    }
    if (!batch.keepOpen) end('COMMIT');
    parentPort.postMessage({ ok: true });
  } catch (err) {
    try { end('ROLLBACK'); } catch {}
    parentPort.postMessage({ ok: false, message: String((err && err.message) || err) });
  }
});
`;

export interface SqlWorkerOptions {
  /** The database file (opened by the worker with its own connection). */
  file: string;
  /** As the engine's own connection was opened (Electron's build of the driver). */
  nativeBinding?: string;
  /** SQLite's page cache of the worker's connection. */
  cacheKiB: number;
  /**
   * Threads SQLite may add to sort for CREATE INDEX (PRAGMA threads; 0, the
   * default: none). They help once this thread has less to do than the worker.
   */
  sortThreads?: number;
  /**
   * Whether its commits copy the WAL into the database file when it has
   * grown (SQLite's automatic checkpoint, the default); without, `checkpoint`
   * does it when the caller chooses.
   */
  autoCheckpoint?: boolean;
}

/**
 * A second connection to a database on a thread of its own, for long
 * statements (CREATE INDEX over a whole table) that can run while this
 * thread does other work. SQLite lets one connection write at a time: the
 * worker's transaction holds the write lock, so this thread may read the
 * database meanwhile, and write only other (attached) databases.
 */
export class SqlWorker {
  private readonly worker: Worker;
  /** The answer each batch sent, in order; a worker that ends or fails answers every batch still waiting. */
  private readonly waiting: { resolve(): void; reject(err: Error): void }[] = [];
  private failure: Error | null = null;

  constructor(options: SqlWorkerOptions) {
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      // It runs a few lines of JavaScript; SQLite's memory is not V8's and is bounded by cacheKiB.
      resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 2 },
      workerData: { driver: driverPath(), file: options.file, nativeBinding: options.nativeBinding, busyTimeoutMs: 10_000, cacheKiB: options.cacheKiB, sortThreads: options.sortThreads ?? 0, autoCheckpoint: options.autoCheckpoint ?? true },
    });
    this.worker.on('message', (answer: { ok: boolean; message?: string }) => {
      const batch = this.waiting.shift();
      if (answer.ok) batch?.resolve();
      else batch?.reject(new Error(`SQL worker: ${answer.message}`));
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => this.fail(new Error(`SQL worker ended (exit code ${code})`)));
  }

  /** Runs the batch on the worker's connection; rejects (the transaction rolled back) if a statement fails. */
  run(batch: SqlBatch): Promise<void> {
    return this.send(batch);
  }

  /** Copies what the WAL holds into the database file (a passive checkpoint: writers go on meanwhile), outside any transaction. */
  checkpoint(): Promise<void> {
    return this.send({ checkpoint: true });
  }

  private send(message: SqlBatch | { checkpoint: true }): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.worker.postMessage(message);
    });
  }

  /** Closes the worker's connection (rolling back a transaction left open) and ends its thread, after the batches already sent. */
  async close(): Promise<void> {
    if (this.failure) return;
    const ended = new Promise((resolve) => this.worker.once('exit', resolve));
    this.worker.postMessage(null);
    await ended;
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const batch of this.waiting.splice(0)) batch.reject(this.failure);
  }
}

/**
 * The entry file of the database driver this engine loaded, for the worker
 * to load the same copy. The engine runs as ES modules (tsx, Vitest), where
 * it is found from this module's URL, and bundled as CommonJS (the desktop
 * app, the bench), where `__filename` is the bundle. In a packaged app the
 * driver is unpacked beside app.asar (electron-builder.yml, asarUnpack), so
 * a worker loads it from there without Electron's asar support.
 */
function driverPath(): string {
  const here = typeof __filename === 'string' ? __filename : fileURLToPath(import.meta.url);
  return createRequire(here).resolve('better-sqlite3').replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}
