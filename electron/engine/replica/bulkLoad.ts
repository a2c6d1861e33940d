import type { SqliteDb } from '../db/database.js';
import { BULK_LOAD_SCHEMA, rebuildSearchIndexes, reconnectSearchIndexes } from '../db/searchIndexes.js';
import { searchAsideFile } from '../db/searchBuild.js';
import { startSecondThread, type BulkLoadEnd, type SecondThread } from '../db/sqlThreads.js';
import { removeFileIfAny } from '../platform/files.js';
import { collectGarbageNow } from '../platform/heap.js';
import type { WriteGate } from './writeGate.js';

export type { BulkLoadEnd };

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
 * (db/sqlThreads.ts): a worker costs ~50 ms and ~12 MB to start, and the
 * indexes of a few thousand rows take milliseconds. A replica that is offline
 * before its first sync tries one every few seconds, writing nothing.
 */
export const PARALLEL_FINISH_ROWS = 5000;

/**
 * A replica's first sync is a bulk load of the hub's records (300 000 of them
 * for a large team). Keeping the search indexes current row by row costs
 * several times the load itself, and the big tables' secondary indexes more
 * again, so the first sync runs with those triggers and indexes off and
 * builds them once at the end, sorted, as seeding does. Their SQL is saved
 * first: if the process dies meanwhile, `finishBulkLoad` at the next start
 * puts them back and builds what is missing. `load` calls `pageWritten` after
 * each page of rows it writes, so the end's second thread starts as soon as
 * the load has written enough to use one.
 */
export async function asBulkLoad<T>(db: SqliteDb, load: (pageWritten: () => void) => Promise<T>, options: BulkLoadOptions = {}): Promise<{ loaded: T } & Finished> {
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
  let secondThread: SecondThread | null = null;
  // Started as soon as the end will use it, so that it is ready by then.
  const startSecondThreadIfWorthIt = () => {
    if (secondThread === null && changes() - before >= PARALLEL_FINISH_ROWS) secondThread = startSecondThread();
  };
  const ending = async () => {
    // Before the end, which keeps the value it finds to put back (db/sqlThreads.ts, checkpointInBackground).
    db.pragma(`wal_autocheckpoint = ${checkpointPages}`);
    startSecondThreadIfWorthIt();
    try {
      return await finish(db, secondThread, options);
    } finally {
      secondThread?.close();
      db.pragma(`cache_size = ${cacheSize}`);
    }
  };
  let loaded: T;
  try {
    loaded = await load(startSecondThreadIfWorthIt);
  } catch (err) {
    // The rows written are kept, with their indexes and search: the next sync brings the rest.
    await ending();
    throw err;
  }
  return { loaded, ...(await ending()) };
}

/**
 * A bulk load's end: where its time went (null when it ran on this thread
 * alone), and when the pages it wrote are in the database file.
 */
interface Finished {
  end: BulkLoadEnd | null;
  checkpointed: Promise<void>;
}

const DONE: Finished = { end: null, checkpointed: Promise.resolve() };

export interface BulkLoadOptions {
  /** As the engine's own connection was opened (Electron's build of the driver). */
  nativeBinding?: string;
  /** Holds the engine's writes while the end runs on two threads (the replica's: its HTTP writes wait there). */
  writes?: WriteGate;
}

/**
 * Ends a bulk load: on `secondThread` too when it wrote enough for one to be worth it and the platform
 * can (db/sqlThreads.ts), otherwise (or if that fails) on this one.
 */
async function finish(db: SqliteDb, secondThread: SecondThread | null, { nativeBinding, writes }: BulkLoadOptions): Promise<Finished> {
  const objects = savedSchema(db);
  if (objects === null) return DONE;
  if (secondThread) {
    collectGarbageNow();
    try {
      const parallel = secondThread.finish(db, { indexes: recreate(objects), commitWith: [FORGET_BULK_LOAD] }, { nativeBinding });
      const ended = await (writes ? writes.holdWhile(parallel) : parallel);
      if (ended) return ended;
    } catch (err) {
      // Slower, not wrong: said where a developer looks (a packaged app whose worker cannot load the driver, say).
      console.warn(`Outpost: the first sync's indexes could not be built on a second thread (${(err as Error).message}); building them on this one.`);
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

/** Puts the indexes and triggers back and builds the search indexes, if a bulk load was under way (on this thread). */
export function finishBulkLoad(db: SqliteDb): void {
  const objects = savedSchema(db);
  if (objects === null) return;
  // Left by a process that ended while building aside.
  removeFileIfAny(searchAsideFile(db.name));
  db.transaction(() => {
    for (const sql of recreate(objects)) db.exec(sql);
    rebuildSearchIndexes(db);
    db.exec(FORGET_BULK_LOAD);
  })();
  reconnectSearchIndexes(db);
}
