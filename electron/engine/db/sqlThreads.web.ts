import type { SqliteDb } from './database.js';
import { searchAsideFile } from './searchBuild.js';
import { copySearchIndexesIn, searchIndexesNamed, type AttachBuilt } from './searchBuildCopy.js';
import { rebuildSearchIndexes } from './searchIndexes.js';
import { SEARCH_INDEXES } from './searchIndexSql.js';
import { databaseFileBytes, putDatabaseFile, removeDatabaseFile } from './sqliteDriver.web.js';
import type * as NodeSide from './sqlThreads.js';
import type { BulkLoadEndPlan, ParallelEnd, SecondThread } from './sqlThreads.js';

/**
 * The end of a bulk load on two threads in the browser (sqlThreads.ts is
 * Node's). The database has one connection, the engine worker's, and its
 * file belongs to that worker (OPFS's pool), so a helper worker
 * (browser/searchBuildWorker.ts) builds the contacts' search index from a
 * copy of the file, in its memory, while the engine builds the secondary
 * indexes and the other search indexes; the engine then copies the helper's
 * in, in the transaction that ends the bulk load.
 */

/**
 * The largest database file copied to the helper, in bytes. The helper holds
 * the copy twice for a moment (handed over, then in its WebAssembly memory),
 * and what it builds twice (in memory, then handed back): at 100 000
 * contacts a 38 MiB file and a 60 MiB index, ~200 MB at the peak, freed when
 * the helper ends. Larger databases (above ~160 000 contacts) end on one
 * thread, more slowly, in no more memory than the engine's own.
 */
const MAX_COPY_BYTES = 64 * 1024 * 1024;

/**
 * The search indexes the helper builds: the contacts', which holds a sales
 * team's most rows and the costliest terms (name parts, phone suffixes): at
 * 10 000 contacts ~95 % of the five indexes' build. The engine builds the
 * others after the secondary indexes.
 */
const BUILT_BY_HELPER = searchIndexesNamed(['contacts_fts']);
const BUILT_BY_ENGINE = SEARCH_INDEXES.filter((index) => !BUILT_BY_HELPER.includes(index));
const THREADS = { indexes: 'here (with the other search indexes)', search: "on a helper worker (the contacts')" };

/** What the helper is asked: a copy of the database file, handed over, and the search indexes to build from it. */
export interface SearchBuildAsk {
  file: Uint8Array;
  indexes: string[];
}

/** What the helper answers: the bytes of the database that holds the search indexes, or why it could not. */
export type SearchBuildAnswer = { built: Uint8Array } | { error: string };

/**
 * Starts the helper now, so that it has loaded SQLite's WebAssembly by the
 * end: a worker started at the end began only once the engine's thread was
 * free again (after the secondary indexes), since its start needs its
 * starter's thread.
 */
export function startSecondThread(): SecondThread {
  const helper = new Worker(new URL('../../browser/searchBuildWorker.ts', import.meta.url), { type: 'module', name: 'outpost-search-build' });
  const answer = new Promise<Uint8Array>((resolve, reject) => {
    helper.onmessage = ({ data }: MessageEvent<SearchBuildAnswer>) => {
      if ('built' in data) resolve(data.built);
      else reject(new Error(`the search build worker failed: ${data.error}`));
    };
    helper.onerror = (event) => reject(new Error(`the search build worker failed: ${event.message || 'it could not start'}`));
  });
  // A failure to start matters only once the end asks; a helper never asked is ended by close().
  answer.catch(() => undefined);
  const build = (file: Uint8Array) => {
    const ask: SearchBuildAsk = { file, indexes: BUILT_BY_HELPER.map(({ fts }) => fts) };
    helper.postMessage(ask, [file.buffer]);
    return answer;
  };
  return {
    finish: (db, plan) => finishOnTwoThreads(db, plan, build),
    close: () => helper.terminate(),
  };
}

async function finishOnTwoThreads(db: SqliteDb, plan: BulkLoadEndPlan, build: (file: Uint8Array) => Promise<Uint8Array>): Promise<ParallelEnd | null> {
  // Its size first: the copy itself is what must not be made of a file too large.
  const bytes = (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
  if (bytes > MAX_COPY_BYTES) return null;
  const file = databaseFileBytes(db.name);
  const began = performance.now();
  const search = build(file).then((built) => ({ built, ms: performance.now() - began }));
  // Awaited below, unless the indexes fail first: then the caller's end on one thread is what matters.
  search.catch(() => undefined);
  // Committed on its own: if the helper fails, the caller's end on one thread finds these built and builds the rest.
  db.transaction(() => {
    for (const sql of plan.indexes) db.exec(sql);
    rebuildSearchIndexes(db, BUILT_BY_ENGINE);
  })();
  const indexesMs = performance.now() - began;
  const { built, ms: searchMs } = await search;
  const copying = performance.now();
  copySearchIndexesIn(db, attachFromPool(db, built), BUILT_BY_HELPER, plan.commitWith);
  return { end: { searchMs, indexesMs, copyMs: performance.now() - copying, commitMs: null, on: THREADS }, checkpointed: Promise.resolve() };
}

/**
 * Attaches `built` through a file of the pool, removed after. The engine's
 * WebAssembly memory never shrinks, so reading it from there instead of
 * loading it into memory spares the worker the index's size for good (60 MiB
 * at 100 000 contacts), at ~0.13 s more there. A file a closed tab left
 * behind is replaced by name at the next first sync's end.
 */
function attachFromPool(db: SqliteDb, built: Uint8Array): AttachBuilt {
  return (schema) => {
    const file = searchAsideFile(db.name);
    try {
      db.prepare(`ATTACH ? AS ${schema}`).run(putDatabaseFile(file, built));
    } catch (err) {
      removeDatabaseFile(file);
      throw err;
    }
    return () => {
      db.exec(`DETACH ${schema}`);
      removeDatabaseFile(file);
    };
  };
}

// Fails the type check when this side drifts from Node's.
({ startSecondThread }) satisfies typeof NodeSide;
