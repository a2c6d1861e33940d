import Database from 'better-sqlite3';
import { SEARCH_INDEXES, searchFillParts } from './searchIndexSql.js';
import { SEARCH_BUILD_SCHEMA } from './searchIndexes.js';
import { registerSearchFunctions } from './sqlFunctions.js';
import { atTurnEnd } from '../platform/timers.js';

// A bulk load's search indexes built on a connection of their own, beside the engine's (Node only: db/sqlThreads.ts).

/**
 * FTS5's tables behind each search index that hold the index (`_config`
 * keeps its settings; the indexes keep no copy of the text: migration 32).
 */
const SHADOW_PARTS = ['data', 'idx', 'docsize'];
/**
 * Rows of a table one statement of the build aside reads before it lets this
 * thread's other work run: at a million contacts on this machine about
 * 13 µs a row, so each such pause is in the tens of milliseconds.
 */
export const SEARCH_SLICE_ROWS = 4000;
/** Below any id a row can have (records made on a replica before their hub id too). */
const BEFORE_EVERY_ID = Number.MIN_SAFE_INTEGER;

interface SearchBuildOptions {
  /** As the engine's own connection was opened (Electron's build of the driver). */
  nativeBinding?: string;
  /** The build connection's page cache, for each of the two files. */
  cacheKiB: number;
  /** Ends the build (rejecting) at its next slice. */
  signal?: AbortSignal;
}

/**
 * Builds every search index in the database file `aside` (made anew; no
 * journal, since it is thrown away if anything goes wrong) from the tables of
 * the database `file`, and returns the statements that copy them in.
 *
 * It runs on a connection of its own, in one transaction (so the slices fill
 * the same segments as one statement would), a slice of rows at a time,
 * letting this thread's other work run between slices: in the desktop app
 * this is the main process's thread, whose window and requests would
 * otherwise stall for the whole build (15 s at a million contacts). Building
 * aside only reads `file`, so another connection may write it meanwhile (a
 * bulk load's worker builds the secondary indexes so). The copy must run on
 * a connection other than this one and the engine's, with `aside` attached
 * as SEARCH_BUILD_SCHEMA and shadow-table writes allowed: FTS5 caches an
 * index's structure per connection and reads it again only after another
 * connection's commit.
 */
export async function buildSearchIndexesAside(file: string, aside: string, options: SearchBuildOptions): Promise<string[]> {
  const schema = SEARCH_BUILD_SCHEMA;
  const db = new Database(file, { nativeBinding: options.nativeBinding });
  try {
    registerSearchFunctions(db);
    db.pragma('busy_timeout = 5000');
    db.pragma(`cache_size = -${options.cacheKiB}`);
    db.prepare(`ATTACH ? AS ${schema}`).run(aside);
    db.pragma(`${schema}.journal_mode = OFF`);
    db.pragma(`${schema}.synchronous = OFF`);
    db.pragma(`${schema}.cache_size = -${options.cacheKiB}`);
    db.exec('BEGIN');
    for (const index of SEARCH_INDEXES) {
      const sql = db.prepare("SELECT sql FROM main.sqlite_master WHERE type = 'table' AND name = ?").pluck().get(index.fts) as string;
      db.exec(sql.replace(/^CREATE VIRTUAL TABLE /i, `CREATE VIRTUAL TABLE ${schema}.`));
      const fill = searchFillParts(index, `${schema}.${index.fts}`);
      db.exec(fill.before.join('\n'));
      const sliceEnd = db.prepare(`SELECT id FROM main.${index.table} WHERE id > ? ORDER BY id LIMIT 1 OFFSET ${SEARCH_SLICE_ROWS - 1}`).pluck();
      const slice = db.prepare(fill.insert(' WHERE id > ? AND id <= ?'));
      const rest = db.prepare(fill.insert(' WHERE id > ?'));
      for (let after = BEFORE_EVERY_ID; ;) {
        const last = sliceEnd.get(after) as number | undefined;
        if (last === undefined) {
          rest.run(after);
          break;
        }
        slice.run(after, last);
        after = last;
        await new Promise<void>((resolve) => atTurnEnd(resolve));
        options.signal?.throwIfAborted();
      }
      db.exec(fill.after.join('\n'));
    }
    db.exec('COMMIT');
  } finally {
    // Rolls back what a failure left open.
    db.close();
  }
  return SEARCH_INDEXES.flatMap(({ fts }) => SHADOW_PARTS.flatMap((part) => [
    `DELETE FROM main.${fts}_${part}`,
    `INSERT INTO main.${fts}_${part} SELECT * FROM ${schema}.${fts}_${part}`,
  ]));
}
