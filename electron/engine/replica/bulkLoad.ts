import type { SqliteDb } from '../db/database.js';
import { BULK_LOAD_SCHEMA, SEARCH_BUILD_SCHEMA, rebuildSearchIndexes, reconnectSearchIndexes } from '../db/searchIndexes.js';
import type { SqlWorker } from '../db/sqlWorker.js';
import { removeFileIfAny } from '../platform/files.js';
import { buildSearchIndexesAside, sqlThreads, startSqlWorker } from '../db/sqlThreads.js';
import { collectGarbageNow } from '../platform/heap.js';
import type { WriteGate } from './writeGate.js';

const SETTING = 'bulk_load_schema';
/**
 * SQLite's page cache during a bulk load, in KiB. The load writes new pages
 * in order and rereads few, so a small cache costs little time, and it keeps
 * the replica's peak memory well under its 200 MB target while the pages of
 * the download are parsed beside it (16 MiB otherwise: measured at 300 000
 * records, a peak of 199 MB with it, 186 MB with this).
 */
const BULK_LOAD_CACHE_KIB = 4096;
/**
 * WAL pages between the load's automatic checkpoints (1 000 otherwise). Each
 * copies the WAL into the database file inside a page's commit, on this
 * thread: every 4 MB, a first sync of a million contacts (gigabytes
 * written) stops for one several hundred times. Every 40 MB: the rows of
 * 100 000 contacts written in ~5 % less time, the WAL never over ~40 MB.
 */
const BULK_LOAD_CHECKPOINT_PAGES = 10_000;
/**
 * Rows a bulk load must have written for its end to run on two threads
 * (finishInParallel): a worker costs ~50 ms and ~12 MB to start, and the
 * indexes of a few thousand rows take milliseconds. A replica that is offline
 * before its first sync tries one every few seconds, writing nothing.
 */
export const PARALLEL_FINISH_ROWS = 5000;

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

/**
 * A replica's first sync is a bulk load of the hub's records (300 000 of them
 * for a large team). Keeping the search indexes current row by row costs
 * several times the load itself, and the big tables' secondary indexes more
 * again, so the first sync runs with those triggers and indexes off and
 * builds them once at the end, sorted, as seeding does. Their SQL is saved
 * first: if the process dies meanwhile, `finishBulkLoad` at the next start
 * puts them back and builds what is missing.
 */
export async function asBulkLoad<T>(db: SqliteDb, load: () => Promise<T>, options: BulkLoadOptions = {}): Promise<{ loaded: T } & Finished> {
  const cacheSize = db.pragma('cache_size', { simple: true }) as number;
  const checkpointPages = db.pragma('wal_autocheckpoint', { simple: true }) as number;
  db.pragma(`cache_size = -${BULK_LOAD_CACHE_KIB}`);
  db.pragma(`wal_autocheckpoint = ${BULK_LOAD_CHECKPOINT_PAGES}`);
  const objects = db.prepare(BULK_LOAD_SCHEMA).all() as SchemaObject[];
  db.transaction(() => {
    db.prepare('INSERT OR REPLACE INTO replica_settings (name, value) VALUES (?, ?)').run(SETTING, JSON.stringify(objects));
    for (const { type, name } of objects) db.exec(`DROP ${type === 'index' ? 'INDEX' : 'TRIGGER'} IF EXISTS ${name}`);
  })();
  const changes = () => db.prepare('SELECT total_changes()').pluck().get() as number;
  const before = changes();
  const ending = async () => {
    // Before the end, which keeps the value it finds to put back (checkpointInBackground).
    db.pragma(`wal_autocheckpoint = ${checkpointPages}`);
    try {
      return await finish(db, changes() - before, options);
    } finally {
      db.pragma(`cache_size = ${cacheSize}`);
    }
  };
  let loaded: T;
  try {
    loaded = await load();
  } catch (err) {
    // The rows written are kept, with their indexes and search: the next sync brings the rest.
    await ending();
    throw err;
  }
  return { loaded, ...(await ending()) };
}

/**
 * Where the end of a bulk load on two threads went (ms): the search indexes
 * built aside on this thread while the worker built the secondary indexes,
 * then the worker's copy of the search indexes in, and its commit.
 */
export interface BulkLoadEnd {
  searchMs: number;
  indexesMs: number;
  copyMs: number;
  commitMs: number;
}

/**
 * A bulk load's end: where its time went (null when it ran on this thread
 * alone), and when the pages it wrote are in the database file (copied there
 * from the WAL after the load is done: checkpointInBackground).
 */
interface Finished {
  end: BulkLoadEnd | null;
  checkpointed: Promise<void>;
}

const DONE: Finished = { end: null, checkpointed: Promise.resolve() };

export interface BulkLoadOptions {
  /** As the engine's own connection was opened (Electron's build of the driver). */
  nativeBinding?: string;
  /** Holds the engine's writes while the end's worker holds the write lock (the replica's: its HTTP writes wait there). */
  writes?: WriteGate;
}

/**
 * Ends a bulk load that wrote `rows`: on two threads when that is worth a worker and the platform has them,
 * otherwise (or if the worker fails) on this one.
 */
async function finish(db: SqliteDb, rows: number, { nativeBinding, writes }: BulkLoadOptions): Promise<Finished> {
  if (rows >= PARALLEL_FINISH_ROWS && sqlThreads) {
    collectGarbageNow();
    try {
      const parallel = finishInParallel(db, nativeBinding);
      return await (writes ? writes.holdWhile(parallel) : parallel);
    } catch (err) {
      // Slower, not wrong: said where a developer looks (a packaged app whose worker cannot load the driver, say).
      console.warn(`Outpost: the first sync's indexes could not be built on a worker thread (${(err as Error).message}); building them on this one.`);
    }
  }
  finishBulkLoad(db);
  return DONE;
}

interface SchemaObject {
  type: 'trigger' | 'index';
  name: string;
  sql: string;
}

/** The saved indexes and triggers of a bulk load under way, or null. */
function savedSchema(db: SqliteDb): SchemaObject[] | null {
  const saved = db.prepare('SELECT value FROM replica_settings WHERE name = ?').pluck().get(SETTING) as string | undefined;
  return saved === undefined ? null : (JSON.parse(saved) as SchemaObject[]);
}

/** Their SQL, safe to run again over a part already built. */
const recreate = (objects: SchemaObject[]) => objects.map(({ sql }) => sql.replace(/^CREATE (TRIGGER|INDEX) /i, 'CREATE $1 IF NOT EXISTS '));
const FORGET_BULK_LOAD = `DELETE FROM replica_settings WHERE name = '${SETTING}'`;

/** Where the search indexes are built aside at the end of a bulk load (beside the database; removed after). */
const asideFile = (db: SqliteDb) => `${db.name}-search-build`;

/** Puts the indexes and triggers back and builds the search indexes, if a bulk load was under way (on this thread). */
export function finishBulkLoad(db: SqliteDb): void {
  const objects = savedSchema(db);
  if (objects === null) return;
  // Left by a process that ended while building aside.
  removeFileIfAny(asideFile(db));
  db.transaction(() => {
    for (const sql of recreate(objects)) db.exec(sql);
    rebuildSearchIndexes(db);
    db.exec(FORGET_BULK_LOAD);
  })();
  reconnectSearchIndexes(db);
}

/**
 * The end of a bulk load on two threads, each about half of it (at 300 000
 * records ~1 s each): a worker's connection builds the secondary indexes
 * while a connection of this thread builds the search indexes in a file
 * aside, a slice at a time (this thread's other work runs between slices:
 * in the desktop app, its window and requests); then the worker copies them
 * in, all in the one transaction that ends the bulk load. Rejects if anything
 * fails (nothing of it kept); `finishBulkLoad` then does it all on this thread
 * (also where a worker cannot load the driver).
 */
async function finishInParallel(db: SqliteDb, nativeBinding: string | undefined): Promise<Finished> {
  const objects = savedSchema(db);
  if (objects === null) return DONE;
  const aside = asideFile(db);
  const worker = startSqlWorker({ file: db.name, nativeBinding, cacheKiB: SORT_CACHE_KIB, sortThreads: SORT_THREADS, autoCheckpoint: false });
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
    await worker.run({ attach: { file: aside, name: SEARCH_BUILD_SCHEMA }, statements: [FORGET_BULK_LOAD], keepOpen: true });
    const began = performance.now();
    const timed = <T>(work: Promise<T>) => work.then((done) => ({ done, ms: performance.now() - began }));
    const search = buildSearchIndexesAside(db.name, aside, { nativeBinding, cacheKiB: BULK_LOAD_CACHE_KIB, signal: stopSearch.signal });
    searchClosed = search.catch(() => undefined);
    const [indexed, searched] = await Promise.all([timed(worker.run({ statements: recreate(objects), keepOpen: true })), timed(search)]);
    const copying = performance.now();
    await worker.run({ statements: searched.done, shadowTables: true, keepOpen: true });
    const committing = performance.now();
    await worker.run({ statements: [] });
    const end = { searchMs: searched.ms, indexesMs: indexed.ms, copyMs: committing - copying, commitMs: performance.now() - committing };
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
