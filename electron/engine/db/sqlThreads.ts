import type { SqliteDb } from './database.js';
import { buildSearchIndexesAside } from './searchBuildAside.js';
import { searchAsideFile } from './searchBuild.js';
import { SEARCH_BUILD_SCHEMA } from './searchIndexes.js';
import { SqlWorker } from './sqlWorker.js';
import { removeFileIfAny } from '../platform/files.js';

/**
 * The end of a bulk load on two threads, Node's side (sqlThreads.web.ts is
 * the browser's): a worker thread's connection builds the secondary indexes
 * while a connection of this thread builds the search indexes in a file
 * aside, a slice at a time (this thread's other work runs between slices:
 * in the desktop app, its window and requests); then the worker copies them
 * in, all in the one transaction that ends the bulk load.
 */

/** What ends a bulk load: the secondary indexes and triggers to make again, and what its commit also runs. */
export interface BulkLoadEndPlan {
  indexes: string[];
  commitWith: string[];
}

/**
 * Where the end of a bulk load on two threads went (ms): the search indexes
 * built aside on one thread while the other built the secondary indexes,
 * then their copy in, and its commit (null: timed with the copy). `on`
 * says which thread did which, for the first sync's log line.
 */
export interface BulkLoadEnd {
  searchMs: number;
  indexesMs: number;
  copyMs: number;
  commitMs: number | null;
  on: { indexes: string; search: string };
}

/** Node's: the worker builds the secondary indexes, this thread every search index. */
const THREADS = { indexes: 'on a worker', search: 'here' };

export interface ParallelEnd {
  end: BulkLoadEnd;
  /** When the pages the end wrote are in the database file (checkpointInBackground). */
  checkpointed: Promise<void>;
}

/**
 * The worker's page cache at the end, in KiB. With sort threads, SQLite sorts
 * an index's keys in runs of about this size on each thread, and runs that
 * fit a core's own cache sort faster: at a million contacts the 22 indexes
 * alone took 8.2 s with 2 MiB against 8.7–9.6 s with 4 MiB. Beside the search
 * build on a 2-core machine the two were level (9.4 against 9.5 s, seven
 * alternating runs); the sorts gain where a core is free.
 */
const SORT_CACHE_KIB = 2048;

/**
 * Threads the end's index builds may sort on besides the worker's own
 * (PRAGMA threads). This thread builds the search indexes meanwhile but
 * finishes first (at a million contacts, ~7 s against the worker's ~11 s);
 * the sorts then take the core it leaves. Measured there: the 22 indexes
 * alone in 7.5 s instead of 9.5 s with a core free, the whole end 0.5–1 s
 * shorter, the peak ~5 MB higher.
 */
const SORT_THREADS = 2;

/** The search build's page cache, for each of its two files (as the bulk load's own). */
const SEARCH_CACHE_KIB = 4096;

export interface ParallelEndOptions {
  /** As the engine's own connection was opened (Electron's build of the driver). */
  nativeBinding?: string;
}

/**
 * The second thread of a bulk load's end, started before the end where it
 * needs time to be ready (the browser's). `finish` ends the bulk load as
 * `plan` says on two threads (at 300 000 records ~1 s each); it rejects if
 * anything fails, nothing of it kept, and the caller then does it all on
 * this thread (also where a worker cannot load the driver). It resolves null
 * where the end does not run on two threads (never, on Node). `close` frees
 * what `finish` did not use.
 */
export interface SecondThread {
  finish(db: SqliteDb, plan: BulkLoadEndPlan, options: ParallelEndOptions): Promise<ParallelEnd | null>;
  close(): void;
}

/** On Node the worker starts at the end (in ~50 ms, while this thread begins the search build). */
export function startSecondThread(): SecondThread {
  return { finish: finishOnTwoThreads, close: () => undefined };
}

async function finishOnTwoThreads(db: SqliteDb, plan: BulkLoadEndPlan, { nativeBinding }: ParallelEndOptions): Promise<ParallelEnd | null> {
  const aside = searchAsideFile(db.name);
  const worker = new SqlWorker({ file: db.name, nativeBinding, cacheKiB: SORT_CACHE_KIB, sortThreads: SORT_THREADS, autoCheckpoint: false });
  // Ends the search build at its next slice if the worker failed first.
  const stopSearch = new AbortController();
  // Settles once the search build's connection is closed (the file aside is removed only then: Windows keeps an open file).
  let searchClosed: Promise<unknown> = Promise.resolve();
  let handedOver = false;
  try {
    removeFileIfAny(aside);
    // The worker's transaction writes first, taking the write lock until it commits: a write made here
    // meanwhile waits for it (WriteGate) and finds the triggers back, so none falls between the search
    // indexes built aside (from the tables as they are now) and their copy.
    await worker.run({ attach: { file: aside, name: SEARCH_BUILD_SCHEMA }, statements: plan.commitWith, keepOpen: true });
    const began = performance.now();
    const timed = <T>(work: Promise<T>) => work.then((done) => ({ done, ms: performance.now() - began }));
    const search = buildSearchIndexesAside(db.name, aside, { nativeBinding, cacheKiB: SEARCH_CACHE_KIB, signal: stopSearch.signal });
    searchClosed = search.catch(() => undefined);
    const [indexed, searched] = await Promise.all([timed(worker.run({ statements: plan.indexes, keepOpen: true })), timed(search)]);
    const copying = performance.now();
    await worker.run({ statements: searched.done, shadowTables: true, keepOpen: true });
    const committing = performance.now();
    await worker.run({ statements: [] });
    const end = { searchMs: searched.ms, indexesMs: indexed.ms, copyMs: committing - copying, commitMs: performance.now() - committing, on: THREADS };
    handedOver = true;
    return { end, checkpointed: checkpointInBackground(db, worker) };
  } finally {
    stopSearch.abort();
    await searchClosed;
    if (!handedOver) await worker.close();
    removeFileIfAny(aside);
  }
}

/**
 * Copies the WAL the end wrote (its indexes: ~400 MB at a million contacts)
 * into the database file on the worker, then ends it, while the replica goes
 * on: SQLite would otherwise do it inside the end's commit (0.3 s on a quiet
 * disk, 2.4–2.6 s in the bench after it had written gigabytes). Readers and
 * writers go on meanwhile (WAL mode); this connection's own automatic
 * checkpoints wait for it, or its next write would do the same copy at once.
 * Nothing is lost if it fails or the process ends: the pages are in the WAL,
 * and a later checkpoint copies them.
 */
function checkpointInBackground(db: SqliteDb, worker: SqlWorker): Promise<void> {
  const autoCheckpoint = db.pragma('wal_autocheckpoint', { simple: true }) as number;
  db.pragma('wal_autocheckpoint = 0');
  return worker.checkpoint()
    .catch((err: Error) => console.warn(`Outpost: the first sync's pages were not copied into the database file yet (${err.message}); a later write does it.`))
    .finally(async () => {
      await worker.close();
      if (db.open) db.pragma(`wal_autocheckpoint = ${autoCheckpoint}`);
    });
}
