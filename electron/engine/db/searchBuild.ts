import type { SqliteConnection } from './connection.js';
import { SEARCH_INDEXES, searchFillParts, type SearchIndex } from './searchIndexSql.js';
import { SEARCH_BUILD_SCHEMA } from './searchIndexes.js';
import { atTurnEnd } from '../platform/timers.js';

// The search indexes of a bulk load built aside, into a database attached as SEARCH_BUILD_SCHEMA, and copied in
// after: on Node from the database file (searchBuildAside.ts), in the browser from a copy of it (searchBuildCopy.ts).

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

/**
 * Builds the search indexes `indexes` (every one unless told) of `db`'s main tables in the database attached
 * to it as SEARCH_BUILD_SCHEMA (which needs no journal: it is thrown away if
 * anything goes wrong). It runs in one transaction (so the slices fill the
 * same segments as one statement would), a slice of rows at a time, letting
 * this thread's other work run between slices: in the desktop app this is
 * the main process's thread, whose window and requests would otherwise
 * stall for the whole build (15 s at a million contacts). `signal` ends it,
 * rejecting, at its next slice. `db` needs the search functions
 * (registerSearchFunctions).
 */
export async function fillSearchIndexesAside(db: SqliteConnection, options: { indexes?: readonly SearchIndex[]; signal?: AbortSignal } = {}): Promise<void> {
  const { indexes = SEARCH_INDEXES, signal } = options;
  const schema = SEARCH_BUILD_SCHEMA;
  db.pragma(`${schema}.journal_mode = OFF`);
  db.pragma(`${schema}.synchronous = OFF`);
  db.exec('BEGIN');
  try {
    for (const index of indexes) {
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
        signal?.throwIfAborted();
      }
      db.exec(fill.after.join('\n'));
    }
    db.exec('COMMIT');
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  }
}

/**
 * The statements that put the search indexes `indexes` built aside (every
 * one unless told) in place of the main database's, on a connection with
 * SEARCH_BUILD_SCHEMA attached and FTS5's shadow tables writable. FTS5
 * caches an index's structure per connection and reads it again only after
 * another connection's commit (or reconnectSearchIndexes, on the connection
 * that made the copy).
 */
export const copySearchIndexesInSql = (indexes: readonly SearchIndex[] = SEARCH_INDEXES): string[] => indexes.flatMap(({ fts }) => SHADOW_PARTS.flatMap((part) => [
  `DELETE FROM main.${fts}_${part}`,
  `INSERT INTO main.${fts}_${part} SELECT * FROM ${SEARCH_BUILD_SCHEMA}.${fts}_${part}`,
]));

/** The file the search indexes built aside are held in at the end of a bulk load (beside the database; removed after). */
export const searchAsideFile = (databaseFile: string): string => `${databaseFile}-search-build`;
